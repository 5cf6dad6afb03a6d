"""Sends a PlanMove goal to /planner/plan, cancels it after the second feedback, and prints the
final status. Exits 0 when the server reported the goal CANCELED."""
import sys
import rclpy
from rclpy.action import ActionClient
from action_msgs.msg import GoalStatus
from checkers_msgs.action import PlanMove

rclpy.init()
node = rclpy.create_node("rclpy_plan_cancel")
client = ActionClient(node, PlanMove, "/planner/plan")
if not client.wait_for_server(timeout_sec=20):
    print("no action server")
    sys.exit(2)
feedbacks = []
goal_future = client.send_goal_async(PlanMove.Goal(time_budget_s=5.0), feedback_callback=lambda f: feedbacks.append(f.feedback.depth))
rclpy.spin_until_future_complete(node, goal_future, timeout_sec=20)
handle = goal_future.result()
if handle is None or not handle.accepted:
    print("goal not accepted")
    sys.exit(3)
while len(feedbacks) < 2:
    rclpy.spin_once(node, timeout_sec=0.1)
cancel_future = handle.cancel_goal_async()
rclpy.spin_until_future_complete(node, cancel_future, timeout_sec=20)
print("cancel return code", cancel_future.result().return_code)
result_future = handle.get_result_async()
rclpy.spin_until_future_complete(node, result_future, timeout_sec=20)
status = result_future.result().status
print("feedback depths", feedbacks, "status", status)
sys.exit(0 if status == GoalStatus.STATUS_CANCELED else 1)
