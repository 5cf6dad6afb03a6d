//! Time as ROS messages carry it.

use checkers_msgs::builtin_interfaces::msg::Time;

/// The system clock as a message stamp (for code that has no node at hand; a node's own clock,
/// [`crate::Node::now`], follows `/clock` under `use_sim_time`).
pub fn system_now() -> Time {
    let since_epoch = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    Time {
        sec: i32::try_from(since_epoch.as_secs()).unwrap_or(i32::MAX),
        nanosec: since_epoch.subsec_nanos(),
    }
}

/// Seconds since the epoch, for arithmetic on stamps.
pub fn seconds(t: &Time) -> f64 {
    f64::from(t.sec) + f64::from(t.nanosec) * 1e-9
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_system_clock_is_after_2020() {
        assert!(system_now().sec > 1_577_836_800);
    }
}
