//! The robot arm node: pick-and-place over the arm's kinematics ([`arm_kinematics`]), the board
//! calibration, and the node itself.
//!
//! - [`PickPlace`]: the steps of a draughts move;
//! - [`board_pose_from_joints`] and [`save_board_pose`]: the board's pose from two jogged
//!   squares, saved into board.yaml;
//! - [`run`]: the ROS node (`/arm/execute`, `/arm/home`, `/joint_states`) and the controller
//!   link; [`run_calibration`]: the calibration command line.
//!
//! # Example
//!
//! The arm's steps for White's capture c3:e5 over d4, on the built-in arm and board: the
//! moving man first, then the captured one into the bin, then back to rest.
//!
//! ```
//! use arm::{Action, PickPlace};
//! use arm_kinematics::{ArmConfig, BoardConfig};
//! use draughts::Game;
//!
//! let arm = PickPlace::new(&ArmConfig::builtin()?, &BoardConfig::builtin()?);
//! let game = Game::from_fen("W:Wc3:Bd4")?;
//! let capture = &game.legal_moves()[0];
//! let mut tray = arm.full_tray();
//! let plan = arm.plan_move(capture, &arm.rest(), &mut tray)?;
//!
//! let steps: Vec<&str> = plan.steps.iter().map(|s| s.description.as_str()).collect();
//! assert_eq!(steps, ["pick c3", "place e5", "captured d4 to bin", "rest"]);
//! let actions = plan.steps.iter().flat_map(|s| &s.actions);
//! let sucks = actions.filter(|a| matches!(a, Action::Pump { on: true })).count();
//! assert_eq!(sucks, 2, "one pick per piece");
//! assert_eq!(plan.king_slot, None, "no promotion: no king from the tray");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod calibration;
mod node;
mod pick_place;

// The steps of a draughts move.
pub use pick_place::{Action, MotionKind, PickPlace, Plan, PlanError, SpareKings, Step};

// The node over ROS, the controller link's I/O (tests hand in their own) and the moves it
// accepts.
pub use node::controller::{BoxedIo, Connector};
pub use node::goal::check as check_move;
pub use node::{run, run_with};

// The board's calibration: the pose from two jogged squares, and `arm_node calibrate`.
pub use calibration::{
    board_pose_from_joints, check_reachable, save_pose as save_board_pose, BoardPose,
    CalibrationError, FIRST as FIRST_CALIBRATION_SQUARE, SECOND as SECOND_CALIBRATION_SQUARE,
};
pub use node::calibrate::{run_cli as run_calibration, Options as CalibrationOptions};
