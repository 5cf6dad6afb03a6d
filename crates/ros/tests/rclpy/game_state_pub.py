"""Publishes a checkers_msgs/GameState on /game/state (transient local, as our State QoS) until killed."""
import rclpy
from rclpy.qos import QoSProfile, DurabilityPolicy, ReliabilityPolicy
from checkers_msgs.msg import GameState

rclpy.init()
node = rclpy.create_node("rclpy_state_pub")
qos = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL, reliability=ReliabilityPolicy.RELIABLE)
pub = node.create_publisher(GameState, "/game/state", qos)
msg = GameState()
msg.ply = 42
msg.position.fen = "W:W21-32:B1-12"
node.create_timer(0.1, lambda: pub.publish(msg))
rclpy.spin(node)
