//! The robot arm's geometry, shared by the arm node and the simulated arm.
//!
//! - [`config`]: `config/arm.yaml` and `config/board.yaml`; [`board`]: where squares, bin and
//!   tray slots are;
//! - [`urdf_gen`]: the URDF generated from the two configs, [`urdf_check`]: its validation;
//! - [`fk`]: forward kinematics with `k` (TF of every link) and the same chain in closed form
//!   for the solver; [`ik`]: the inverse-Jacobian iteration; [`closed_form`]: the analytic
//!   inverse, the independent check;
//! - [`trajectory`]: timed joint-space motion.

pub mod board;
pub mod closed_form;
pub mod config;
pub mod fk;
pub mod ik;
pub mod joints;
pub mod trajectory;
pub mod urdf_check;
pub mod urdf_gen;

pub use config::{ArmConfig, BoardConfig, ConfigError, RobotSide};
pub use fk::{FkError, Kinematics};
pub use ik::{Ik, IkError, Solution};
pub use joints::Joints;
pub use trajectory::{Sample, Segment, Trajectory};
