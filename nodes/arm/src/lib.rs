//! The robot arm: URDF model, Jacobian inverse kinematics, pick-and-place, trajectories, and the arm node.
//!
//! - [`config`]: `config/arm.yaml` and `config/board.yaml`; [`board`]: where squares, bin and
//!   tray slots are;
//! - [`urdf_gen`]: the URDF generated from the two configs, [`urdf_check`]: its validation;
//! - [`fk`]: forward kinematics with `k` (TF of every link) and the same chain in closed form
//!   for the solver; [`ik`]: the inverse-Jacobian iteration; [`closed_form`]: the analytic
//!   inverse, the independent check;
//! - [`pick_place`]: the steps of a draughts move; [`trajectory`]: timed joint-space motion;
//! - [`calibration`]: the board's pose from two jogged squares, saved into board.yaml;
//! - [`node`]: the ROS node (`/arm/execute`, `/arm/home`, `/joint_states`) and the controller
//!   link, and the calibration command line.

pub mod board;
pub mod calibration;
pub mod closed_form;
pub mod config;
pub mod fk;
pub mod ik;
pub mod joints;
pub mod node;
pub mod pick_place;
pub mod trajectory;
pub mod urdf_check;
pub mod urdf_gen;

pub use config::{ArmConfig, BoardConfig, ConfigError, RobotSide};
pub use fk::{FkError, Kinematics};
pub use ik::{Ik, IkError, Solution};
pub use joints::Joints;
pub use pick_place::{Action, MotionKind, PickPlace, Plan, PlanError, SpareKings, Step};
pub use trajectory::{Sample, Segment, Trajectory};
