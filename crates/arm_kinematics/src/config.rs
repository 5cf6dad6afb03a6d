//! `config/arm.yaml` and `config/board.yaml`: the arm's and the board's geometry.
//!
//! Both files are ROS 2 params files (`<node>: ros__parameters: {...}`) so the arm node can
//! take them with `--params-file`; that shape only allows scalars and flat arrays of scalars,
//! which is why the tray's slots are two parallel arrays. A plain mapping (the body of
//! `ros__parameters`) is accepted as well. Lengths are metres, angles degrees, times seconds,
//! and every key says its unit; the kinematics work in metres and radians
//! ([`ArmConfig::geometry`], [`ArmConfig::limits`]).

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_yaml::Value;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {why}")]
    Read { path: String, why: String },
    #[error("{what}: not valid YAML for this file: {why}")]
    Yaml { what: String, why: String },
    #[error("{what}: {why}")]
    Invalid { what: &'static str, why: String },
}

/// `config/arm.yaml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmConfig {
    pub geometry: GeometryConfig,
    pub limits: LimitsConfig,
    pub ik: IkConfig,
    pub motion: MotionConfig,
    pub head: HeadConfig,
}

/// Link lengths of the Dobot-class arm. J2's axis is `shoulder_height_m` above the base plane
/// (the table the arm stands on) and `shoulder_forward_m` in front of J1's axis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeometryConfig {
    pub shoulder_height_m: f64,
    pub shoulder_forward_m: f64,
    pub rear_arm_m: f64,
    pub forearm_m: f64,
    /// From the forearm's tip to the suction cup's tip, in the tool plate that the
    /// parallelogram keeps level.
    pub tool_forward_m: f64,
    pub tool_down_m: f64,
    pub cup_diameter_m: f64,
}

/// Joint limits in the Dobot's own convention: J1 yaw, J2 rear arm from vertical (forward
/// positive), J3 forearm from horizontal (down positive).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsConfig {
    pub j1_min_deg: f64,
    pub j1_max_deg: f64,
    pub j2_min_deg: f64,
    pub j2_max_deg: f64,
    pub j3_min_deg: f64,
    pub j3_max_deg: f64,
    /// The coupled limit on J3 - J2 (the URDF's relative elbow), which the parallelogram
    /// imposes and URDF cannot express for J3 itself.
    pub elbow_min_deg: f64,
    pub elbow_max_deg: f64,
    /// Per joint J1, J2, J3.
    pub velocity_deg_s: Vec<f64>,
    pub acceleration_deg_s2: Vec<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IkConfig {
    /// Converged when the cup tip is this close to the target.
    pub tolerance_m: f64,
    pub max_iterations: u32,
    /// The largest joint change of one iteration (the step cap).
    pub max_step_deg: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MotionConfig {
    /// How far above a pick or place point the cup approaches and retreats to; the arm
    /// travels between squares at that height.
    pub approach_height_m: f64,
    /// How far a descent or retreat may bow off its straight line; longer ones are split.
    pub straight_tolerance_m: f64,
    /// How far the cup pushes into a piece's top to seal.
    pub pick_press_m: f64,
    /// The gap left under a piece when it is released.
    pub place_gap_m: f64,
    pub pump_on_dwell_s: f64,
    pub pump_off_dwell_s: f64,
    /// The rest pose out of the human's way, J1 J2 J3.
    pub rest_deg: Vec<f64>,
    /// The period of sampled trajectories and of /joint_states.
    pub sample_period_s: f64,
}

/// The head on its two-servo neck, standing on the arm's base.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeadConfig {
    pub neck_x_m: f64,
    pub neck_y_m: f64,
    pub neck_height_m: f64,
    pub head_size_m: f64,
    pub pan_min_deg: f64,
    pub pan_max_deg: f64,
    pub tilt_min_deg: f64,
    pub tilt_max_deg: f64,
}

/// `config/board.yaml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardConfig {
    pub board: BoardGeometry,
    pub pieces: PiecesConfig,
    pub bin: BinConfig,
    pub tray: TrayConfig,
}

/// Where the board lies in the arm's base frame (x forward, y left, z up, origin on the base
/// plane under J1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardGeometry {
    pub square_size_m: f64,
    /// The frame around the 8x8 squares.
    pub border_m: f64,
    /// x of the board's edge nearest the arm (border included), before `yaw_deg`.
    pub near_edge_x_m: f64,
    pub center_y_m: f64,
    /// The board's rotation about the vertical through its centre.
    pub yaw_deg: f64,
    pub top_z_m: f64,
    /// `white` or `black`: the side the robot plays, whose first rank is nearest the arm.
    pub robot_side: String,
}

/// Men and kings are the same disc (a king is a crowned disc), so one height serves both.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PiecesConfig {
    pub diameter_m: f64,
    pub height_m: f64,
}

/// The box captured pieces are dropped into.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BinConfig {
    pub x_m: f64,
    pub y_m: f64,
    pub size_x_m: f64,
    pub size_y_m: f64,
    pub rim_z_m: f64,
    pub depth_m: f64,
    /// How far above the rim the cup lets a piece go.
    pub drop_height_m: f64,
}

/// The spare-king tray: one slot per king, filled by hand before a game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrayConfig {
    pub top_z_m: f64,
    pub slots_x_m: Vec<f64>,
    pub slots_y_m: Vec<f64>,
}

/// The side whose first rank lies nearest the arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RobotSide {
    White,
    Black,
}

/// Arm geometry in metres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Geometry {
    pub shoulder_height: f64,
    pub shoulder_forward: f64,
    pub rear_arm: f64,
    pub forearm: f64,
    pub tool_forward: f64,
    pub tool_down: f64,
}

/// Joint limits in radians, J1 J2 J3 in the Dobot convention, plus the coupled elbow limit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    pub min: [f64; 3],
    pub max: [f64; 3],
    pub elbow_min: f64,
    pub elbow_max: f64,
    pub velocity: [f64; 3],
    pub acceleration: [f64; 3],
}

impl ArmConfig {
    pub fn load(path: &Path) -> Result<ArmConfig, ConfigError> {
        let cfg: ArmConfig = parse_params(&read(path)?, "arm.yaml")?;
        cfg.validate()?;
        Ok(cfg)
    }

    pub fn from_yaml_str(text: &str) -> Result<ArmConfig, ConfigError> {
        let cfg: ArmConfig = parse_params(text, "arm.yaml")?;
        cfg.validate()?;
        Ok(cfg)
    }

    /// The checked-in `config/arm.yaml`, compiled in so tests and tools need no path.
    pub fn builtin() -> Result<ArmConfig, ConfigError> {
        ArmConfig::from_yaml_str(include_str!("../../../config/arm.yaml"))
    }

    pub fn geometry(&self) -> Geometry {
        let g = &self.geometry;
        Geometry {
            shoulder_height: g.shoulder_height_m,
            shoulder_forward: g.shoulder_forward_m,
            rear_arm: g.rear_arm_m,
            forearm: g.forearm_m,
            tool_forward: g.tool_forward_m,
            tool_down: g.tool_down_m,
        }
    }

    pub fn limits(&self) -> Limits {
        let l = &self.limits;
        let three = |v: &[f64]| [v[0].to_radians(), v[1].to_radians(), v[2].to_radians()];
        Limits {
            min: [
                l.j1_min_deg.to_radians(),
                l.j2_min_deg.to_radians(),
                l.j3_min_deg.to_radians(),
            ],
            max: [
                l.j1_max_deg.to_radians(),
                l.j2_max_deg.to_radians(),
                l.j3_max_deg.to_radians(),
            ],
            elbow_min: l.elbow_min_deg.to_radians(),
            elbow_max: l.elbow_max_deg.to_radians(),
            velocity: three(&l.velocity_deg_s),
            acceleration: three(&l.acceleration_deg_s2),
        }
    }

    /// The rest pose, J1 J2 J3 in radians.
    pub fn rest(&self) -> [f64; 3] {
        let r = &self.motion.rest_deg;
        [r[0].to_radians(), r[1].to_radians(), r[2].to_radians()]
    }

    fn validate(&self) -> Result<(), ConfigError> {
        let bad = |what: &'static str, why: String| Err(ConfigError::Invalid { what, why });
        let g = &self.geometry;
        for (name, v) in [
            ("geometry.rear_arm_m", g.rear_arm_m),
            ("geometry.forearm_m", g.forearm_m),
            ("geometry.shoulder_height_m", g.shoulder_height_m),
            ("geometry.cup_diameter_m", g.cup_diameter_m),
        ] {
            if !(v.is_finite() && v > 0.0) {
                return bad("arm.yaml", format!("{name} must be positive, is {v}"));
            }
        }
        for (name, v) in [
            ("geometry.shoulder_forward_m", g.shoulder_forward_m),
            ("geometry.tool_forward_m", g.tool_forward_m),
            ("geometry.tool_down_m", g.tool_down_m),
        ] {
            if !v.is_finite() {
                return bad("arm.yaml", format!("{name} must be a number, is {v}"));
            }
        }
        let l = &self.limits;
        for (name, lo, hi) in [
            ("j1", l.j1_min_deg, l.j1_max_deg),
            ("j2", l.j2_min_deg, l.j2_max_deg),
            ("j3", l.j3_min_deg, l.j3_max_deg),
            ("elbow", l.elbow_min_deg, l.elbow_max_deg),
        ] {
            if !(lo.is_finite() && hi.is_finite() && lo < hi) {
                return bad(
                    "arm.yaml",
                    format!("limits.{name}: min {lo} must be below max {hi}"),
                );
            }
        }
        if l.j1_min_deg <= -180.0 || l.j1_max_deg >= 180.0 {
            return bad(
                "arm.yaml",
                "limits.j1 must lie inside -180..180 degrees".into(),
            );
        }
        // At J3 - J2 = +-90 degrees the arm is folded or stretched straight: the Jacobian is
        // singular there and beyond it lies the elbow-down branch. Keeping the coupled limit
        // strictly inside makes the elbow-up solution the only one the IK can reach.
        if l.elbow_min_deg <= -90.0 || l.elbow_max_deg >= 90.0 {
            return bad(
                "arm.yaml",
                format!(
                    "limits.elbow ({}..{}) must lie strictly inside -90..90 degrees",
                    l.elbow_min_deg, l.elbow_max_deg
                ),
            );
        }
        // Every J2 in range must leave some J3 that satisfies both J3's own limit and the
        // coupled one; both bounds on J3 grow with J2, so the ends of J2's range decide.
        if l.j3_min_deg > l.j2_min_deg + l.elbow_max_deg
            || l.j2_max_deg + l.elbow_min_deg > l.j3_max_deg
        {
            return bad(
                "arm.yaml",
                "limits: some J2 in range leaves no J3 within both J3's and the elbow's limits"
                    .into(),
            );
        }
        for (name, v) in [
            ("limits.velocity_deg_s", &l.velocity_deg_s),
            ("limits.acceleration_deg_s2", &l.acceleration_deg_s2),
        ] {
            if v.len() != 3 || v.iter().any(|x| !(x.is_finite() && *x > 0.0)) {
                return bad("arm.yaml", format!("{name} must be 3 positive numbers"));
            }
        }
        let ik = &self.ik;
        if !(ik.tolerance_m > 0.0 && ik.max_iterations > 0 && ik.max_step_deg > 0.0) {
            return bad(
                "arm.yaml",
                "ik: tolerance, iterations and step cap must be positive".into(),
            );
        }
        let m = &self.motion;
        if m.rest_deg.len() != 3 {
            return bad("arm.yaml", "motion.rest_deg must be J1 J2 J3".into());
        }
        let rest = self.rest();
        if !self.limits().contains(rest) {
            return bad(
                "arm.yaml",
                format!(
                    "motion.rest_deg {:?} is outside the joint limits",
                    m.rest_deg
                ),
            );
        }
        for (name, v) in [
            ("motion.approach_height_m", m.approach_height_m),
            ("motion.straight_tolerance_m", m.straight_tolerance_m),
            ("motion.sample_period_s", m.sample_period_s),
        ] {
            if !(v.is_finite() && v > 0.0) {
                return bad("arm.yaml", format!("{name} must be positive, is {v}"));
            }
        }
        for (name, v) in [
            ("motion.pick_press_m", m.pick_press_m),
            ("motion.place_gap_m", m.place_gap_m),
            ("motion.pump_on_dwell_s", m.pump_on_dwell_s),
            ("motion.pump_off_dwell_s", m.pump_off_dwell_s),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return bad("arm.yaml", format!("{name} must not be negative, is {v}"));
            }
        }
        let h = &self.head;
        if !(h.pan_min_deg < h.pan_max_deg && h.tilt_min_deg < h.tilt_max_deg) {
            return bad(
                "arm.yaml",
                "head: pan and tilt ranges must be min < max".into(),
            );
        }
        Ok(())
    }
}

impl Limits {
    /// Whether J1 J2 J3 (radians) satisfy every limit, the coupled one included.
    pub fn contains(&self, q: [f64; 3]) -> bool {
        (0..3).all(|i| q[i] >= self.min[i] && q[i] <= self.max[i])
            && q[2] - q[1] >= self.elbow_min
            && q[2] - q[1] <= self.elbow_max
    }
}

impl BoardConfig {
    pub fn load(path: &Path) -> Result<BoardConfig, ConfigError> {
        let cfg: BoardConfig = parse_params(&read(path)?, "board.yaml")?;
        cfg.validate()?;
        Ok(cfg)
    }

    pub fn from_yaml_str(text: &str) -> Result<BoardConfig, ConfigError> {
        let cfg: BoardConfig = parse_params(text, "board.yaml")?;
        cfg.validate()?;
        Ok(cfg)
    }

    /// The checked-in `config/board.yaml`.
    pub fn builtin() -> Result<BoardConfig, ConfigError> {
        BoardConfig::from_yaml_str(include_str!("../../../config/board.yaml"))
    }

    pub fn robot_side(&self) -> RobotSide {
        // validate() admits only these two spellings.
        if self.board.robot_side.eq_ignore_ascii_case("white") {
            RobotSide::White
        } else {
            RobotSide::Black
        }
    }

    fn validate(&self) -> Result<(), ConfigError> {
        let bad = |why: String| {
            Err(ConfigError::Invalid {
                what: "board.yaml",
                why,
            })
        };
        let b = &self.board;
        if !(b.square_size_m > 0.0 && b.border_m >= 0.0) {
            return bad("board: square_size_m must be positive, border_m not negative".into());
        }
        if !["white", "black"]
            .iter()
            .any(|s| b.robot_side.eq_ignore_ascii_case(s))
        {
            return bad(format!(
                "board.robot_side must be white or black, is {:?}",
                b.robot_side
            ));
        }
        let p = &self.pieces;
        if !(p.diameter_m > 0.0 && p.height_m > 0.0 && p.diameter_m <= b.square_size_m) {
            return bad(
                "pieces: diameter and height must be positive, a piece must fit its square".into(),
            );
        }
        let bin = &self.bin;
        if !(bin.size_x_m > 0.0
            && bin.size_y_m > 0.0
            && bin.depth_m > 0.0
            && bin.drop_height_m >= 0.0)
        {
            return bad("bin: sizes and depth must be positive".into());
        }
        let t = &self.tray;
        if t.slots_x_m.len() != t.slots_y_m.len() {
            return bad(format!(
                "tray: slots_x_m has {} entries, slots_y_m {}",
                t.slots_x_m.len(),
                t.slots_y_m.len()
            ));
        }
        Ok(())
    }
}

fn read(path: &Path) -> Result<String, ConfigError> {
    std::fs::read_to_string(path).map_err(|e| ConfigError::Read {
        path: path.display().to_string(),
        why: e.to_string(),
    })
}

/// The parameters of a params file (the first node key's `ros__parameters`), or the whole
/// document when it is a plain mapping.
fn parse_params<T: DeserializeOwned>(text: &str, what: &str) -> Result<T, ConfigError> {
    let yaml_err = |why: String| ConfigError::Yaml {
        what: what.to_string(),
        why,
    };
    let doc: Value = serde_yaml::from_str(text).map_err(|e| yaml_err(e.to_string()))?;
    let body = match &doc {
        Value::Mapping(top) => top
            .values()
            .find_map(|node| node.get("ros__parameters"))
            .unwrap_or(&doc),
        _ => &doc,
    };
    serde_yaml::from_value(body.clone()).map_err(|e| yaml_err(e.to_string()))
}
