"""Publishes a checkers_msgs/GameState on /game/state (transient local, as our State QoS) until
killed. An optional argument pads `message` to that many bytes (the pattern ros_probe checks)."""
import sys

import rclpy
from rclpy.qos import QoSProfile, DurabilityPolicy, ReliabilityPolicy
from checkers_msgs.msg import GameState


def pattern(n):
    out = "".join(f"{i:<10}" for i in range(0, n + 10, 10))
    return out[:n]


rclpy.init()
node = rclpy.create_node("rclpy_state_pub")
qos = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL, reliability=ReliabilityPolicy.RELIABLE)
pub = node.create_publisher(GameState, "/game/state", qos)
msg = GameState()
msg.ply = 42
msg.position.fen = "W:W21-32:B1-12"
msg.message = pattern(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
node.create_timer(0.1, lambda: pub.publish(msg))
rclpy.spin(node)
