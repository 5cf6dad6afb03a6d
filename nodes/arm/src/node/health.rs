//! The arm's `/diagnostics`: the controller's link, whether it is homed, its alarms (a stall
//! is lost steps), and what the arm is doing.

use ros::diagnostics::Status;
use serial_link::arm::{AlarmCode, ArmState};
use serial_link::session::LinkHealth;

use super::controller::ControllerState;

/// The status's name; the web window's health panel and the arm's activity go by it.
pub const NAME: &str = "arm: controller";

/// What the node itself knows beside the controller's state.
#[derive(Debug, Clone, Default)]
pub struct Work {
    /// "idle", "homing", "executing c3:e5:g3".
    pub activity: String,
    pub moves_done: u64,
    pub moves_failed: u64,
    /// Why the last move failed.
    pub last_failure: String,
}

pub fn report(port: &str, c: &ControllerState, link: &LinkHealth, work: &Work) -> Status {
    let status = c.status.as_ref();
    let state = status.map(|s| s.state);
    let homed = status.is_some_and(|s| s.homed);
    let activity = match (work.activity.as_str(), state) {
        ("idle", Some(ArmState::Homing)) => "homing".to_string(),
        ("" | "idle", Some(ArmState::Alarm)) => "stopped by an alarm".to_string(),
        ("", _) => "idle".to_string(),
        (a, _) => a.to_string(),
    };
    let base = if !c.connected {
        Status::error(NAME, format!("no link: {}", c.last_loss))
    } else if state == Some(ArmState::Alarm) {
        Status::error(
            NAME,
            format!(
                "in alarm: {}",
                c.last_alarm.map_or("?".into(), |a| format!("{:?}", a.code))
            ),
        )
    } else if status.is_none() {
        Status::stale(NAME, "no status from the controller yet")
    } else if !homed {
        Status::warn(NAME, format!("{activity}; not homed yet"))
    } else {
        Status::ok(NAME, activity.clone())
    };
    let stalls = c
        .last_alarm
        .filter(|a| a.code == AlarmCode::Stall)
        .map_or(0, |_| 1);
    base.hardware(port)
        .value("port", port)
        .value("firmware", &c.firmware)
        .value("link", if c.connected { "up" } else { "down" })
        .value("sessions", c.session)
        .value("round_trip_ms", link.round_trip_ms())
        .value("crc_errors", link.crc_errors)
        .value("retransmits", link.retransmits)
        .value("homed", homed)
        .value(
            "state",
            state.map_or("unknown".into(), |s| format!("{s:?}").to_lowercase()),
        )
        .value("pump", status.is_some_and(|s| s.pump_on))
        .value("activity", activity)
        .value("alarms", c.alarms)
        .value(
            "last_alarm",
            c.last_alarm.map_or("none".into(), |a| {
                format!("{:?} (joint {}, detail {})", a.code, a.joint, a.detail)
            }),
        )
        .value("lost_steps_alarm", stalls > 0)
        .value("rejected", c.rejected)
        .value("moves_done", work.moves_done)
        .value("moves_failed", work.moves_failed)
        .value("last_failure", &work.last_failure)
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers_msgs::diagnostic_msgs::msg::DiagnosticStatus;
    use serial_link::arm::{Alarm, ArmStatus};

    fn value(s: &DiagnosticStatus, key: &str) -> String {
        s.values
            .iter()
            .find(|k| k.key == key)
            .map(|k| k.value.clone())
            .unwrap_or_default()
    }

    #[test]
    fn the_level_follows_the_link_the_homing_and_the_alarms() {
        let work = Work::default();
        let down = ControllerState {
            last_loss: "port closed".into(),
            ..Default::default()
        };
        assert_eq!(
            report("p", &down, &LinkHealth::default(), &work).level(),
            DiagnosticStatus::ERROR
        );
        let mut up = ControllerState {
            connected: true,
            ..Default::default()
        };
        assert_eq!(
            report("p", &up, &LinkHealth::default(), &work).level(),
            DiagnosticStatus::STALE
        );
        up.status = Some(ArmStatus {
            state: ArmState::Idle,
            homed: false,
            pump_on: false,
            move_id: 0,
            joints: [serial_link::CentiDeg(0); 3],
        });
        assert_eq!(
            report("p", &up, &LinkHealth::default(), &work).level(),
            DiagnosticStatus::WARN
        );
        up.status = up.status.map(|s| ArmStatus { homed: true, ..s });
        let ok = report("p", &up, &LinkHealth::default(), &work).build();
        assert_eq!(ok.level, DiagnosticStatus::OK);
        assert_eq!(value(&ok, "activity"), "idle");
        up.status = up.status.map(|s| ArmStatus {
            state: ArmState::Alarm,
            ..s
        });
        up.alarms = 1;
        up.last_alarm = Some(Alarm {
            code: AlarmCode::Stall,
            joint: 1,
            detail: 0,
        });
        let alarm = report("p", &up, &LinkHealth::default(), &work).build();
        assert_eq!(alarm.level, DiagnosticStatus::ERROR);
        assert_eq!(value(&alarm, "lost_steps_alarm"), "true");
    }
}
