"""An independent DDS peer for the wire-compatibility test: Eclipse Cyclone DDS (Python).

It reads `/game/state` (checkers_msgs/msg/GameState) that our node publishes, and publishes
`/board/occupancy` (checkers_msgs/msg/BoardOccupancy) for our node to read, using the DDS topic
and type names rmw gives ROS 2 interfaces. The types below are written by hand from
msgs/msg/*.msg, field by field: that is the point of the test.

With a third argument BYTES it also wants our GameState's `message` to be BYTES long and
intact (a sample sent in DATA_FRAG submessages when large), and publishes a GameState with a
message of BYTES on `/peer/state` for our node to check.

Usage: python cyclone_peer.py DOMAIN_ID TIMEOUT_S [BYTES]   (loopback only, via CYCLONEDDS_URI)
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


def pattern(n: int) -> str:
    """What ros_probe writes into `message`: the decimal offset of every tenth byte."""
    return "".join(f"{i:<10}" for i in range(0, n + 10, 10))[:n]


def main() -> int:
    domain, timeout = int(sys.argv[1]), float(sys.argv[2])
    size = int(sys.argv[3]) if len(sys.argv) > 3 else 0
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
    big_writer = None
    big = None
    if size:
        big_writer = DataWriter(dp, Topic(dp, "rt/peer/state", GameState, qos=qos), qos=qos)
        big = GameState(
            header=Header(stamp=Time(sec=1, nanosec=2), frame_id=""),
            game_id=0,
            position=Position(white=0, black=0, kings=0, side_to_move=0, fen="W:W21-32:B1-12"),
            status=0,
            robot_color=0,
            level="",
            ply=42,
            last_move=Move(from_square=0, to_square=0, path=[], captured=[], promotes=False, text=""),
            legal_moves=[],
            candidates=[],
            result="",
            result_reason="",
            search_depth=0,
            search_nodes=0,
            best_move_text="",
            search_elapsed_s=0.0,
            message=pattern(size),
        )
    got_state = False
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        occupancy_writer.write(reading)
        if big_writer is not None:
            big_writer.write(big)
        for sample in state_reader.take(N=10):
            if not got_state and len(sample.message) >= size:
                intact = "intact" if sample.message == pattern(len(sample.message)) else "CORRUPT"
                print(
                    f"python got ply {sample.ply} fen {sample.position.fen} "
                    f"level {sample.level} message {len(sample.message)} bytes {intact}",
                    flush=True,
                )
                got_state = True
        time.sleep(0.1)
    return 0 if got_state else 1


if __name__ == "__main__":
    sys.exit(main())
