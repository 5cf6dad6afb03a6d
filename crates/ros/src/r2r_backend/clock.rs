//! The node's clock as message stamps.

use std::time::Duration;

use checkers_msgs::builtin_interfaces::msg::Time;

/// rcl's clocks count nanoseconds since the epoch (or since /clock's zero).
pub(crate) fn to_msg(since_epoch: Duration) -> Time {
    Time {
        sec: i32::try_from(since_epoch.as_secs()).unwrap_or(i32::MAX),
        nanosec: since_epoch.subsec_nanos(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_split_into_seconds_and_remainder() {
        let t = to_msg(Duration::from_nanos(1_700_000_000_250_000_000));
        assert_eq!((t.sec, t.nanosec), (1_700_000_000, 250_000_000));
    }
}
