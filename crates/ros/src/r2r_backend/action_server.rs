//! Action servers. r2r has no untyped action server, so the action must be bound to r2r's
//! native type ([`R2rAction`]); goals, feedback and results cross as JSON. What a goal does
//! once received is `crate::goal`'s; this is how it goes over r2r.

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use checkers_msgs::ActionInterface;
use futures::{Stream, StreamExt};
use r2r::WrappedActionTypeSupport;

use super::convert::convert;
use super::node::{create_error, Node};
use super::spin::Shared;
use crate::cancel::CancelRequest;
use crate::error::RosError;
use crate::goal::{Accepted, GoalOutcome, Received};

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

/// A goal received, waiting to be accepted or rejected.
pub type NewGoal<A> = crate::goal::NewGoal<A, ReceivedGoal<A>>;
/// An accepted goal being executed: send feedback, watch for a cancel, then finish it.
pub type RunningGoal<A> = crate::goal::RunningGoal<A, AcceptedGoal<A>>;

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
                    let received = ReceivedGoal {
                        request,
                        node: Arc::clone(&self.node),
                    };
                    return NewGoal::new(self.name.clone(), goal, received);
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

/// r2r's goal, received: what a [`NewGoal`] accepts or rejects.
pub struct ReceivedGoal<A: R2rAction> {
    request: r2r::ActionServerGoalRequest<Native<A>>,
    node: Arc<Shared>,
}

impl<A: R2rAction> std::fmt::Debug for ReceivedGoal<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ReceivedGoal({})", self.id())
    }
}

impl<A: R2rAction> Received<A> for ReceivedGoal<A> {
    type Accepted = AcceptedGoal<A>;

    fn id(&self) -> String {
        self.request.uuid.to_string()
    }

    /// The goal's cancel requests are answered on a task of their own.
    async fn accept(
        self,
        action: &str,
        cancel: CancelRequest,
    ) -> Result<AcceptedGoal<A>, RosError> {
        let (handle, cancels) = self.request.accept().map_err(|e| RosError::Goal {
            name: action.to_string(),
            why: e.to_string(),
        })?;
        let cancel_flag = cancel.flag();
        tokio::spawn(answer_cancels(cancels, cancel, action.to_string()));
        Ok(AcceptedGoal {
            handle: Mutex::new(handle),
            cancel_flag,
            _node: self.node,
        })
    }

    async fn reject(self, action: &str) -> Result<(), RosError> {
        self.request.reject().map_err(|e| RosError::Goal {
            name: action.to_string(),
            why: e.to_string(),
        })
    }
}

/// Accepts every cancel request for one goal until the goal ends (its [`RunningGoal`] is gone).
async fn answer_cancels(
    mut cancels: impl Stream<Item = r2r::ActionServerCancelRequest> + Unpin,
    cancel: CancelRequest,
    name: String,
) {
    loop {
        tokio::select! {
            () = cancel.goal_ended() => return,
            request = cancels.next() => {
                let Some(request) = request else { return };
                cancel.raise();
                tracing::info!(action = %name, "cancel requested");
                request.accept();
            }
        }
    }
}

/// r2r's goal, being executed: where a [`RunningGoal`] sends feedback and its result.
pub struct AcceptedGoal<A: R2rAction> {
    /// r2r's goal handle may move between threads but not be shared by them.
    handle: Mutex<r2r::ActionServerGoal<Native<A>>>,
    /// Raised with the goal's cancel request.
    cancel_flag: Arc<AtomicBool>,
    _node: Arc<Shared>,
}

impl<A: R2rAction> std::fmt::Debug for AcceptedGoal<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AcceptedGoal")
    }
}

impl<A: R2rAction> Accepted<A> for AcceptedGoal<A> {
    async fn feedback(&self, action: &str, feedback: A::Feedback) -> Result<(), RosError> {
        let error = |why: String| RosError::Goal {
            name: action.to_string(),
            why: format!("feedback: {why}"),
        };
        let native = convert::<_, <Native<A> as WrappedActionTypeSupport>::Feedback>(&feedback)
            .map_err(|e| error(format!("not representable: {e}")))?;
        self.handle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .publish_feedback(native)
            .map_err(|e| error(e.to_string()))
    }

    /// r2r keeps the result until the client asks for it, so nothing waits here.
    fn finish(self, action: String, outcome: GoalOutcome, result: A::Result) {
        let native = convert::<_, <Native<A> as WrappedActionTypeSupport>::Result>(&result)
            .unwrap_or_else(|e| {
                // The client must still learn that the goal ended.
                tracing::warn!(%action, "result not representable ({e}), sending the default");
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
                if self.cancel_flag.load(Ordering::Acquire) && outcome != GoalOutcome::Canceled =>
            {
                handle.cancel(native)
            }
            other => other,
        };
        if let Err(e) = sent {
            tracing::warn!(%action, "cannot send a result: {e}");
        }
    }
}
