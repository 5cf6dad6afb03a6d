//! Why a `/game/*` request or a step of the robot's turn failed. The texts are what the person
//! is told (in the service's reply or a `/game/events` event).

use checkers_msgs::convert::ConvertError;
use ros::{GoalOutcome, RosError};

use crate::referee::RefereeError;

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
    #[error("the arm failed: {0}")]
    ArmFailed(String),
    #[error("the arm: {0}")]
    Arm(RosError),
    #[error(transparent)]
    Scan(RosError),
    #[error("{0}")]
    ScanFailed(String),
}
