#!/usr/bin/env bash
# What .ci/run's r2r stages need built, built beside the test lanes (tools/test_lanes.py
# --beside, at idle priority): the tests mostly wait on a simulated robot, and this CPU-bound
# work fills the time they leave (docs/results.md, "CI's time").
# - the r2r backend type-checked and linted against r2r's doc-only bindings;
# - where ROS 2 is installed (ROS2_SETUP given): checkers_msgs with colcon, then the r2r
#   backend's library tests over the real rcl, which builds r2r and its generated messages,
#   the bulk of that stage's build.
# Never a binary or an example: the tests running beside it run target/debug/checkers-robot
# and target/debug/examples/, which a build of them here would replace with r2r's.
# Usage: r2r_deps.sh [ROS2_SETUP]
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo clippy -p ros --features r2r-doc-only --lib -- -D warnings
if [ -z "${1:-}" ]; then
  exit 0
fi
# The same ROS tree and workspace as the tests' own (tests/ros2_support): whichever comes first
# builds it, under its lock, and the others find it built.
target="$(cd "${CARGO_TARGET_DIR:-target}" && pwd)"
bash tools/ros2/build_checkers_msgs.sh "${ROS2_PREFIX:-/opt/ros/jazzy-min}" "$target/tmp/ros2_ws"
# shellcheck disable=SC1091
source tools/ci/r2r_env.sh "$1"
cargo test -p ros --features r2r --lib --no-run
