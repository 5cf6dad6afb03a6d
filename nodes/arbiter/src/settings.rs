//! The arbiter node's parameters, read once at start.

use draughts::Color;
use ros::{Node, NodeError};

#[derive(Debug, Clone)]
pub struct Settings {
    pub state_dir: String,
    pub robot_color: Color,
    pub level: String,
    pub time_budget_s: f64,
    pub planner_margin_s: f64,
    pub planner_timeout_s: f64,
    /// How long the robot waits for a planner that does not answer (its computer away, the
    /// link cut) before it plays on this computer; 0: at once, a quick move.
    pub planner_wait_s: f64,
    /// The levels (config/difficulty), to play at the game's level on this computer.
    pub difficulty_dir: String,
    pub arm_timeout_s: f64,
    pub scan_timeout_s: f64,
    pub verify: bool,
    pub start_new_game: bool,
    pub hints: bool,
    pub hint_algorithm: String,
    pub hint_time_s: f64,
    pub verdicts: bool,
    pub coach_depth: u32,
    pub takebacks: bool,
}

fn parse_color(name: &'static str, text: &str) -> Result<Color, NodeError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        other => Err(NodeError::Param {
            name,
            why: format!("{other:?} is neither white nor black"),
        }),
    }
}

impl Settings {
    pub fn declare(node: &mut Node) -> Result<Settings, NodeError> {
        let mut p = node.params();
        let default_dir = std::env::var("HOME")
            .map(|h| format!("{h}/.local/state/checkers_robot"))
            .unwrap_or_else(|_| "checkers_robot_state".into());
        let color = p.declare("robot_color", "black".to_string())?;
        Ok(Settings {
            state_dir: p.declare("state_dir", default_dir)?,
            robot_color: parse_color("robot_color", &color)?,
            level: p.declare("level", "medium".to_string())?,
            time_budget_s: p.declare("time_budget_s", 1.0f64)?.max(0.0),
            planner_margin_s: p.declare("planner_margin_s", 1.0f64)?.max(0.05),
            planner_timeout_s: p.declare("planner_timeout_s", 20.0f64)?.max(0.1),
            planner_wait_s: p.declare("planner_wait_s", 30.0f64)?.max(0.0),
            difficulty_dir: p.declare("difficulty_dir", "config/difficulty".to_string())?,
            arm_timeout_s: p.declare("arm_timeout_s", 120.0f64)?.max(0.1),
            scan_timeout_s: p.declare("scan_timeout_s", 3.0f64)?.max(0.1),
            verify: p.declare("verify", true)?,
            start_new_game: p.declare("start_new_game", true)?,
            hints: p.declare("hints", true)?,
            hint_algorithm: p.declare("hint_algorithm", "alphabeta".to_string())?,
            hint_time_s: p.declare("hint_time_s", 1.0f64)?.clamp(0.05, 30.0),
            verdicts: p.declare("verdicts", true)?,
            coach_depth: u32::try_from(p.declare("coach_depth", 6i64)?.clamp(1, 12)).unwrap_or(6),
            takebacks: p.declare("takebacks", true)?,
        })
    }
}
