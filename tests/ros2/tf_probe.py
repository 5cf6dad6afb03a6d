"""Reads the robot's TF tree as rviz does, through rclpy's tf2 (robot_state_publisher's
transforms): for SAMPLES /joint_states messages of the arm, each with other joint angles than the
last (the arm moving), the arm's joints and the pose of `suction_cup` in `base_link` at that
message's stamp; then whether every link of the URDF has a transform to `base_link`. Only the
messages robot_state_publisher turned into transforms count (it publishes at most 20 Hz): at any
other stamp tf2 interpolates, and a fast arm is then centimetres off.

Prints a line per sample, `sample J1 J2 J3 PAN TILT X Y Z` (radians, metres), then `links N
missing LINK...`. Usage: tf_probe.py URDF SAMPLES TIMEOUT_S
"""
import os
import sys
import time
import xml.etree.ElementTree as ET

import rclpy
from rclpy.duration import Duration
from rclpy.qos import qos_profile_sensor_data
from rclpy.time import Time
from sensor_msgs.msg import JointState
from tf2_msgs.msg import TFMessage
from tf2_ros import Buffer, TransformListener

ARM = ["j1_yaw", "j2_shoulder", "j3_elbow"]
NECK = ["neck_pan", "neck_tilt"]

urdf, samples, limit = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
links = [l.get("name") for l in ET.parse(urdf).getroot().findall("link")]

rclpy.init()
node = rclpy.create_node("tf_probe")
buffer = Buffer()
# A node and a thread of its own: a lookup that waits for a stamp must not stop the transforms
# arriving, and a node spun by two executors loses callbacks.
TransformListener(buffer, rclpy.create_node("tf_probe_listener"), spin_thread=True)
arm_states = {}  # stamp (ns) -> the arm's joints
published = []  # stamps (ns) of robot_state_publisher's transforms of the arm
neck = [0.0, 0.0]


def on_joints(msg):
    pos = dict(zip(msg.name, msg.position))
    if all(j in pos for j in NECK):
        neck[:] = [pos[j] for j in NECK]
    if all(j in pos for j in ARM):
        arm_states[Time.from_msg(msg.header.stamp).nanoseconds] = [pos[j] for j in ARM]
        while len(arm_states) > 500:
            del arm_states[next(iter(arm_states))]


def on_tf(msg):
    for t in msg.transforms:
        if t.child_frame_id == "forearm":
            published.append(Time.from_msg(t.header.stamp).nanoseconds)
    del published[:-100]


# Our /joint_states are best effort, as sensor data (and robot_state_publisher reads them so).
node.create_subscription(JointState, "/joint_states", on_joints, qos_profile_sensor_data)
node.create_subscription(TFMessage, "/tf", on_tf, 100)
end = time.monotonic() + limit
done = 0
last = None
taken = []
while done < samples and time.monotonic() < end:
    rclpy.spin_once(node, timeout_sec=0.05)
    if time.monotonic() - (last or 0) < 0.1:
        continue
    ready = [ns for ns in published if ns in arm_states]
    if not ready:
        continue
    stamp_ns = ready[-1]
    joints = arm_states[stamp_ns]
    published.clear()
    stamp = Time(nanoseconds=stamp_ns)
    if taken and max(abs(a - b) for a, b in zip(joints, taken[-1])) < 1e-3:
        continue
    try:
        t = buffer.lookup_transform("base_link", "suction_cup", stamp, Duration(seconds=2.0)).transform
    except Exception as e:  # not yet in the buffer: the next sample
        print(f"# {e}", file=sys.stderr)
        continue
    last = time.monotonic()
    taken.append(joints)
    done += 1
    cup = [t.translation.x, t.translation.y, t.translation.z]
    print("sample", *joints, *neck, *cup, flush=True)

missing = []
for link in links:
    if link == "base_link":
        continue
    if not buffer.can_transform("base_link", link, Time(), Duration(seconds=2.0)):
        missing.append(link)
print("links", len(links), "missing", *missing, flush=True)
sys.stdout.flush()
# The listener's thread would keep the process alive.
os._exit(0 if done == samples else 1)
