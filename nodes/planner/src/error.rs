//! Why the planner rejects a `/planner/plan` goal; the text goes to the log.

use checkers_msgs::convert::ConvertError;
use search::SpecError;

#[derive(Debug, thiserror::Error)]
pub enum GoalError {
    /// The goal's position is no position.
    #[error(transparent)]
    Position(#[from] ConvertError),
    /// The goal names an algorithm that is not one.
    #[error(transparent)]
    Algorithm(#[from] SpecError),
}
