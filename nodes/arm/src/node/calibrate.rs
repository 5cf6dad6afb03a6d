//! `arm_node calibrate`: board calibration at a terminal, without ROS and without the rest of
//! the robot. The user jogs the cup's tip onto the centre of a1, records it, onto h8, records
//! it; the board's pose follows from the two reported joint sets (forward kinematics), is
//! checked (span, level, yaw, every square reachable) and saved into board.yaml.
//!
//! Commands, one a line: `x 5`, `y -2`, `z -0.5` (jog the cup in mm along base_link's axes),
//! `j1 1.5` (jog a joint in degrees), an empty line (the last jog again), `where`, `a1`, `h8`
//! (record), `save`, `home` (homing sequence, then the rest pose), `quit`.

use std::path::PathBuf;
use std::time::Duration;

use nalgebra::{Point3, Vector3};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use super::controller::{port_connector, ArmLink};
use super::error::{CalibrateError, JogError};
use super::execute;
use super::motion::{Guard, Motion};
use crate::calibration::{self, BoardPose};
use crate::pick_place::PickPlace;
use arm_kinematics::config::{ArmConfig, BoardConfig};
use arm_kinematics::joints::Joints;
use arm_kinematics::trajectory::Segment;

/// Jogs are slow: a tenth of the joint speed limit.
const JOG_SPEED_FRACTION: f64 = 0.1;

#[derive(Debug, Clone)]
pub struct Options {
    pub port: String,
    pub arm_config: String,
    /// The file to rewrite; it must exist (the checked-in config/board.yaml, or a copy).
    pub board_config: PathBuf,
}

struct Session {
    motion: Motion,
    arm: ArmConfig,
    board: BoardConfig,
    planner: PickPlace,
    a1: Option<Joints>,
    h8: Option<Joints>,
    last_jog: Option<String>,
}

pub async fn run_cli(opts: Options) -> Result<(), CalibrateError> {
    let arm = super::load_arm(&opts.arm_config)?;
    let board = BoardConfig::load(&opts.board_config)?;
    let link = ArmLink::start(port_connector(opts.port.clone()), opts.port.clone());
    let mut s = Session {
        motion: Motion {
            link,
            time_scale: 1.0,
        },
        planner: PickPlace::new(&arm, &board),
        arm,
        board,
        a1: None,
        h8: None,
        last_jog: None,
    };
    let mut out = tokio::io::stdout();
    let say = |text: String| format!("{text}\n");
    let _ = out
        .write_all(
            say(format!(
                "waiting for the arm controller on {} ...",
                opts.port
            ))
            .as_bytes(),
        )
        .await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while s.motion.joints().is_none() {
        if tokio::time::Instant::now() > deadline {
            return Err(CalibrateError::NoController(
                s.motion.link.state().last_loss,
            ));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = out.write_all(say(HELP.to_string()).as_bytes()).await;
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    loop {
        let _ = out.write_all(b"> ").await;
        let _ = out.flush().await;
        let Ok(Some(line)) = lines.next_line().await else {
            return Ok(());
        };
        let line = line.trim().to_string();
        if line == "quit" || line == "q" {
            return Ok(());
        }
        let answer = s.command(&line, &opts.board_config).await;
        let _ = out.write_all(say(answer).as_bytes()).await;
    }
}

pub(super) const HELP: &str =
    "jog: x|y|z <mm>, j1|j2|j3 <deg>, empty line = again; where; a1; h8; save; home; quit
Put the cup's tip on the centre of a1 (just touching the board), type a1; the same on h8, h8;
then save.";

impl Session {
    async fn command(&mut self, line: &str, path: &std::path::Path) -> String {
        let line = if line.is_empty() {
            match &self.last_jog {
                Some(l) => l.clone(),
                None => return HELP.to_string(),
            }
        } else {
            line.to_string()
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(q) = self.motion.joints() else {
            return format!("no arm: {}", self.motion.link.state().last_loss);
        };
        match words.as_slice() {
            ["where"] => self.describe(&q),
            ["a1"] => {
                self.a1 = Some(q);
                format!("a1 recorded: {}", self.describe(&q))
            }
            ["h8"] => {
                self.h8 = Some(q);
                format!("h8 recorded: {}", self.describe(&q))
            }
            ["save"] => self.save(path),
            ["home"] => match execute::go_home(&self.motion, &self.planner, true).await {
                Ok(m) => m,
                Err(e) => format!("homing failed: {e}"),
            },
            [axis, amount] => {
                let Ok(v) = amount.parse::<f64>() else {
                    return format!("not a number: {amount}");
                };
                let r = self.jog(&q, axis, v).await;
                if r.is_ok() {
                    self.last_jog = Some(line.clone());
                }
                r.unwrap_or_else(|e| e.to_string())
            }
            _ => HELP.to_string(),
        }
    }

    fn describe(&self, q: &Joints) -> String {
        let p = self.planner.ik().forward(q);
        format!(
            "{}; cup at x {:.1} y {:.1} z {:.1} mm",
            execute::degrees(q),
            p.x * 1e3,
            p.y * 1e3,
            p.z * 1e3
        )
    }

    async fn jog(&self, q: &Joints, axis: &str, v: f64) -> Result<String, JogError> {
        let target = match axis {
            "x" | "y" | "z" => {
                let d = match axis {
                    "x" => Vector3::x(),
                    "y" => Vector3::y(),
                    _ => Vector3::z(),
                } * (v / 1e3);
                let p: Point3<f64> = self.planner.ik().forward(q) + d;
                self.planner
                    .ik()
                    .solve(p, q)
                    .map_err(JogError::Unreachable)?
                    .joints
            }
            "j1" | "j2" | "j3" => {
                let mut t = *q;
                let i = usize::from(axis.as_bytes()[1] - b'1');
                t.0[i] += v.to_radians();
                if !self.planner.limits().contains(t.array()) {
                    return Err(JogError::OutsideLimits);
                }
                t
            }
            _ => return Err(JogError::NoSuchAxis),
        };
        let limits = self.planner.limits();
        let speed = limits
            .velocity
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min)
            * JOG_SPEED_FRACTION;
        let expected = Duration::from_secs_f64(
            Segment::new(*q, target, limits).duration() / JOG_SPEED_FRACTION,
        );
        let guard = Guard::now(&self.motion.link)?;
        self.motion
            .move_to(&target, speed, expected, guard, &None)
            .await?;
        Ok(self.describe(&target))
    }

    fn save(&self, path: &std::path::Path) -> String {
        let (Some(a1), Some(h8)) = (self.a1, self.h8) else {
            return "record a1 and h8 first".into();
        };
        let pose = match calibration::board_pose_from_joints(&self.arm, &self.board, &a1, &h8) {
            Ok(p) => p,
            Err(e) => return format!("not saved: {e}"),
        };
        let moved = pose.apply(&self.board);
        if let Err(e) = calibration::check_reachable(&self.arm, &moved) {
            return format!("not saved: {e}");
        }
        let old = BoardPose::of(&self.board);
        match calibration::save_pose(path, &pose) {
            Ok(_) => format!(
                "saved to {}: near edge x {:.1} mm (was {:.1}), centre y {:.1} mm (was {:.1}), yaw {:.2} deg (was {:.2}), top z {:.1} mm (was {:.1}); restart the arm node",
                path.display(),
                pose.near_edge_x_m * 1e3,
                old.near_edge_x_m * 1e3,
                pose.center_y_m * 1e3,
                old.center_y_m * 1e3,
                pose.yaw_deg,
                old.yaw_deg,
                pose.top_z_m * 1e3,
                old.top_z_m * 1e3
            ),
            Err(e) => format!("not saved: {e}"),
        }
    }
}
