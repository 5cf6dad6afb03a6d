"""Watches the ROS graph for the node /ros_probe: prints "seen" once it is there, then
"gone at T" (Unix time) once it has left the graph, and exits 0; exits 1 after argv[1] seconds
(default 40) without both."""
import sys
import time

import rclpy

limit = float(sys.argv[1]) if len(sys.argv) > 1 else 40.0
rclpy.init()
node = rclpy.create_node("rclpy_graph_watch")
end = time.monotonic() + limit
seen = False


def present():
    return "ros_probe" in node.get_node_names()


while time.monotonic() < end:
    rclpy.spin_once(node, timeout_sec=0.1)
    if not seen and present():
        seen = True
        print("seen", flush=True)
    elif seen and not present():
        print(f"gone at {time.time():.3f}", flush=True)
        sys.exit(0)
print("seen but never gone" if seen else "never seen")
sys.exit(1)
