//! The arm node: `/arm/execute` (ExecuteMove action), `/arm/home` (ArmHome service),
//! `/joint_states` at 50 Hz from the positions the controller reports, and the arm controller
//! over its serial link.
//!
//! Parameters: `port` (the controller's serial device or pseudo-terminal; "" = none),
//! `arm_config` and `board_config` (params files; "" = the built-in config/arm.yaml and
//! config/board.yaml), `time_scale` (how many times faster than real time the arm is driven:
//! 1 on the real arm, more in tests and the simulation), `spare_kings` (kings in the tray at
//! start, filling slots from 0; -1 = every slot).

pub mod calibrate;
pub mod controller;
pub mod error;
pub mod execute;
pub mod goal;
mod health;
pub mod motion;
mod serve;

use std::path::Path;

use ros::Node;
pub use ros::NodeError;

use arm_kinematics::config::{ArmConfig, BoardConfig, ConfigError};
use controller::Connector;

#[derive(Debug, Clone)]
pub struct Settings {
    pub port: String,
    pub arm: ArmConfig,
    pub board: BoardConfig,
    pub time_scale: f64,
    /// Kings in the tray at start; None = every slot.
    pub spare_kings: Option<usize>,
}

impl Settings {
    pub fn declare(node: &mut Node) -> Result<Settings, NodeError> {
        let mut p = node.params();
        let port = p.declare("port", String::new())?;
        let arm_path = p.declare("arm_config", String::new())?;
        let board_path = p.declare("board_config", String::new())?;
        let time_scale = p.declare("time_scale", 1.0f64)?;
        let spare_kings = p.declare("spare_kings", -1i64)?;
        if !(time_scale.is_finite() && (0.01..=1000.0).contains(&time_scale)) {
            return Err(NodeError::Param {
                name: "time_scale",
                why: format!("must lie in 0.01..1000, is {time_scale}"),
            });
        }
        Ok(Settings {
            port,
            arm: load_arm(&arm_path).map_err(NodeError::setup)?,
            board: load_board(&board_path).map_err(NodeError::setup)?,
            time_scale,
            spare_kings: usize::try_from(spare_kings).ok(),
        })
    }
}

pub fn load_arm(path: &str) -> Result<ArmConfig, ConfigError> {
    if path.is_empty() {
        ArmConfig::builtin()
    } else {
        ArmConfig::load(Path::new(path))
    }
}

pub fn load_board(path: &str) -> Result<BoardConfig, ConfigError> {
    if path.is_empty() {
        BoardConfig::builtin()
    } else {
        BoardConfig::load(Path::new(path))
    }
}

/// Runs the node on the controller at the `port` parameter.
pub async fn run(node: Node) -> Result<(), NodeError> {
    run_with(node, None).await
}

/// Runs the node; `connect` replaces opening `port` (tests hand in in-memory streams).
pub async fn run_with(mut node: Node, connect: Option<Connector>) -> Result<(), NodeError> {
    let settings = Settings::declare(&mut node)?;
    for name in node.params().unused_overrides() {
        tracing::warn!(
            parameter = name,
            "no such parameter of the arm node; ignored"
        );
    }
    let what = settings.port.clone();
    let connect = connect.unwrap_or_else(|| controller::port_connector(settings.port.clone()));
    let link = controller::ArmLink::start(connect, what);
    serve::serve(node, settings, link).await
}
