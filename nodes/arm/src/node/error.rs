//! What fails in the arm node: a goal's move that is no move, the controller link refusing a
//! command, homing, calibration at the terminal, and a goal that ends without its move made.
//! The texts are what the arbiter, the logs and the person at the terminal read.
//! [`MoveError::code`] is the one place a failure becomes an `ExecuteMove` result code.

use checkers_msgs::action::ExecuteMove_Result as R;
use draughts::Square;
use serial_link::arm::AlarmCode;
use serial_link::transport::TransportError;
use thiserror::Error;

use super::motion::MotionError;
use crate::pick_place::PlanError;
use arm_kinematics::config::ConfigError;
use arm_kinematics::joints::Joints;
use arm_kinematics::IkError;

/// Why an `ExecuteMove` goal's move describes no move at all.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum GoalError {
    #[error("{what} {n} is not a square (1..32)")]
    NotASquare { what: &'static str, n: u8 },
    #[error("the path {path:?} does not end on to_square {to}")]
    PathEnd { path: Vec<u8>, to: u8 },
    #[error("a capture lands once per captured piece: {landings} landings, {captured} captured")]
    Landings { landings: usize, captured: usize },
    #[error("a quiet move has exactly one landing, another square")]
    QuietLanding,
    #[error("{from} to {to} is not along a diagonal")]
    NotDiagonal { from: Square, to: Square },
    #[error("{0} is captured twice")]
    CapturedTwice(Square),
    #[error("the captured piece on {0} lies on no leg of the path")]
    CapturedOffPath(Square),
    #[error("{0} is both captured and the moving piece's square")]
    CapturedMover(Square),
}

/// Why a command did not reach the arm controller.
#[derive(Debug, Error)]
pub enum LinkError {
    /// No session is up; why the last one ended.
    #[error("{0}")]
    NoSession(String),
    #[error("cannot send to the arm controller: {0}")]
    Send(TransportError),
}

/// Why `/arm/home` (or `home` at the calibration terminal) did not reach the rest pose.
#[derive(Debug, Error)]
pub enum HomeError {
    #[error(transparent)]
    Motion(#[from] MotionError),
    #[error("the arm controller has not reported its joints")]
    NoJoints,
    #[error(transparent)]
    Plan(#[from] PlanError),
}

/// Why `arm_node calibrate` could not start.
#[derive(Debug, Error)]
pub enum CalibrateError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The controller reported no joints in time; why its last session ended.
    #[error("{0}")]
    NoController(String),
}

/// Why a jog at the calibration terminal was not made; the answer the person reads.
#[derive(Debug, Error)]
pub enum JogError {
    #[error("cannot go there: {0}")]
    Unreachable(IkError),
    #[error("outside the joint limits")]
    OutsideLimits,
    /// Neither an axis nor a joint: the person is shown what can be typed.
    #[error("{}", super::calibrate::HELP)]
    NoSuchAxis,
    #[error(transparent)]
    Motion(#[from] MotionError),
}

/// Why an `ExecuteMove` goal ended without its move made; the result's message is the move's
/// name, a colon, and this.
#[derive(Debug, Error)]
pub enum MoveError {
    #[error(transparent)]
    Invalid(#[from] GoalError),
    #[error("the arm is not ready: {0}")]
    NotReady(MotionError),
    /// The controller has reported no joints; why its last session ended.
    #[error("{0}")]
    NoJoints(String),
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error("step '{step}' failed: {error}{}", where_now(.at))]
    Step {
        step: String,
        error: MotionError,
        /// Where the arm stood after the failure, if the controller said.
        at: Option<Joints>,
    },
    /// `how`: what the arm did after the cancel ([`super::execute::stop_safely`]).
    #[error("cancelled during '{step}': {how}")]
    Cancelled { step: String, how: String },
}

fn where_now(at: &Option<Joints>) -> String {
    at.map(|q| format!("; the arm is at {}", super::execute::degrees(&q)))
        .unwrap_or_default()
}

impl MoveError {
    /// The `ExecuteMove` result's `error_code` for this failure.
    pub fn code(&self) -> u8 {
        match self {
            MoveError::Invalid(_) => R::ERROR_INVALID_GOAL,
            MoveError::NotReady(e) | MoveError::Step { error: e, .. } => motion_code(e),
            MoveError::NoJoints(_) => R::ERROR_CONTROLLER,
            MoveError::Plan(e) => plan_code(e),
            MoveError::Cancelled { .. } => R::ERROR_CANCELLED,
        }
    }
}

fn motion_code(e: &MotionError) -> u8 {
    match e {
        MotionError::Alarm(a) if a.code == AlarmCode::Pump => R::ERROR_PICK_FAILED,
        MotionError::Timeout { .. } => R::ERROR_TIMEOUT,
        MotionError::Cancelled => R::ERROR_CANCELLED,
        MotionError::StoppedShort { .. } | MotionError::LinkLost(_) | MotionError::Alarm(_) => {
            R::ERROR_CONTROLLER
        }
    }
}

fn plan_code(e: &PlanError) -> u8 {
    match e {
        PlanError::Unreachable { .. } | PlanError::StartOutsideLimits { .. } => {
            R::ERROR_UNREACHABLE
        }
        PlanError::NoSpareKing { .. } => R::ERROR_NO_SPARE_KING,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serial_link::arm::{Alarm, NO_JOINT};

    fn sq(name: &str) -> Square {
        name.parse().expect("a square")
    }

    #[test]
    fn goal_texts_are_the_ones_the_arbiter_has_always_read() {
        let cases = [
            (
                GoalError::NotASquare {
                    what: "from_square",
                    n: 0,
                },
                "from_square 0 is not a square (1..32)",
            ),
            (
                GoalError::PathEnd {
                    path: vec![13, 17],
                    to: 14,
                },
                "the path [13, 17] does not end on to_square 14",
            ),
            (
                GoalError::Landings {
                    landings: 2,
                    captured: 1,
                },
                "a capture lands once per captured piece: 2 landings, 1 captured",
            ),
            (
                GoalError::NotDiagonal {
                    from: sq("b6"),
                    to: sq("h4"),
                },
                "b6 to h4 is not along a diagonal",
            ),
            (GoalError::CapturedTwice(sq("d4")), "d4 is captured twice"),
        ];
        for (e, text) in cases {
            assert_eq!(e.to_string(), text);
        }
    }

    #[test]
    fn each_failure_has_its_result_code() {
        let alarm = |code| Alarm {
            code,
            joint: NO_JOINT,
            detail: 0,
        };
        let step = |error| MoveError::Step {
            step: "pick c3".into(),
            error,
            at: None,
        };
        let cases = [
            (
                MoveError::Invalid(GoalError::QuietLanding),
                R::ERROR_INVALID_GOAL,
            ),
            (
                MoveError::Plan(PlanError::NoSpareKing { slots: 4 }),
                R::ERROR_NO_SPARE_KING,
            ),
            (
                MoveError::Plan(PlanError::StartOutsideLimits {
                    start_deg: [0.0; 3],
                }),
                R::ERROR_UNREACHABLE,
            ),
            (
                step(MotionError::Alarm(alarm(AlarmCode::Pump))),
                R::ERROR_PICK_FAILED,
            ),
            (
                step(MotionError::Alarm(alarm(AlarmCode::Stall))),
                R::ERROR_CONTROLLER,
            ),
            (
                step(MotionError::Timeout {
                    what: "a joint move".into(),
                    after: 1.0,
                }),
                R::ERROR_TIMEOUT,
            ),
            (
                MoveError::NotReady(MotionError::LinkLost("gone".into())),
                R::ERROR_CONTROLLER,
            ),
            (MoveError::NoJoints("gone".into()), R::ERROR_CONTROLLER),
            (
                MoveError::Cancelled {
                    step: "pick c3".into(),
                    how: "the arm stopped".into(),
                },
                R::ERROR_CANCELLED,
            ),
        ];
        for (e, code) in cases {
            assert_eq!(e.code(), code, "{e}");
        }
    }

    #[test]
    fn calibration_errors_leave_the_executable_boxed() {
        // `arm_node calibrate` turns the error into a boxed one (or anyhow's) to exit with it.
        fn boxed<E: std::error::Error + Send + Sync + 'static>() {}
        boxed::<CalibrateError>();
    }

    #[test]
    fn a_failed_step_says_where_the_arm_stands() {
        let e = MoveError::Step {
            step: "place a5".into(),
            error: MotionError::StoppedShort { off_deg: 2.5 },
            at: Some(Joints::default()),
        };
        assert_eq!(
            e.to_string(),
            "step 'place a5' failed: the arm stopped 2.5 degrees short of its target; the arm is at J1 0.0 J2 0.0 J3 0.0 deg"
        );
    }
}
