"""Serves the checkers_msgs/action/PlanMove action on /planner/plan: five feedbacks, then 22-18."""
import time
import rclpy
from rclpy.action import ActionServer, CancelResponse
from rclpy.executors import MultiThreadedExecutor
from checkers_msgs.action import PlanMove

rclpy.init()
node = rclpy.create_node("rclpy_plan_server")


def execute(goal):
    feedback = PlanMove.Feedback()
    for depth in range(1, 6):
        if goal.is_cancel_requested:
            goal.canceled()
            return PlanMove.Result(message="cancelled")
        feedback.depth = depth
        feedback.best_move_text = "22-18"
        goal.publish_feedback(feedback)
        time.sleep(0.1)
    goal.succeed()
    result = PlanMove.Result(algorithm="rclpy")
    result.best_move.from_square = 22
    result.best_move.to_square = 18
    result.best_move.text = "22-18"
    return result


ActionServer(node, PlanMove, "/planner/plan", execute, cancel_callback=lambda _: CancelResponse.ACCEPT)
rclpy.spin(node, executor=MultiThreadedExecutor())
