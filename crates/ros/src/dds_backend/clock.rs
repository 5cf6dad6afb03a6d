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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nanoseconds_split_into_seconds_and_remainder() {
        let t = to_msg(ROSTime::from_nanos(1_700_000_000_250_000_000));
        assert_eq!((t.sec, t.nanosec), (1_700_000_000, 250_000_000));
        assert!((crate::clock::seconds(&t) - 1_700_000_000.25).abs() < 1e-6);
    }
}
