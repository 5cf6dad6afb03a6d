//! The robot arm's geometry, shared by the arm node and the simulated arm.
//!
//! - [`config`]: `config/arm.yaml` and `config/board.yaml`; [`board`]: where squares, bin and
//!   tray slots are;
//! - [`urdf_gen`]: the URDF generated from the two configs, [`urdf_check`]: its validation;
//! - [`fk`]: forward kinematics with `k` (TF of every link) and the same chain in closed form
//!   for the solver; [`ik`]: the inverse-Jacobian iteration; [`closed_form`]: the analytic
//!   inverse, the independent check;
//! - [`trajectory`]: timed joint-space motion.
//!
//! The joints that put the suction cup on a square, checked by forward kinematics:
//!
//! ```
//! use arm_kinematics::{ArmConfig, BoardConfig, Ik, Joints};
//!
//! let arm = ArmConfig::builtin()?;
//! let board = BoardConfig::builtin()?;
//! let ik = Ik::new(&arm);
//!
//! // The centre of c3, from the arm's rest pose.
//! let target = board.square_center("c3".parse()?);
//! let rest = arm.rest();
//! let solution = ik.solve(target, &Joints::new(rest[0], rest[1], rest[2]))?;
//!
//! // Forward kinematics takes those joints back to the target, within the solver's tolerance.
//! let reached = ik.forward(&solution.joints);
//! assert!((reached - target).norm() <= arm.ik.tolerance_m);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod board;
pub mod closed_form;
pub mod config;
pub mod fk;
pub mod ik;
pub mod joints;
pub mod trajectory;
pub mod urdf_check;
pub mod urdf_gen;

pub use closed_form::IkError;
pub use config::{ArmConfig, BoardConfig, ConfigError, RobotSide};
pub use fk::{FkError, Kinematics};
pub use ik::{Ik, Solution};
pub use joints::Joints;
pub use trajectory::{Sample, Segment, Trajectory};
