//! Action clients over r2r's untyped action client; goals, feedback and results cross as JSON.

use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use checkers_msgs::{ActionInterface, Interface};
use futures::channel::{mpsc, oneshot};
use futures::{Stream, StreamExt};
use tokio::time::Instant;

use super::convert::{from_json, to_json, ConvertError};
use super::node::{create_error, Node};
use super::spin::Shared;
use crate::error::RosError;
use crate::goal::GoalOutcome;

type Json = serde_json::Value;
type ResultFuture =
    Pin<Box<dyn Future<Output = r2r::Result<(r2r::GoalStatus, r2r::Result<Json>)>> + Send>>;
type Feedback = Pin<Box<dyn Stream<Item = r2r::Result<Json>> + Send>>;
type Sent = r2r::Result<(r2r::ActionClientGoalUntyped, ResultFuture, Feedback)>;
type GoalOrder = (Json, oneshot::Sender<Sent>);

impl Node {
    pub fn action_client<A: ActionInterface>(
        &mut self,
        name: &str,
    ) -> Result<ActionClient<A>, RosError> {
        let fqn = self.name_of("action", name)?;
        let inner = self
            .shared
            .with(|n| n.create_action_client_untyped(name, A::ROS_TYPE))
            .map_err(|e| create_error(format!("action client {fqn} ({})", A::ROS_TYPE), e))?;
        let (orders, received) = mpsc::unbounded();
        let sender = inner.clone();
        std::thread::Builder::new()
            .name("r2r-goals".into())
            .spawn(move || send_goals(&sender, received))
            .map_err(|e| create_error(format!("goal sender of {fqn}"), e))?;
        Ok(ActionClient {
            inner: Mutex::new(inner),
            orders,
            name: fqn,
            ready: AtomicBool::new(false),
            _node: Arc::clone(&self.shared),
            _a: PhantomData,
        })
    }
}

/// r2r's future for a goal's acceptance holds the client, which may not be shared between
/// threads, so it cannot be awaited in a task that may move; it is awaited here, on a thread
/// of its own per client, until the client is dropped.
fn send_goals(client: &r2r::ActionClientUntyped, mut orders: mpsc::UnboundedReceiver<GoalOrder>) {
    let mut pool = futures::executor::LocalPool::new();
    let spawner = pool.spawner();
    pool.run_until(async {
        while let Some((goal, reply)) = orders.next().await {
            let sent = match client.send_goal_request(goal) {
                Ok(sent) => sent,
                Err(e) => {
                    let _ = reply.send(Err(e));
                    continue;
                }
            };
            let answer = async move {
                let answer = sent.await.map(|(handle, result, feedback)| {
                    let result: ResultFuture = Box::pin(result);
                    let feedback: Feedback = Box::pin(feedback);
                    (handle, result, feedback)
                });
                // The caller may have given up waiting.
                let _ = reply.send(answer);
            };
            if let Err(e) = futures::task::LocalSpawnExt::spawn_local(&spawner, answer) {
                tracing::warn!("cannot wait for a goal's answer: {e}");
            }
        }
    });
}

pub struct ActionClient<A: ActionInterface> {
    /// r2r's client may move between threads but not be shared by them.
    inner: Mutex<r2r::ActionClientUntyped>,
    orders: mpsc::UnboundedSender<GoalOrder>,
    name: String,
    ready: AtomicBool,
    _node: Arc<Shared>,
    _a: PhantomData<A>,
}

impl<A: ActionInterface> std::fmt::Debug for ActionClient<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ActionClient({}, {})", self.name, A::ROS_TYPE)
    }
}

impl<A: ActionInterface> ActionClient<A> {
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Waits until an action server is available. False if none appeared within `timeout`.
    pub async fn wait_for_server(&self, timeout: Duration) -> bool {
        self.wait_until(Instant::now() + timeout).await
    }

    async fn wait_until(&self, deadline: Instant) -> bool {
        if self.ready.load(Ordering::Acquire) {
            return true;
        }
        let available = {
            let client = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
            r2r::Node::is_available(&*client)
        };
        let found = match available {
            Ok(available) => matches!(
                tokio::time::timeout_at(deadline, available).await,
                Ok(Ok(()))
            ),
            Err(e) => {
                tracing::warn!(action = %self.name, "cannot watch for the server: {e}");
                false
            }
        };
        self.ready.store(found, Ordering::Release);
        found
    }

    fn timeout_error(&self, what: &str, after: Duration) -> RosError {
        RosError::Timeout {
            name: format!("{} ({what})", self.name),
            after,
        }
    }

    fn goal_error(&self, why: impl std::fmt::Display) -> RosError {
        RosError::Goal {
            name: self.name.clone(),
            why: why.to_string(),
        }
    }

    /// Sends a goal; the server must accept it within `timeout` (waiting for the server
    /// included). A goal is never resent: it could start twice.
    pub async fn send_goal(
        &self,
        goal: A::Goal,
        timeout: Duration,
    ) -> Result<GoalHandle<'_, A>, RosError> {
        goal.check_bounds().map_err(|e| RosError::Bounds {
            topic: self.name.clone(),
            why: e.to_string(),
        })?;
        let json = to_json(&goal).map_err(|e| self.goal_error(format!("goal: {e}")))?;
        let deadline = Instant::now() + timeout;
        if !self.wait_until(deadline).await {
            return Err(RosError::NoServer {
                name: self.name.clone(),
                waited: timeout,
            });
        }
        let (reply, answer) = oneshot::channel();
        self.orders
            .unbounded_send((json, reply))
            .map_err(|_| self.goal_error("the goal sender thread is gone"))?;
        let (handle, result, feedback) = match tokio::time::timeout_at(deadline, answer).await {
            Err(_) => {
                self.ready.store(false, Ordering::Release);
                return Err(self.timeout_error("goal", timeout));
            }
            Ok(Err(_)) => return Err(self.goal_error("the goal sender thread is gone")),
            Ok(Ok(Err(r2r::Error::RCL_RET_ACTION_GOAL_REJECTED))) => {
                return Err(RosError::GoalRejected {
                    name: self.name.clone(),
                })
            }
            Ok(Ok(Err(e))) => return Err(self.goal_error(e)),
            Ok(Ok(Ok(sent))) => sent,
        };
        Ok(GoalHandle {
            client: self,
            id: handle.uuid.to_string(),
            handle: Mutex::new(handle),
            result: tokio::sync::Mutex::new(Ending::Pending(result)),
            feedback: tokio::sync::Mutex::new(feedback),
        })
    }
}

/// Where a goal's result stands: r2r's future yields it once, so it is kept for later calls (a
/// failure as the text of the goal error it becomes).
enum Ending<R> {
    Pending(ResultFuture),
    Ended(GoalOutcome, R),
    Failed(String),
}

/// Why a goal's end cannot be read.
#[derive(Debug, thiserror::Error)]
enum ResultError {
    #[error(transparent)]
    Convert(#[from] ConvertError),
    #[error("result with a status that is not an end: {0}")]
    NotAnEnd(r2r::GoalStatus),
}

/// A goal the server accepted.
pub struct GoalHandle<'a, A: ActionInterface> {
    client: &'a ActionClient<A>,
    id: String,
    handle: Mutex<r2r::ActionClientGoalUntyped>,
    result: tokio::sync::Mutex<Ending<A::Result>>,
    feedback: tokio::sync::Mutex<Feedback>,
}

impl<A: ActionInterface> std::fmt::Debug for GoalHandle<'_, A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GoalHandle")
            .field("action", &self.client.name)
            .field("id", &self.id)
            .finish()
    }
}

impl<A: ActionInterface> GoalHandle<'_, A> {
    pub fn id(&self) -> String {
        self.id.clone()
    }

    /// This goal's feedback. Samples that do not decode are logged and skipped.
    pub fn feedback(&self) -> impl Stream<Item = A::Feedback> + '_ {
        futures::stream::unfold(self, |goal| async move {
            loop {
                let sample = goal.feedback.lock().await.next().await?;
                match sample.map_err(ConvertError::from).and_then(from_json) {
                    Ok(f) => return Some((f, goal)),
                    Err(e) => tracing::warn!(
                        action = %goal.client.name,
                        "dropping feedback that does not decode: {e}"
                    ),
                }
            }
        })
    }

    /// The goal's end and result, within `timeout`. Poll it beside [`feedback`](Self::feedback)
    /// (e.g. in `tokio::select!`); it may be called again after a timeout.
    pub async fn result(&self, timeout: Duration) -> Result<(GoalOutcome, A::Result), RosError> {
        let mut ending = self.result.lock().await;
        let answer = match &mut *ending {
            Ending::Ended(outcome, result) => return Ok((*outcome, result.clone())),
            Ending::Failed(why) => return Err(self.client.goal_error(why)),
            Ending::Pending(future) => match tokio::time::timeout(timeout, future).await {
                Err(_) => return Err(self.client.timeout_error("result", timeout)),
                Ok(answer) => answer,
            },
        };
        let ended = answer
            .map_err(|e| ResultError::from(ConvertError::from(e)))
            .and_then(|(status, result)| {
                let outcome = match status {
                    r2r::GoalStatus::Succeeded => GoalOutcome::Succeeded,
                    r2r::GoalStatus::Canceled => GoalOutcome::Canceled,
                    r2r::GoalStatus::Aborted => GoalOutcome::Aborted,
                    other => return Err(ResultError::NotAnEnd(other)),
                };
                let result = result
                    .map_err(ConvertError::from)
                    .and_then(from_json::<A::Result>)?;
                Ok((outcome, result))
            });
        *ending = match &ended {
            Ok((outcome, result)) => Ending::Ended(*outcome, result.clone()),
            Err(why) => Ending::Failed(why.to_string()),
        };
        ended.map_err(|why| self.client.goal_error(why))
    }

    /// Asks the server to cancel the goal. True if it agreed (the result then says
    /// `Canceled`, unless the goal ended first).
    pub async fn cancel(&self, timeout: Duration) -> Result<bool, RosError> {
        let asked = self
            .handle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .cancel()
            .map_err(|e| self.client.goal_error(format!("cancel: {e}")))?;
        match tokio::time::timeout(timeout, asked).await {
            Err(_) => Err(self.client.timeout_error("cancel", timeout)),
            Ok(Ok(())) => Ok(true),
            Ok(Err(
                r2r::Error::GoalCancelRejected
                | r2r::Error::GoalCancelUnknownGoalID
                | r2r::Error::GoalCancelAlreadyTerminated,
            )) => Ok(false),
            Ok(Err(e)) => Err(self.client.goal_error(format!("cancel: {e}"))),
        }
    }
}
