#!/usr/bin/env bash
# Builds msgs/ (the checkers_msgs package) with colcon into WS, for the tests against real ROS 2
# (crates/ros/tests/ros2_interop.rs and tests/ros2_support, one build for both), unless the same
# interface files were built there over the same ROS trees.
# Usage: build_checkers_msgs.sh ROS_PREFIX WS     (ROS_PREFIX: /opt/ros/jazzy-min)
set -euo pipefail
prefix=$1
ws=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
files=(package.xml CMakeLists.txt msg srv action)
# Test binaries run side by side (tools/test_lanes.py): one build at a time, the others wait
# for it and then find it done.
mkdir -p "$(dirname "$ws")"
exec 9>"$ws.lock"
flock 9
# The trees `../shared/ros2/setup.sh all` adds beside jazzy-min: Fast DDS brings its own type
# support, so the package is built again when they come or go.
overlays=()
for tree in jazzy-fastdds jazzy-viz; do
  setup="$(dirname "$prefix")/$tree/local_setup.bash"
  if [ -f "$setup" ]; then overlays+=("$setup"); fi
done
stamp="$(cd "$repo/msgs" && find "${files[@]}" -type f -exec md5sum {} + | sort) ${overlays[*]}"
if [ -f "$ws/install/setup.bash" ] && [ "$(cat "$ws/stamp" 2>/dev/null)" = "$stamp" ]; then
  exit 0
fi
rm -rf "$ws"
mkdir -p "$ws/src/checkers_msgs"
for f in "${files[@]}"; do cp -r "$repo/msgs/$f" "$ws/src/checkers_msgs/"; done
set +u # ROS's setup scripts read unset variables
# shellcheck disable=SC1091
source "$prefix/setup.bash"
for setup in "${overlays[@]}"; do
  # shellcheck disable=SC1090
  source "$setup"
done
set -u
export PATH="$prefix/venv/bin:$PATH" ROS_LOG_DIR="$ws/log"
cd "$ws"
if ! colcon build --cmake-args -DBUILD_TESTING=OFF -DPython3_EXECUTABLE="$prefix/venv/bin/python" \
  >"$ws/colcon.log" 2>&1; then
  cat "$ws/colcon.log"
  exit 1
fi
printf '%s' "$stamp" >"$ws/stamp"
