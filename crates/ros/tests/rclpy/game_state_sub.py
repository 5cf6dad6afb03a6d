"""Prints the first checkers_msgs/GameState on /game/state whose `message` has at least N bytes
(argv[1], default 0), and whether it holds the pattern ros_probe writes; exits 1 after argv[2]
seconds (default 20) without one."""
import sys
import time

import rclpy
from rclpy.qos import QoSProfile, DurabilityPolicy, ReliabilityPolicy
from checkers_msgs.msg import GameState


def pattern(n):
    out = "".join(f"{i:<10}" for i in range(0, n + 10, 10))
    return out[:n]


least = int(sys.argv[1]) if len(sys.argv) > 1 else 0
limit = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0
rclpy.init()
node = rclpy.create_node("rclpy_state_sub")
qos = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL, reliability=ReliabilityPolicy.RELIABLE)
got = []
node.create_subscription(GameState, "/game/state", lambda m: got.append(m) if len(m.message) >= least else None, qos)
end = time.monotonic() + limit
while not got and time.monotonic() < end:
    rclpy.spin_once(node, timeout_sec=0.1)
if not got:
    print(f"no GameState with a message of {least} bytes in {limit} s")
    sys.exit(1)
m = got[0]
intact = "intact" if m.message == pattern(len(m.message)) else "CORRUPT"
print(f"received ply {m.ply} fen {m.position.fen} message {len(m.message)} bytes, {intact}")
