//! The expression node's `/diagnostics`: the head controller's link (the eyes, brows and
//! neck), and whether the robot's phrases are spoken or text only.

use ros::diagnostics::Status;
use serial_link::session::LinkHealth;

pub const NAME: &str = "expression: head controller";

/// `link` is None when the robot has no head (`head_port` empty).
pub fn report(port: &str, link: Option<&LinkHealth>, spoken: bool) -> Status {
    let voice = if spoken {
        "espeak-ng"
    } else {
        "text only (/voice/say)"
    };
    let Some(h) = link else {
        return Status::ok(
            NAME,
            "no head on this robot: the face is on /face/expression only",
        )
        .value("voice", voice);
    };
    let base = if h.connected {
        Status::ok(NAME, "connected")
    } else {
        Status::error(NAME, format!("no link: {}", h.state))
    };
    base.hardware(port)
        .value("port", port)
        .values(h.key_values())
        .value("rejected", h.rejected)
        .value("voice", voice)
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers_msgs::diagnostic_msgs::msg::DiagnosticStatus;

    #[test]
    fn a_missing_head_is_fine_and_a_lost_one_is_an_error() {
        assert_eq!(report("", None, false).level(), DiagnosticStatus::OK);
        let lost = LinkHealth {
            state: "the port closed".into(),
            ..Default::default()
        };
        assert_eq!(
            report("p", Some(&lost), true).level(),
            DiagnosticStatus::ERROR
        );
        let up = LinkHealth {
            connected: true,
            ..Default::default()
        };
        assert_eq!(report("p", Some(&up), true).level(), DiagnosticStatus::OK);
    }
}
