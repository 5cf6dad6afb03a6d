//! `/diagnostics` as ROS robots publish it: each node's `diagnostic_msgs/DiagnosticArray`
//! once a second, one [`DiagnosticStatus`] per part it watches (a controller link, the search,
//! the game), OK, WARN, ERROR or STALE, with key-values. Foxglove, rqt_robot_monitor,
//! diagnostic_aggregator and the web window's health panel read them.

use std::fmt::Display;
use std::time::Duration;

pub use checkers_msgs::diagnostic_msgs::msg::{DiagnosticArray, DiagnosticStatus, KeyValue};
use checkers_msgs::std_msgs::msg::Header;

use crate::{Node, Qos};

/// How often a node says how it is.
pub const PERIOD: Duration = Duration::from_secs(1);
pub const TOPIC: &str = "/diagnostics";

/// A status being written: `Status::ok("arm: controller", "homed, idle").value("port", p)`.
#[derive(Debug, Clone)]
pub struct Status(DiagnosticStatus);

impl Status {
    fn new(level: u8, name: &str, message: impl Into<String>) -> Status {
        Status(DiagnosticStatus {
            level,
            name: name.to_string(),
            message: message.into(),
            hardware_id: String::new(),
            values: Vec::new(),
        })
    }

    pub fn ok(name: &str, message: impl Into<String>) -> Status {
        Status::new(DiagnosticStatus::OK, name, message)
    }

    pub fn warn(name: &str, message: impl Into<String>) -> Status {
        Status::new(DiagnosticStatus::WARN, name, message)
    }

    pub fn error(name: &str, message: impl Into<String>) -> Status {
        Status::new(DiagnosticStatus::ERROR, name, message)
    }

    /// Nothing known yet (no reading, no answer).
    pub fn stale(name: &str, message: impl Into<String>) -> Status {
        Status::new(DiagnosticStatus::STALE, name, message)
    }

    /// The device it is about (a serial port, a firmware id).
    pub fn hardware(mut self, id: impl Into<String>) -> Status {
        self.0.hardware_id = id.into();
        self
    }

    pub fn value(mut self, key: &str, value: impl Display) -> Status {
        self.0.values.push(KeyValue {
            key: key.to_string(),
            value: value.to_string(),
        });
        self
    }

    /// Several values at once, in order.
    pub fn values<K: AsRef<str>, V: Display>(
        mut self,
        values: impl IntoIterator<Item = (K, V)>,
    ) -> Status {
        for (k, v) in values {
            self = self.value(k.as_ref(), v);
        }
        self
    }

    pub fn level(&self) -> u8 {
        self.0.level
    }

    pub fn build(self) -> DiagnosticStatus {
        self.0
    }
}

/// Publishes what `report` says on `/diagnostics` every [`PERIOD`] for as long as the node
/// runs (a task of the node). Diagnostics are not what the node is for: when the publisher
/// cannot be made (an rcl whose RMW has no type support for `diagnostic_msgs`), the node says
/// so once and runs on without them.
pub fn publish_periodically(
    node: &mut Node,
    mut report: impl FnMut() -> Vec<Status> + Send + 'static,
) {
    let out = match node.publisher::<DiagnosticArray>(TOPIC, Qos::Events) {
        Ok(out) => out,
        Err(e) => {
            tracing::warn!("no /diagnostics from this node: {e}");
            return;
        }
    };
    node.spawn(async move {
        let mut tick = tokio::time::interval(PERIOD);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let msg = DiagnosticArray {
                header: Header {
                    stamp: crate::clock::system_now(),
                    frame_id: String::new(),
                },
                status: report().into_iter().map(Status::build).collect(),
            };
            if let Err(e) = out.publish(msg).await {
                tracing::debug!("/diagnostics not published: {e}");
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_carries_its_level_and_values_in_order() {
        let s = Status::warn("arm: controller", "not homed")
            .hardware("/dev/ttyACM1")
            .value("homed", false)
            .value("alarms", 2)
            .build();
        assert_eq!(s.level, DiagnosticStatus::WARN);
        assert_eq!(s.hardware_id, "/dev/ttyACM1");
        let kv: Vec<_> = s
            .values
            .iter()
            .map(|k| (k.key.as_str(), k.value.as_str()))
            .collect();
        assert_eq!(kv, [("homed", "false"), ("alarms", "2")]);
    }
}
