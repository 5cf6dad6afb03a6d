//! The board sensor's `/diagnostics`: the field controller's link, the buttons' counters, and
//! how the readings go (a reading that never settles is a sensor or a piece in the way).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use ros::diagnostics::Status;

use serial_link::session::LinkHealth;

use crate::field_link::Presses;

pub const NAME: &str = "board_sensor: field controller";

/// The readings so far.
#[derive(Debug, Default)]
pub struct Readings {
    pub ok: AtomicU64,
    pub failed: AtomicU64,
    pub last_failure: Mutex<String>,
    pub last_occupancy: Mutex<Option<u32>>,
}

impl Readings {
    pub fn record(&self, result: &Result<u32, impl std::fmt::Display>) {
        match result {
            Ok(occupied) => {
                self.ok.fetch_add(1, Ordering::Relaxed);
                *self
                    .last_occupancy
                    .lock()
                    .unwrap_or_else(|p| p.into_inner()) = Some(*occupied);
            }
            Err(e) => {
                self.failed.fetch_add(1, Ordering::Relaxed);
                *self.last_failure.lock().unwrap_or_else(|p| p.into_inner()) = e.to_string();
            }
        }
    }
}

pub fn report(port: &str, h: &LinkHealth, p: Presses, r: &Readings) -> Status {
    let failure = r
        .last_failure
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .clone();
    let occupancy = *r.last_occupancy.lock().unwrap_or_else(|p| p.into_inner());
    let base = if !h.connected {
        Status::error(NAME, format!("no link: {}", h.state))
    } else if occupancy.is_none() && failure.is_empty() {
        Status::ok(NAME, "connected, no reading asked for yet")
    } else if occupancy.is_none() {
        Status::warn(NAME, format!("no trusted reading yet: {failure}"))
    } else {
        Status::ok(NAME, "connected")
    };
    let presses = |p: Option<u16>| p.map_or("unknown".into(), |p| p.to_string());
    base.hardware(port)
        .value("port", port)
        .values(h.key_values())
        .value("readings", r.ok.load(Ordering::Relaxed))
        .value("readings_failed", r.failed.load(Ordering::Relaxed))
        .value("last_failure", failure)
        .value(
            "occupied",
            occupancy.map_or("unknown".into(), |o| o.count_ones().to_string()),
        )
        .value("confirm_presses", presses(p.confirm))
        .value("new_game_presses", presses(p.new_game))
        .value("rejected", h.rejected)
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers_msgs::diagnostic_msgs::msg::DiagnosticStatus;

    #[test]
    fn a_lost_link_is_an_error_and_unsettled_readings_a_warning() {
        let r = Readings::default();
        let p = Presses::default();
        let down = LinkHealth {
            state: "cannot open the port".into(),
            ..Default::default()
        };
        assert_eq!(report("p", &down, p, &r).level(), DiagnosticStatus::ERROR);
        let up = LinkHealth {
            connected: true,
            ..Default::default()
        };
        assert_eq!(report("p", &up, p, &r).level(), DiagnosticStatus::OK);
        r.record(&Err::<u32, _>("kept changing"));
        assert_eq!(report("p", &up, p, &r).level(), DiagnosticStatus::WARN);
        r.record(&Ok::<u32, String>(0xfff0_0fff));
        let s = report("p", &up, p, &r).build();
        assert_eq!(s.level, DiagnosticStatus::OK);
        assert!(s
            .values
            .iter()
            .any(|k| k.key == "occupied" && k.value == "24"));
    }
}
