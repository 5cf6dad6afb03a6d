# The environment of the r2r backend's builds over the real rcl, sourced by .ci/run's r2r stage
# and by tools/ci/r2r_deps.sh beside the tests: one definition, so that the build beside the
# tests and the stage after them see the same variables and cargo builds nothing twice (r2r's
# build scripts run again when any of them changes).
# Usage: source tools/ci/r2r_env.sh ROS2_SETUP   (../shared/ros2/setup.sh)
set +u # ROS's setup scripts read unset variables
eval "$("$1" all)"
# checkers_msgs as colcon built it for the tests against real ROS 2 (CARGO_TARGET_TMPDIR).
# shellcheck disable=SC1091
source "${CARGO_TARGET_DIR:-target}/tmp/ros2_ws/install/setup.bash"
set -u
export IDL_PACKAGE_FILTER="checkers_msgs;std_msgs;geometry_msgs;sensor_msgs;visualization_msgs;diagnostic_msgs;rosgraph_msgs;builtin_interfaces;rcl_interfaces;action_msgs;unique_identifier_msgs;service_msgs"
# Fast DDS's pkg-config folder, which ROS's setup adds, would make openssl-sys, and all that
# is built on it, build again; r2r does not use it.
unset PKG_CONFIG_PATH
