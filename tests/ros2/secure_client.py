"""rclpy against the secured robot graph (tests/security.rs). The enclave comes from
ROS_SECURITY_ENCLAVE_OVERRIDE (none: no credentials). Prints one line per check:
- operator: `state ply=N` once /game/state arrives, then `new_game success=B`;
- intruder: `state none` when no /game/state arrives in the time given, `new_game unreachable`
  when /game/new is not discovered;
- viewer (node rviz2): `joints N` once /joint_states arrives, then `goal refused: WHY` when
  the /arm/execute goal cannot be sent or is not accepted."""
import sys
import time

import rclpy
from rclpy.action import ActionClient
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy, qos_profile_sensor_data

from checkers_msgs.action import ExecuteMove
from checkers_msgs.msg import GameState
from checkers_msgs.srv import NewGame
from sensor_msgs.msg import JointState

mode = sys.argv[1]
wait = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0
rclpy.init()
node = rclpy.create_node({"operator": "operator", "viewer": "rviz2"}.get(mode, "intruder"))
latched = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                     reliability=ReliabilityPolicy.RELIABLE)


def spin_until(pred, limit):
    end = time.monotonic() + limit
    while not pred() and time.monotonic() < end:
        rclpy.spin_once(node, timeout_sec=0.1)
    return pred()


if mode in ("operator", "intruder"):
    states = []
    node.create_subscription(GameState, "/game/state", states.append, latched)
    client = node.create_client(NewGame, "/game/new")
    if spin_until(lambda: states, wait):
        print(f"state ply={states[-1].ply}", flush=True)
    else:
        print("state none", flush=True)
    if not client.wait_for_service(timeout_sec=wait if mode == "operator" else 3.0):
        print("new_game unreachable", flush=True)
    else:
        future = client.call_async(NewGame.Request(robot_color=NewGame.Request.SIDE_BLACK))
        rclpy.spin_until_future_complete(node, future, timeout_sec=wait)
        result = future.result()
        print(f"new_game success={result.success if result else None}", flush=True)
elif mode == "viewer":
    joints = []
    # The arm and the neck publish best effort, as sensor data.
    node.create_subscription(JointState, "/joint_states", joints.append, qos_profile_sensor_data)
    if spin_until(lambda: joints, wait):
        print(f"joints {len(joints[-1].position)}", flush=True)
    else:
        print("joints none", flush=True)
    try:
        action = ActionClient(node, ExecuteMove, "/arm/execute")
    except Exception as e:  # the DDS layer refuses the writers the permissions deny
        print(f"goal refused: {type(e).__name__}", flush=True)
    else:
        if not action.wait_for_server(timeout_sec=3.0):
            print("goal refused: no server matched", flush=True)
        else:
            future = action.send_goal_async(ExecuteMove.Goal())
            rclpy.spin_until_future_complete(node, future, timeout_sec=5.0)
            handle = future.result()
            if handle is None or not handle.accepted:
                print("goal refused: not accepted", flush=True)
            else:
                print("goal ACCEPTED", flush=True)
node.destroy_node()
rclpy.try_shutdown()
