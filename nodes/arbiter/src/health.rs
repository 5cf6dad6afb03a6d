//! The arbiter's `/diagnostics`: the game (its id, ply, status, level) and whether every ply is
//! still being saved.

use ros::diagnostics::Status;

pub const NAME: &str = "arbiter: game";

/// What the arbiter last published, and how saving goes.
#[derive(Debug, Clone, Default)]
pub struct GameHealth {
    pub game_id: u32,
    pub ply: u32,
    /// The status in words ("waiting for the human").
    pub status: String,
    /// The status is one that needs a person (an arm that failed, a lost board sensor).
    pub needs_person: bool,
    pub level: String,
    pub message: String,
    pub state_dir: String,
    pub save_failures: u64,
    pub last_save_error: String,
}

pub fn report(g: &GameHealth) -> Status {
    let base = if !g.last_save_error.is_empty() {
        Status::error(NAME, format!("cannot save the game: {}", g.last_save_error))
    } else if g.needs_person {
        Status::warn(NAME, format!("{}: {}", g.status, g.message))
    } else {
        Status::ok(
            NAME,
            format!("game {} ply {}: {}", g.game_id, g.ply, g.status),
        )
    };
    base.value("game_id", g.game_id)
        .value("ply", g.ply)
        .value("status", &g.status)
        .value("level", &g.level)
        .value("message", &g.message)
        .value("state_dir", &g.state_dir)
        .value("save_failures", g.save_failures)
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers_msgs::diagnostic_msgs::msg::DiagnosticStatus;

    #[test]
    fn a_failing_save_is_an_error_and_a_stuck_game_a_warning() {
        let mut g = GameHealth::default();
        assert_eq!(report(&g).level(), DiagnosticStatus::OK);
        g.needs_person = true;
        assert_eq!(report(&g).level(), DiagnosticStatus::WARN);
        g.last_save_error = "disk full".into();
        assert_eq!(report(&g).level(), DiagnosticStatus::ERROR);
    }
}
