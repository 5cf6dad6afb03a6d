//! What both backends' actions share.

/// How a goal ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoalOutcome {
    Succeeded,
    Canceled,
    Aborted,
}
