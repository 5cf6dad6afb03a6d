//! Board calibration from two jogged squares: the user brings the cup's tip to the centres of
//! a1 and h8 on the board's top, the arm reports its joints, forward kinematics gives the two
//! points, and from them the board's pose (near edge x, centre y, yaw, top z) follows. The pose
//! is written into `board.yaml` (atomically, keeping its comments), so a board that has been
//! moved needs no code change.
//!
//! a1 and h8 are the two ends of the long diagonal: as far apart as two squares get, so an
//! error of the user's eye of 1 mm turns the board by at most 0.27 degrees.

use std::io::Write;
use std::path::Path;

use draughts::Square;
use nalgebra::{Point3, Vector2};
use thiserror::Error;

use arm_kinematics::config::{ArmConfig, BoardConfig};
use arm_kinematics::joints::Joints;
use arm_kinematics::{Ik, IkError};

/// The two squares the user jogs the cup to.
pub const FIRST: Square = match Square::from_file_rank(0, 0) {
    Some(s) => s,
    None => panic!("a1 is a dark square"),
};
pub const SECOND: Square = match Square::from_file_rank(7, 7) {
    Some(s) => s,
    None => panic!("h8 is a dark square"),
};

/// Measured a1-h8 distance may differ from the board's by this much before the measurement
/// is refused (a cup on the wrong square is off by a whole square, 18.75 mm).
const SPAN_TOLERANCE_M: f64 = 0.004;
/// The two squares' heights may differ this much (a board not flat, or the cup pressed harder
/// on one of them).
const HEIGHT_TOLERANCE_M: f64 = 0.004;
/// A board turned further than this is more likely a1 and h8 swapped, or the wrong robot_side.
const MAX_YAW_DEG: f64 = 30.0;

#[derive(Debug, Error, PartialEq)]
pub enum CalibrationError {
    #[error("a1 and h8 are {measured_mm:.1} mm apart, the board says {expected_mm:.1} mm: was the cup on the centres of a1 and h8, and is square_size_m right?")]
    SpanMismatch { measured_mm: f64, expected_mm: f64 },
    #[error("a1 and h8 differ in height by {dz_mm:.1} mm: is the board level, and did the cup just touch it both times?")]
    NotLevel { dz_mm: f64 },
    #[error("the board would be turned by {yaw_deg:.1} degrees: were a1 and h8 swapped, or is robot_side wrong?")]
    Turned { yaw_deg: f64 },
    #[error("with this pose the arm cannot reach {square}: {why}")]
    Unreachable { square: String, why: IkError },
    #[error("{0}")]
    File(String),
}

/// Where the board lies: the four values of `board.yaml`'s board block that calibration sets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoardPose {
    pub near_edge_x_m: f64,
    pub center_y_m: f64,
    pub yaw_deg: f64,
    pub top_z_m: f64,
}

impl BoardPose {
    pub fn of(board: &BoardConfig) -> BoardPose {
        let b = &board.board;
        BoardPose {
            near_edge_x_m: b.near_edge_x_m,
            center_y_m: b.center_y_m,
            yaw_deg: b.yaw_deg,
            top_z_m: b.top_z_m,
        }
    }

    /// `board` with this pose.
    pub fn apply(&self, board: &BoardConfig) -> BoardConfig {
        let mut out = board.clone();
        out.board.near_edge_x_m = self.near_edge_x_m;
        out.board.center_y_m = self.center_y_m;
        out.board.yaw_deg = self.yaw_deg;
        out.board.top_z_m = self.top_z_m;
        out
    }
}

/// The pose of the board whose a1 and h8 centres (on its top) are at `a1` and `h8`; square
/// size, border and robot side come from `board`.
pub fn board_pose(
    board: &BoardConfig,
    a1: Point3<f64>,
    h8: Point3<f64>,
) -> Result<BoardPose, CalibrationError> {
    let (la, lh) = (board.square_in_board(FIRST), board.square_in_board(SECOND));
    let local = lh - la;
    let world = Vector2::new(h8.x - a1.x, h8.y - a1.y);
    if (world.norm() - local.norm()).abs() > SPAN_TOLERANCE_M {
        return Err(CalibrationError::SpanMismatch {
            measured_mm: world.norm() * 1e3,
            expected_mm: local.norm() * 1e3,
        });
    }
    if (h8.z - a1.z).abs() > HEIGHT_TOLERANCE_M {
        return Err(CalibrationError::NotLevel {
            dz_mm: (h8.z - a1.z).abs() * 1e3,
        });
    }
    let mut yaw = world.y.atan2(world.x) - local.y.atan2(local.x);
    // Into (-pi, pi]: the two bearings can lie on either side of the cut.
    while yaw > std::f64::consts::PI {
        yaw -= std::f64::consts::TAU;
    }
    while yaw <= -std::f64::consts::PI {
        yaw += std::f64::consts::TAU;
    }
    if yaw.to_degrees().abs() > MAX_YAW_DEG {
        return Err(CalibrationError::Turned {
            yaw_deg: yaw.to_degrees(),
        });
    }
    // The board's centre is where both squares put it; averaging halves the user's error.
    let (sin, cos) = yaw.sin_cos();
    let rotate = |v: Vector2<f64>| Vector2::new(cos * v.x - sin * v.y, sin * v.x + cos * v.y);
    let from_a1 = Vector2::new(a1.x, a1.y) - rotate(la);
    let from_h8 = Vector2::new(h8.x, h8.y) - rotate(lh);
    let centre = (from_a1 + from_h8) / 2.0;
    let b = &board.board;
    Ok(BoardPose {
        near_edge_x_m: centre.x - b.border_m - 4.0 * b.square_size_m,
        center_y_m: centre.y,
        yaw_deg: yaw.to_degrees(),
        top_z_m: (a1.z + h8.z) / 2.0,
    })
}

/// The board's pose from the arm's joints with the cup's tip on a1's and on h8's centre.
pub fn board_pose_from_joints(
    arm: &ArmConfig,
    board: &BoardConfig,
    at_a1: &Joints,
    at_h8: &Joints,
) -> Result<BoardPose, CalibrationError> {
    let ik = Ik::new(arm);
    board_pose(board, ik.forward(at_a1), ik.forward(at_h8))
}

/// Checks that the arm reaches every square's pick and approach points on `board`: a pose that
/// would leave a square out of reach is refused before it is saved.
pub fn check_reachable(arm: &ArmConfig, board: &BoardConfig) -> Result<(), CalibrationError> {
    let ik = Ik::new(arm);
    let rest = arm.rest();
    let seed = Joints::new(rest[0], rest[1], rest[2]);
    let lift = board.pieces.height_m + arm.motion.approach_height_m;
    for sq in Square::all() {
        let c = board.square_center(sq);
        for z in [c.z, c.z + lift] {
            ik.solve(Point3::new(c.x, c.y, z), &seed).map_err(|why| {
                CalibrationError::Unreachable {
                    square: sq.to_string(),
                    why,
                }
            })?;
        }
    }
    Ok(())
}

/// `text` (a board.yaml) with the board block's pose keys set to `pose`; every other line,
/// comments included, is kept. Only the block under `board:` is touched: `top_z_m` also names
/// the tray's height.
pub fn rewrite_pose(text: &str, pose: &BoardPose) -> Result<String, CalibrationError> {
    let values = [
        ("near_edge_x_m", format!("{:.6}", pose.near_edge_x_m)),
        ("center_y_m", format!("{:.6}", pose.center_y_m)),
        ("yaw_deg", format!("{:.4}", pose.yaw_deg)),
        ("top_z_m", format!("{:.6}", pose.top_z_m)),
    ];
    let mut done = [false; 4];
    let mut board_indent: Option<usize> = None;
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        let body = line.trim_start();
        let meaningful = !body.is_empty() && !body.starts_with('#');
        if meaningful && board_indent.is_some_and(|bi| indent <= bi) {
            board_indent = None;
        }
        if body.split('#').next().map(str::trim) == Some("board:") {
            board_indent = Some(indent);
        }
        let mut replaced = None;
        if board_indent.is_some_and(|bi| indent > bi) {
            for (i, (key, value)) in values.iter().enumerate() {
                if let Some(rest) = body.strip_prefix(key).and_then(|r| r.strip_prefix(':')) {
                    let mut l = format!("{}{key}: {value}", &line[..indent]);
                    // The comment stays in its column when the new value leaves room.
                    if let (Some(at), Some(col)) = (rest.find('#'), line.find('#')) {
                        let width = col.max(l.len() + 2);
                        l = format!("{l:<width$}{}", &rest[at..]);
                    }
                    replaced = Some(l);
                    done[i] = true;
                }
            }
        }
        out.push_str(replaced.as_deref().unwrap_or(line));
        out.push('\n');
    }
    if let Some(i) = done.iter().position(|d| !d) {
        return Err(CalibrationError::File(format!(
            "board.yaml has no board.{} to set",
            values[i].0
        )));
    }
    Ok(out)
}

/// Writes `pose` into the board config at `path`: the new text is checked to load with exactly
/// this pose, written to a temporary file beside it, flushed, and renamed over the old one, so
/// a crash leaves either file whole. The old file is kept as `<path>.bak`.
pub fn save_pose(path: &Path, pose: &BoardPose) -> Result<BoardConfig, CalibrationError> {
    let file_err = |what: &str, e: &dyn std::fmt::Display| {
        CalibrationError::File(format!("{what} {}: {e}", path.display()))
    };
    let old = std::fs::read_to_string(path).map_err(|e| file_err("cannot read", &e))?;
    let new = rewrite_pose(&old, pose)?;
    let loaded = BoardConfig::from_yaml_str(&new).map_err(|e| file_err("would break", &e))?;
    let got = BoardPose::of(&loaded);
    let close = |a: f64, b: f64, tol: f64| (a - b).abs() <= tol;
    if !(close(got.near_edge_x_m, pose.near_edge_x_m, 1e-6)
        && close(got.center_y_m, pose.center_y_m, 1e-6)
        && close(got.yaw_deg, pose.yaw_deg, 1e-4)
        && close(got.top_z_m, pose.top_z_m, 1e-6))
    {
        return Err(file_err(
            "rewriting did not set the pose in",
            &"keys not found",
        ));
    }
    let mut tmp_name = path.as_os_str().to_owned();
    tmp_name.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp_name);
    let mut bak_name = path.as_os_str().to_owned();
    bak_name.push(".bak");
    std::fs::write(&bak_name, &old).map_err(|e| file_err("cannot back up", &e))?;
    let mut f = std::fs::File::create(&tmp).map_err(|e| file_err("cannot write beside", &e))?;
    f.write_all(new.as_bytes())
        .and_then(|()| f.sync_all())
        .map_err(|e| file_err("cannot write beside", &e))?;
    std::fs::rename(&tmp, path).map_err(|e| file_err("cannot replace", &e))?;
    Ok(loaded)
}
