//! Action servers. r2r has no untyped action server, so the action must be bound to r2r's
//! native type ([`R2rAction`]); goals, feedback and results cross as JSON.

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use checkers_msgs::{ActionInterface, Interface};
use futures::{Stream, StreamExt};
use r2r::WrappedActionTypeSupport;
use tokio::sync::watch;

use super::convert::convert;
use super::node::{create_error, Node};
use super::spin::Shared;
use crate::error::RosError;
use crate::goal::GoalOutcome;

/// An action with the type r2r generated for it, which r2r's servers need. Implemented for
/// every `checkers_msgs` action where r2r generated `r2r::checkers_msgs` (see `bindings`).
pub trait R2rAction: ActionInterface {
    type Native: WrappedActionTypeSupport + 'static;
}

type Native<A> = <A as R2rAction>::Native;
type GoalRequests<A> = Pin<Box<dyn Stream<Item = r2r::ActionServerGoalRequest<Native<A>>> + Send>>;

impl Node {
    pub fn action_server<A: R2rAction>(&mut self, name: &str) -> Result<ActionServer<A>, RosError> {
        let fqn = self.name_of("action", name)?;
        let goals = self
            .shared
            .with(|n| n.create_action_server::<A::Native>(name))
            .map_err(|e| create_error(format!("action server {fqn}"), e))?;
        Ok(ActionServer {
            goals: tokio::sync::Mutex::new(Box::pin(goals)),
            name: fqn,
            node: Arc::clone(&self.shared),
        })
    }
}

pub struct ActionServer<A: R2rAction> {
    goals: tokio::sync::Mutex<GoalRequests<A>>,
    name: String,
    node: Arc<Shared>,
}

impl<A: R2rAction> std::fmt::Debug for ActionServer<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ActionServer({}, {})", self.name, A::ROS_TYPE)
    }
}

impl<A: R2rAction> ActionServer<A> {
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The next goal sent to this action, not yet accepted or rejected. A goal that does not
    /// decode is logged and rejected.
    pub async fn next_goal(&self) -> NewGoal<A> {
        loop {
            let Some(request) = self.goals.lock().await.next().await else {
                // The node outlives its servers, so r2r never ends this stream.
                tracing::error!(action = %self.name, "r2r closed the goal stream");
                return std::future::pending().await;
            };
            match convert::<_, A::Goal>(&request.goal) {
                Ok(goal) => {
                    return NewGoal {
                        request,
                        goal,
                        name: self.name.clone(),
                        node: Arc::clone(&self.node),
                    }
                }
                Err(e) => {
                    tracing::warn!(
                        action = %self.name,
                        "rejecting a goal that does not decode as {}: {e}",
                        A::ROS_TYPE
                    );
                    if let Err(e) = request.reject() {
                        tracing::warn!(action = %self.name, "cannot reject a goal: {e}");
                    }
                }
            }
        }
    }
}

/// A goal received, waiting to be accepted or rejected.
pub struct NewGoal<A: R2rAction> {
    request: r2r::ActionServerGoalRequest<Native<A>>,
    goal: A::Goal,
    name: String,
    node: Arc<Shared>,
}

impl<A: R2rAction> std::fmt::Debug for NewGoal<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewGoal")
            .field("action", &self.name)
            .field("goal", &self.goal)
            .finish()
    }
}

impl<A: R2rAction> NewGoal<A> {
    pub fn goal(&self) -> &A::Goal {
        &self.goal
    }

    pub fn id(&self) -> String {
        self.request.uuid.to_string()
    }

    /// Accepts the goal and starts executing it. Must be called inside a tokio runtime: the
    /// goal's cancel requests are answered on a task of their own, so a cancel reaches the
    /// goal at once whatever its executor is doing.
    pub async fn accept(self) -> Result<RunningGoal<A>, RosError> {
        let id = self.id();
        let (handle, cancels) = self.request.accept().map_err(|e| RosError::Goal {
            name: self.name.clone(),
            why: e.to_string(),
        })?;
        let flag = Arc::new(AtomicBool::new(false));
        let (tx, rx) = watch::channel(false);
        tokio::spawn(answer_cancels(
            cancels,
            Arc::clone(&flag),
            tx,
            self.name.clone(),
        ));
        Ok(RunningGoal {
            handle: Mutex::new(handle),
            id,
            name: self.name,
            flag,
            rx,
            _node: self.node,
        })
    }

    pub async fn reject(self) -> Result<(), RosError> {
        self.request.reject().map_err(|e| RosError::Goal {
            name: self.name.clone(),
            why: e.to_string(),
        })
    }
}

/// Accepts every cancel request for one goal until the goal ends (its [`RunningGoal`], holding
/// the receiver, is gone).
async fn answer_cancels(
    mut cancels: impl Stream<Item = r2r::ActionServerCancelRequest> + Unpin,
    flag: Arc<AtomicBool>,
    tx: watch::Sender<bool>,
    name: String,
) {
    loop {
        tokio::select! {
            () = tx.closed() => return,
            request = cancels.next() => {
                let Some(request) = request else { return };
                flag.store(true, Ordering::Release);
                tx.send_replace(true);
                tracing::info!(action = %name, "cancel requested");
                request.accept();
            }
        }
    }
}

/// An accepted goal being executed: send feedback, watch for a cancel, then finish it.
pub struct RunningGoal<A: R2rAction> {
    /// r2r's goal handle may move between threads but not be shared by them.
    handle: Mutex<r2r::ActionServerGoal<Native<A>>>,
    id: String,
    name: String,
    flag: Arc<AtomicBool>,
    rx: watch::Receiver<bool>,
    _node: Arc<Shared>,
}

impl<A: R2rAction> std::fmt::Debug for RunningGoal<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunningGoal")
            .field("action", &self.name)
            .field("id", &self.id)
            .finish()
    }
}

impl<A: R2rAction> RunningGoal<A> {
    pub fn id(&self) -> String {
        self.id.clone()
    }

    pub async fn feedback(&self, feedback: A::Feedback) -> Result<(), RosError> {
        let error = |why: String| RosError::Goal {
            name: self.name.clone(),
            why: format!("feedback: {why}"),
        };
        feedback.check_bounds().map_err(|e| RosError::Bounds {
            topic: self.name.clone(),
            why: e.to_string(),
        })?;
        let native = convert::<_, <Native<A> as WrappedActionTypeSupport>::Feedback>(&feedback)
            .map_err(|e| error(format!("not representable: {e}")))?;
        self.handle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .publish_feedback(native)
            .map_err(|e| error(e.to_string()))
    }

    pub fn is_cancel_requested(&self) -> bool {
        self.flag.load(Ordering::Acquire)
    }

    /// A flag that turns true when the client cancels: hand it to blocking work.
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.flag)
    }

    /// Resolves when the client cancels the goal (at once if it already has).
    pub async fn cancelled(&mut self) {
        // An error means the cancel task is gone: then no cancel will ever come.
        if self.rx.wait_for(|c| *c).await.is_err() {
            std::future::pending::<()>().await;
        }
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

    /// r2r keeps the result until the client asks for it, so nothing waits here.
    fn finish(self, outcome: GoalOutcome, result: A::Result) {
        if let Err(e) = result.check_bounds() {
            tracing::warn!(action = %self.name, "result out of bounds, sent anyway: {e}");
        }
        let native = convert::<_, <Native<A> as WrappedActionTypeSupport>::Result>(&result)
            .unwrap_or_else(|e| {
                // The client must still learn that the goal ended.
                tracing::warn!(action = %self.name, "result not representable ({e}), sending the default");
                Default::default()
            });
        let mut handle = self
            .handle
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        let sent = match outcome {
            GoalOutcome::Succeeded => handle.succeed(native.clone()),
            GoalOutcome::Aborted => handle.abort(native.clone()),
            GoalOutcome::Canceled => handle.cancel(native.clone()),
        };
        let sent = match sent {
            // Once it has accepted a cancel, r2r forgets the goal's handle, and only `cancel`
            // can still end it.
            Err(r2r::Error::RCL_RET_ACTION_GOAL_HANDLE_INVALID)
                if self.flag.load(Ordering::Acquire) && outcome != GoalOutcome::Canceled =>
            {
                handle.cancel(native)
            }
            other => other,
        };
        if let Err(e) = sent {
            tracing::warn!(action = %self.name, "cannot send a result: {e}");
        }
    }
}
