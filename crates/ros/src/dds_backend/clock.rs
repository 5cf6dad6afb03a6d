//! ros2-client's clock as message stamps.

use checkers_msgs::builtin_interfaces::msg::Time;
use ros2_client::ROSTime;

pub(crate) fn to_msg(t: ROSTime) -> Time {
    let nanos = t.to_nanos();
    Time {
        sec: nanos.div_euclid(1_000_000_000) as i32,
        nanosec: nanos.rem_euclid(1_000_000_000) as u32,
    }
}
