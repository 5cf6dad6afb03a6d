"""Serves checkers_msgs/srv/ScanBoard on /board/scan with a fixed occupancy, until killed."""
import rclpy
from checkers_msgs.srv import ScanBoard

rclpy.init()
node = rclpy.create_node("rclpy_scan_server")


def answer(request, response):
    response.success = True
    response.message = "from rclpy"
    response.occupancy.occupied = 0x3039
    response.occupancy.seq = 7
    return response


node.create_service(ScanBoard, "/board/scan", answer)
rclpy.spin(node)
