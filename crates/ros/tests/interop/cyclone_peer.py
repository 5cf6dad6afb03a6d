"""An independent DDS peer for the wire-compatibility test: Eclipse Cyclone DDS (Python).

It reads `/game/state` (checkers_msgs/msg/GameState) that our node publishes, and publishes
`/board/occupancy` (checkers_msgs/msg/BoardOccupancy) for our node to read, using the DDS topic
and type names rmw gives ROS 2 interfaces. The types below are written by hand from
msgs/msg/*.msg, field by field: that is the point of the test.

Usage: python cyclone_peer.py DOMAIN_ID TIMEOUT_S   (loopback only, via CYCLONEDDS_URI)
"""

import sys
import time
from dataclasses import dataclass, field

from cyclonedds.core import Policy, Qos
from cyclonedds.domain import DomainParticipant
from cyclonedds.idl import IdlStruct
from cyclonedds.idl.types import float32, int32, sequence, uint8, uint32, uint64
from cyclonedds.pub import DataWriter
from cyclonedds.sub import DataReader
from cyclonedds.topic import Topic
from cyclonedds.util import duration


@dataclass
class Time(IdlStruct, typename="builtin_interfaces::msg::dds_::Time_"):
    sec: int32
    nanosec: uint32


@dataclass
class Header(IdlStruct, typename="std_msgs::msg::dds_::Header_"):
    stamp: Time
    frame_id: str


@dataclass
class Position(IdlStruct, typename="checkers_msgs::msg::dds_::Position_"):
    white: uint32
    black: uint32
    kings: uint32
    side_to_move: uint8
    fen: str


@dataclass
class Move(IdlStruct, typename="checkers_msgs::msg::dds_::Move_"):
    from_square: uint8
    to_square: uint8
    path: sequence[uint8, 12]
    captured: sequence[uint8, 12]
    promotes: bool
    text: str


@dataclass
class GameState(IdlStruct, typename="checkers_msgs::msg::dds_::GameState_"):
    header: Header
    game_id: uint32
    position: Position
    status: uint8
    robot_color: uint8
    level: str
    ply: uint32
    last_move: Move
    legal_moves: sequence[Move]
    candidates: sequence[Move]
    result: str
    result_reason: str
    search_depth: uint32
    search_nodes: uint64
    best_move_text: str
    search_elapsed_s: float32
    message: str


@dataclass
class BoardOccupancy(IdlStruct, typename="checkers_msgs::msg::dds_::BoardOccupancy_"):
    header: Header
    occupied: uint32
    seq: uint64
    confirmed: bool


def main() -> int:
    domain, timeout = int(sys.argv[1]), float(sys.argv[2])
    # The QoS of our state topics: reliable, transient-local, keep last 1.
    qos = Qos(
        Policy.Reliability.Reliable(duration(milliseconds=100)),
        Policy.Durability.TransientLocal,
        Policy.History.KeepLast(1),
    )
    dp = DomainParticipant(domain)
    state_reader = DataReader(dp, Topic(dp, "rt/game/state", GameState, qos=qos), qos=qos)
    occupancy_writer = DataWriter(
        dp, Topic(dp, "rt/board/occupancy", BoardOccupancy, qos=qos), qos=qos
    )
    reading = BoardOccupancy(
        header=Header(stamp=Time(sec=1, nanosec=2), frame_id="board"),
        occupied=0x00ABCDEF,
        seq=77,
        confirmed=True,
    )
    got_state = False
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        occupancy_writer.write(reading)
        for sample in state_reader.take(N=10):
            if not got_state:
                print(
                    f"python got ply {sample.ply} fen {sample.position.fen} "
                    f"level {sample.level}",
                    flush=True,
                )
                got_state = True
        time.sleep(0.1)
    return 0 if got_state else 1


if __name__ == "__main__":
    sys.exit(main())
