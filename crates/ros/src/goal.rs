//! What both backends' action servers share: a goal received ([`NewGoal`]) and a goal being
//! executed ([`RunningGoal`]), with its feedback, its cancel request and its end, around what
//! a backend does to send them ([`Received`], [`Accepted`]).

use std::future::Future;
use std::marker::PhantomData;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use checkers_msgs::{ActionInterface, Interface};

use crate::cancel::{cancel_request, CancelRequest, CancelWatch};
use crate::error::RosError;

/// How a goal ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoalOutcome {
    Succeeded,
    Canceled,
    Aborted,
}

/// A backend's goal, received and not yet accepted or rejected. `action` is the action's name,
/// for errors and logs.
pub trait Received<A: ActionInterface> {
    type Accepted: Accepted<A>;

    fn id(&self) -> String;

    /// Accepts the goal; from then on `cancel` is raised when the client cancels it.
    fn accept(
        self,
        action: &str,
        cancel: CancelRequest,
    ) -> impl Future<Output = Result<Self::Accepted, RosError>> + Send;

    fn reject(self, action: &str) -> impl Future<Output = Result<(), RosError>> + Send;
}

/// A backend's goal, accepted: it sends feedback and the result.
pub trait Accepted<A: ActionInterface> {
    /// Sends `feedback`, whose bounds are checked.
    fn feedback(
        &self,
        action: &str,
        feedback: A::Feedback,
    ) -> impl Future<Output = Result<(), RosError>> + Send;

    /// Ends the goal with `result` (bounds already checked) without waiting: a result that
    /// cannot be sent is logged.
    fn finish(self, action: String, outcome: GoalOutcome, result: A::Result);
}

/// A goal received, waiting to be accepted or rejected.
pub struct NewGoal<A: ActionInterface, R> {
    received: R,
    goal: A::Goal,
    action: String,
}

impl<A: ActionInterface, R> std::fmt::Debug for NewGoal<A, R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewGoal")
            .field("action", &self.action)
            .field("goal", &self.goal)
            .finish()
    }
}

impl<A: ActionInterface, R: Received<A>> NewGoal<A, R> {
    pub(crate) fn new(action: String, goal: A::Goal, received: R) -> NewGoal<A, R> {
        NewGoal {
            received,
            goal,
            action,
        }
    }

    pub fn goal(&self) -> &A::Goal {
        &self.goal
    }

    pub fn id(&self) -> String {
        self.received.id()
    }

    /// Accepts the goal and starts executing it. Must be called inside a tokio runtime: cancel
    /// requests are answered on a task of their own (the server's, or on r2r the goal's), so a
    /// cancel reaches the goal at once whatever its executor is doing.
    pub async fn accept(self) -> Result<RunningGoal<A, R::Accepted>, RosError> {
        let id = self.id();
        let (request, watch) = cancel_request();
        let accepted = self.received.accept(&self.action, request).await?;
        Ok(RunningGoal {
            accepted,
            id,
            action: self.action,
            cancel: watch,
            _a: PhantomData,
        })
    }

    pub async fn reject(self) -> Result<(), RosError> {
        self.received.reject(&self.action).await
    }
}

/// An accepted goal being executed: send feedback, watch for a cancel, then finish it.
pub struct RunningGoal<A: ActionInterface, G> {
    accepted: G,
    id: String,
    action: String,
    cancel: CancelWatch,
    _a: PhantomData<fn() -> A>,
}

impl<A: ActionInterface, G> std::fmt::Debug for RunningGoal<A, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunningGoal")
            .field("action", &self.action)
            .field("id", &self.id)
            .finish()
    }
}

impl<A: ActionInterface, G: Accepted<A>> RunningGoal<A, G> {
    pub fn id(&self) -> String {
        self.id.clone()
    }

    pub async fn feedback(&self, feedback: A::Feedback) -> Result<(), RosError> {
        feedback.check_bounds().map_err(|e| RosError::Bounds {
            topic: self.action.clone(),
            why: e.to_string(),
        })?;
        self.accepted.feedback(&self.action, feedback).await
    }

    pub fn is_cancel_requested(&self) -> bool {
        self.cancel.is_raised()
    }

    /// A flag that turns true when the client cancels: hand it to blocking work.
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        self.cancel.flag()
    }

    /// Resolves when the client cancels the goal (at once if it already has).
    pub async fn cancelled(&mut self) {
        self.cancel.raised().await;
    }

    pub fn succeed(self, result: A::Result) {
        self.finish(GoalOutcome::Succeeded, result);
    }

    pub fn abort(self, result: A::Result) {
        self.finish(GoalOutcome::Aborted, result);
    }

    /// Ends a goal the client cancelled.
    pub fn canceled(self, result: A::Result) {
        self.finish(GoalOutcome::Canceled, result);
    }

    fn finish(self, outcome: GoalOutcome, result: A::Result) {
        if let Err(e) = result.check_bounds() {
            tracing::warn!(action = %self.action, "result out of bounds, sent anyway: {e}");
        }
        self.accepted.finish(self.action, outcome, result);
    }
}
