"""Sends a short PlanMove goal to /planner/plan and never asks for its result: watches the
action's status topic instead. Exits 0 when the goal's status there becomes SUCCEEDED, as a ROS 2
action server publishes it when the goal ends, whether or not a client has asked for the result."""
import sys
import time
import rclpy
from rclpy.action import ActionClient
from rclpy.qos import QoSProfile, DurabilityPolicy, ReliabilityPolicy
from action_msgs.msg import GoalStatus, GoalStatusArray
from checkers_msgs.action import PlanMove

rclpy.init()
node = rclpy.create_node("rclpy_plan_status")
statuses = {}


def on_status(msg):
    for s in msg.status_list:
        statuses[bytes(s.goal_info.goal_id.uuid)] = s.status


# The status topic's QoS as rcl_action gives it: reliable, transient local.
qos = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL, reliability=ReliabilityPolicy.RELIABLE)
node.create_subscription(GoalStatusArray, "/planner/plan/_action/status", on_status, qos)
client = ActionClient(node, PlanMove, "/planner/plan")
if not client.wait_for_server(timeout_sec=20):
    print("no action server")
    sys.exit(2)
goal_future = client.send_goal_async(PlanMove.Goal(time_budget_s=0.2))
rclpy.spin_until_future_complete(node, goal_future, timeout_sec=20)
handle = goal_future.result()
if handle is None or not handle.accepted:
    print("goal not accepted")
    sys.exit(3)
goal = bytes(handle.goal_id.uuid)
deadline = time.monotonic() + 20
while time.monotonic() < deadline and statuses.get(goal) != GoalStatus.STATUS_SUCCEEDED:
    rclpy.spin_once(node, timeout_sec=0.1)
print("status", statuses.get(goal))
sys.exit(0 if statuses.get(goal) == GoalStatus.STATUS_SUCCEEDED else 1)
