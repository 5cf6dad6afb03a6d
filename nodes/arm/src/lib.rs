//! The robot arm node: pick-and-place over the arm's kinematics ([`arm_kinematics`]), the board
//! calibration, and the node itself.
//!
//! - [`pick_place`]: the steps of a draughts move;
//! - [`calibration`]: the board's pose from two jogged squares, saved into board.yaml;
//! - [`node`]: the ROS node (`/arm/execute`, `/arm/home`, `/joint_states`) and the controller
//!   link, and the calibration command line.

pub mod calibration;
pub mod node;
pub mod pick_place;

pub use pick_place::{Action, MotionKind, PickPlace, Plan, PlanError, SpareKings, Step};
