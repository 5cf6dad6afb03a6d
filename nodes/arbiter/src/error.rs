//! Why a `/game/*` request or a step of the robot's turn failed. The texts are what the person
//! is told (in the service's reply or a `/game/events` event).

use checkers_msgs::action::ExecuteMove_Result;
use checkers_msgs::convert::ConvertError;
use ros::{GoalOutcome, RosError};

use crate::referee::RefereeError;

impl ArbiterError {
    /// The planner did not take the goal, went silent or answered late: its computer may be
    /// away, or the link to it losing packets (an answer repaired after the deadline), and it
    /// is worth waiting for. A planner that answered badly is not.
    pub fn planner_unreachable(&self) -> bool {
        matches!(
            self,
            ArbiterError::PlannerRefused(_)
                | ArbiterError::Planner(_)
                | ArbiterError::PlannerLate(_)
        )
    }
}

/// Why a request or a step of the robot's turn failed; the text is what the person is told.
#[derive(Debug, thiserror::Error)]
pub enum ArbiterError {
    #[error(transparent)]
    Referee(#[from] RefereeError),
    #[error("robot_color {0} is not a side")]
    NoSuchSide(u8),
    #[error("the planner did not take the goal: {0}")]
    PlannerRefused(RosError),
    #[error("the planner did not answer within {0:.1} s")]
    PlannerLate(f64),
    #[error("the planner answered an unusable move: {0}")]
    PlannerMove(ConvertError),
    #[error("the planner's goal ended {outcome:?}: {message}")]
    PlannerEnded {
        outcome: GoalOutcome,
        message: String,
    },
    #[error("the planner failed: {0}")]
    Planner(RosError),
    #[error("hints are off at this level")]
    HintsOff,
    #[error("a hint is given only while you are to move")]
    HintNotNow,
    #[error("the planner did not take the question: {0}")]
    HintRefused(RosError),
    #[error("the planner gave no hint ({outcome:?}): {message}")]
    HintEnded {
        outcome: GoalOutcome,
        message: String,
    },
    #[error("the planner gave no hint: {0}")]
    HintFailed(RosError),
    #[error("the planner's hint is not a move here: {0}")]
    HintMove(ConvertError),
    #[error("take-backs are off at this level")]
    TakeBacksOff,
    #[error("the arm did not take the move: {0}")]
    ArmRefused(RosError),
    /// The arm's goal ended without its move made: what failed, as its result's `error_code`
    /// says, and the arm's own message (which may be empty).
    #[error("{what}{}", colon_then(.message))]
    ArmFailed { what: ArmFailure, message: String },
    #[error("the arm: {0}")]
    Arm(RosError),
    #[error(transparent)]
    Scan(RosError),
    #[error("{0}")]
    ScanFailed(String),
}

fn colon_then(message: &str) -> String {
    if message.is_empty() {
        String::new()
    } else {
        format!(": {message}")
    }
}

/// What failed on the arm, from its `ExecuteMove` result's `error_code`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ArmFailure {
    #[error("the arm could not read the move")]
    InvalidGoal,
    #[error("the arm could not reach a square of the move")]
    Unreachable,
    #[error("the arm could not pick up a piece")]
    PickFailed,
    #[error("the arm had no spare king to crown with")]
    NoSpareKing,
    #[error("the arm controller failed or did not answer")]
    Controller,
    #[error("the arm did not finish in time")]
    Timeout,
    #[error("the arm's move was cancelled")]
    Cancelled,
    /// `ERROR_NONE` on a goal that did not succeed: the arm named no cause.
    #[error("the arm failed")]
    Unspecified,
    /// A code this arbiter does not know (an arm node newer than it).
    #[error("the arm failed (error code {0})")]
    Unknown(u8),
}

impl ArmFailure {
    pub fn from_code(code: u8) -> ArmFailure {
        type R = ExecuteMove_Result;
        match code {
            R::ERROR_NONE => ArmFailure::Unspecified,
            R::ERROR_INVALID_GOAL => ArmFailure::InvalidGoal,
            R::ERROR_UNREACHABLE => ArmFailure::Unreachable,
            R::ERROR_PICK_FAILED => ArmFailure::PickFailed,
            R::ERROR_NO_SPARE_KING => ArmFailure::NoSpareKing,
            R::ERROR_CONTROLLER => ArmFailure::Controller,
            R::ERROR_TIMEOUT => ArmFailure::Timeout,
            R::ERROR_CANCELLED => ArmFailure::Cancelled,
            other => ArmFailure::Unknown(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_arm_failure_says_what_failed_then_what_the_arm_said() {
        let e = ArbiterError::ArmFailed {
            what: ArmFailure::from_code(ExecuteMove_Result::ERROR_PICK_FAILED),
            message: "c3-d4: the piece fell from the cup".into(),
        };
        assert_eq!(
            e.to_string(),
            "the arm could not pick up a piece: c3-d4: the piece fell from the cup"
        );
    }

    #[test]
    fn every_code_decodes_and_unknown_ones_keep_their_number() {
        assert_eq!(
            ArmFailure::from_code(ExecuteMove_Result::ERROR_CANCELLED),
            ArmFailure::Cancelled
        );
        assert_eq!(ArmFailure::from_code(0), ArmFailure::Unspecified);
        let silent = ArbiterError::ArmFailed {
            what: ArmFailure::Timeout,
            message: String::new(),
        };
        assert_eq!(silent.to_string(), "the arm did not finish in time");
        assert_eq!(ArmFailure::from_code(200), ArmFailure::Unknown(200));
        assert_eq!(
            ArmFailure::Unknown(200).to_string(),
            "the arm failed (error code 200)"
        );
        for code in 1..=7 {
            assert!(!matches!(
                ArmFailure::from_code(code),
                ArmFailure::Unknown(_) | ArmFailure::Unspecified
            ));
        }
    }
}
