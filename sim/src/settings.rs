//! The sim node's parameters (docs/sim.md lists them; config/sim.yaml holds the defaults).

use std::path::PathBuf;
use std::time::Duration;

use arm_kinematics::config::{ArmConfig, BoardConfig, RobotSide};
use draughts::{Color, Position};
use ros::{Node, Params};

use crate::faults::{Faults, COUNTS, NAMES};

#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error(transparent)]
    Params(#[from] ros::ParamsError),
    #[error("parameter {name}: {why}")]
    Param { name: &'static str, why: String },
}

/// Everything the sim is started with.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Where the controllers' symlinks go: `<run_dir>/field`, `/arm`, `/head`.
    pub run_dir: PathBuf,
    pub board: BoardConfig,
    pub arm: ArmConfig,
    pub start: Position,
    pub time_scale: f64,
    pub seed: u64,
    pub sensor_tolerance_m: f64,
    pub pick_tolerance_m: f64,
    pub pick_reach_m: f64,
    pub sensor_map: [u8; 32],
    pub human_pause: Duration,
    pub off_centre_m: f64,
    /// The arm's homing approach speed; the precise second approach is a fifth of it.
    pub homing_deg_s: f64,
    pub home_deg: [f64; 3],
    pub markers_period: Duration,
    pub faults: Faults,
    /// What runs the controllers' firmware.
    pub firmware: Firmware,
}

/// What runs the controllers' firmware behind the ports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Firmware {
    /// The firmware core, compiled for this computer, over the simulated electronics.
    Native,
    /// The Pico binaries, compiled for the RP2040, in the rp2040js emulator (pico_emulator),
    /// their pins on the same simulated electronics; the firmware's own arm configuration.
    Emulated,
}

/// A `sensor_map` that does not name every square once.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SensorMapError {
    #[error("expected 32 entries, got {0}")]
    Length(usize),
    #[error("entry {entry}: {value} is not a square number 1..32")]
    NotASquare { entry: usize, value: i64 },
    #[error("square {0} appears twice")]
    Twice(u8),
}

fn param(name: &'static str, why: impl ToString) -> SettingsError {
    SettingsError::Param {
        name,
        why: why.to_string(),
    }
}

/// `sensor_map` as given: 32 entries, each square 1..32 once.
pub fn sensor_map(values: &[i64]) -> Result<[u8; 32], SensorMapError> {
    if values.len() != 32 {
        return Err(SensorMapError::Length(values.len()));
    }
    let mut map = [0u8; 32];
    let mut seen = 0u32;
    for (i, &v) in values.iter().enumerate() {
        let n = u8::try_from(v)
            .ok()
            .filter(|n| (1..=32).contains(n))
            .ok_or(SensorMapError::NotASquare { entry: i, value: v })?;
        if seen & (1 << (n - 1)) != 0 {
            return Err(SensorMapError::Twice(n));
        }
        seen |= 1 << (n - 1);
        map[i] = n;
    }
    Ok(map)
}

/// The robot's colour from the board config.
pub fn robot_color(board: &BoardConfig) -> Color {
    match board.robot_side() {
        RobotSide::White => Color::White,
        RobotSide::Black => Color::Black,
    }
}

impl Settings {
    pub fn declare(node: &mut Node) -> Result<Settings, SettingsError> {
        Settings::from_params(&mut node.params())
    }

    /// Declares the parameters on `p` (a node's, or a test's `Params::with_overrides`).
    pub fn from_params(p: &mut Params) -> Result<Settings, SettingsError> {
        let run_dir = p.declare("run_dir", String::new())?;
        let board_config = p.declare("board_config", String::new())?;
        let arm_config = p.declare("arm_config", String::new())?;
        let start_fen = p.declare("start_fen", String::new())?;
        let time_scale = p.declare("time_scale", 1.0f64)?;
        let seed = p.declare("seed", 0i64)?;
        let sensor_tolerance_m = p.declare("sensor_tolerance_m", 0.004f64)?;
        let pick_tolerance_m = p.declare("pick_tolerance_m", 0.003f64)?;
        let pick_reach_m = p.declare("pick_reach_m", 0.002f64)?;
        let map = p.declare("sensor_map", (1..=32i64).collect::<Vec<_>>())?;
        let human_pause_s = p.declare("human.pause_s", 0.4f64)?;
        let off_centre_m = p.declare("human.off_centre_m", 0.007f64)?;
        let homing_deg_s = p.declare("arm.homing_speed_deg_s", 60.0f64)?;
        let home_deg = p.declare("arm.home_deg", vec![0.0f64, 0.0, 0.0])?;
        let markers_period_s = p.declare("markers_period_s", 0.2f64)?;
        let firmware = match p.declare("firmware", "native".to_string())?.as_str() {
            "native" => Firmware::Native,
            "emulated" => Firmware::Emulated,
            other => {
                return Err(param(
                    "firmware",
                    format!("{other:?} is neither native nor emulated"),
                ))
            }
        };
        let mut faults = Faults::default();
        for name in NAMES {
            let key = format!("faults.{name}");
            let text = match name {
                n if COUNTS.contains(&n) => p.declare(&key, 0i64)?.to_string(),
                n if n.ends_with("_silent") => p.declare(&key, false)?.to_string(),
                _ => p.declare(&key, 0.0f64)?.to_string(),
            };
            faults
                .apply(&format!("{name}:={text}"))
                .map_err(|e| param("faults", e))?;
        }

        let board = if board_config.is_empty() {
            BoardConfig::builtin()
        } else {
            BoardConfig::load(std::path::Path::new(&board_config))
        }
        .map_err(|e| param("board_config", e))?;
        let arm = if arm_config.is_empty() {
            ArmConfig::builtin()
        } else {
            ArmConfig::load(std::path::Path::new(&arm_config))
        }
        .map_err(|e| param("arm_config", e))?;
        let start = if start_fen.trim().is_empty() {
            Position::start()
        } else {
            draughts::parse_fen(&start_fen).map_err(|e| param("start_fen", e))?
        };
        if !(time_scale.is_finite() && time_scale > 0.0) {
            return Err(param("time_scale", format!("{time_scale} is not positive")));
        }
        let home: [f64; 3] = home_deg
            .as_slice()
            .try_into()
            .map_err(|_| param("arm.home_deg", "expected three angles"))?;
        let run_dir = if run_dir.is_empty() {
            std::env::temp_dir().join("checkers_sim")
        } else {
            PathBuf::from(run_dir)
        };
        let seconds = |name: &'static str, s: f64| {
            if s.is_finite() && s >= 0.0 {
                Ok(Duration::from_secs_f64(s))
            } else {
                Err(param(name, format!("{s} is not a duration")))
            }
        };
        Ok(Settings {
            run_dir,
            board,
            arm,
            start,
            time_scale,
            seed: seed as u64,
            sensor_tolerance_m,
            pick_tolerance_m,
            pick_reach_m,
            sensor_map: sensor_map(&map).map_err(|e| param("sensor_map", e))?,
            human_pause: seconds("human.pause_s", human_pause_s / time_scale)?,
            off_centre_m,
            homing_deg_s,
            home_deg: home,
            markers_period: seconds("markers_period_s", markers_period_s.max(0.02))?,
            faults,
            firmware,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sensor_maps_must_name_every_square_once() {
        let identity: Vec<i64> = (1..=32).collect();
        assert_eq!(sensor_map(&identity).expect("valid")[31], 32);
        let mut twice = identity.clone();
        twice[0] = 2;
        assert!(sensor_map(&twice).is_err());
        assert!(sensor_map(&identity[..31]).is_err());
        let mut zero = identity;
        zero[5] = 0;
        assert!(sensor_map(&zero).is_err());
    }
}
