//! Action servers and clients: goal, feedback, result, cancel, on ros2-client's action protocol
//! (the same DDS topics and types rcl uses, so `ros2 action` sees them).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use checkers_msgs::{ActionInterface, Interface};
use futures::{Stream, StreamExt};
use ros2_client::action::{
    AsyncActionServer, ExecutingGoalHandle, GoalEndStatus, GoalId, GoalStatusEnum, NewGoalHandle,
};
use tokio::sync::{watch, Mutex};
use tokio::time::Instant;

use super::discovery::ServerWatch;
use super::wire::Wire;
use crate::error::RosError;
use crate::goal::GoalOutcome;
use crate::tasks::Tasks;

type Inner<A> = AsyncActionServer<
    Wire<<A as ActionInterface>::Goal>,
    Wire<<A as ActionInterface>::Result>,
    Wire<<A as ActionInterface>::Feedback>,
>;

type InnerClient<A> = ros2_client::action::ActionClient<
    Wire<<A as ActionInterface>::Goal>,
    Wire<<A as ActionInterface>::Result>,
    Wire<<A as ActionInterface>::Feedback>,
>;

/// How long a finished goal's result waits for the client to ask for it.
const RESULT_PICKUP: Duration = Duration::from_secs(30);

/// How often a client waiting for a result checks that the goal's server is still there.
const SERVER_CHECK: Duration = Duration::from_millis(500);

/// What a running goal's cancel request looks like to its executor: a flag for CPU-bound work
/// that polls, and a watch for async work that awaits.
#[derive(Debug)]
struct CancelSignal {
    flag: Arc<AtomicBool>,
    tx: watch::Sender<bool>,
}

type Running = Arc<std::sync::Mutex<BTreeMap<GoalId, CancelSignal>>>;

pub struct ActionServer<A: ActionInterface> {
    inner: Arc<Inner<A>>,
    name: String,
    running: Running,
    tasks: Tasks,
}

impl<A: ActionInterface> std::fmt::Debug for ActionServer<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ActionServer({}, {})", self.name, A::ROS_TYPE)
    }
}

impl<A: ActionInterface> ActionServer<A> {
    /// Wraps ros2-client's server and starts the task that answers cancel requests, so a cancel
    /// reaches a goal at once whatever its executor is doing.
    pub(crate) fn new(inner: Inner<A>, name: String, tasks: Tasks) -> ActionServer<A> {
        let inner = Arc::new(inner);
        let running: Running = Arc::default();
        tasks.spawn(answer_cancels::<A>(
            Arc::clone(&inner),
            Arc::clone(&running),
            name.clone(),
        ));
        ActionServer {
            inner,
            name,
            running,
            tasks,
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The next goal sent to this action, not yet accepted or rejected. A goal that does not
    /// decode is logged and skipped.
    pub async fn next_goal(&self) -> NewGoal<A> {
        loop {
            match self.inner.receive_new_goal().await {
                Ok(handle) => match self.inner.get_new_goal(handle.clone()) {
                    Some(Wire(goal)) => {
                        return NewGoal {
                            server: Arc::clone(&self.inner),
                            running: Arc::clone(&self.running),
                            tasks: self.tasks.clone(),
                            name: self.name.clone(),
                            handle,
                            goal,
                        }
                    }
                    None => tracing::warn!(action = %self.name, "a new goal vanished"),
                },
                Err(e) => {
                    tracing::warn!(action = %self.name, "dropping a goal that does not decode: {e:?}");
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            }
        }
    }
}

async fn answer_cancels<A: ActionInterface>(server: Arc<Inner<A>>, running: Running, name: String) {
    loop {
        let request = match server.receive_cancel_request().await {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!(action = %name, "dropping a cancel request that does not decode: {e:?}");
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        let accepted: Vec<GoalId> = {
            let running = running.lock().unwrap_or_else(|p| p.into_inner());
            request
                .goals()
                .filter(|id| {
                    running.get(id).is_some_and(|s| {
                        s.flag.store(true, Ordering::Release);
                        s.tx.send_replace(true);
                        true
                    })
                })
                .collect()
        };
        tracing::info!(action = %name, goals = accepted.len(), "cancel requested");
        if let Err(e) = server
            .respond_to_cancel_requests(&request, accepted.into_iter())
            .await
        {
            tracing::warn!(action = %name, "cannot answer a cancel request: {e:?}");
        }
    }
}

/// A goal received, waiting to be accepted or rejected.
pub struct NewGoal<A: ActionInterface> {
    server: Arc<Inner<A>>,
    running: Running,
    tasks: Tasks,
    name: String,
    handle: NewGoalHandle<Wire<A::Goal>>,
    goal: A::Goal,
}

impl<A: ActionInterface> std::fmt::Debug for NewGoal<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewGoal")
            .field("action", &self.name)
            .field("goal", &self.goal)
            .finish()
    }
}

impl<A: ActionInterface> NewGoal<A> {
    pub fn goal(&self) -> &A::Goal {
        &self.goal
    }

    pub fn id(&self) -> String {
        self.handle.goal_id().uuid.to_string()
    }

    /// Accepts the goal and starts executing it.
    pub async fn accept(self) -> Result<RunningGoal<A>, RosError> {
        let goal_error = |e: String| RosError::Goal {
            name: self.name.clone(),
            why: e,
        };
        let id = self.handle.goal_id();
        let flag = Arc::new(AtomicBool::new(false));
        let (tx, rx) = watch::channel(false);
        // Registered before the client learns of the acceptance, so no cancel can miss it.
        self.running
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(
                id,
                CancelSignal {
                    flag: Arc::clone(&flag),
                    tx,
                },
            );
        let executing = async {
            let accepted = self.server.accept_goal(self.handle).await?;
            self.server.start_executing_goal(accepted).await
        }
        .await;
        match executing {
            Ok(handle) => Ok(RunningGoal {
                server: self.server,
                running: self.running,
                tasks: self.tasks,
                name: self.name,
                handle,
                flag,
                rx,
            }),
            Err(e) => {
                self.running
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .remove(&id);
                Err(goal_error(format!("{e:?}")))
            }
        }
    }

    pub async fn reject(self) -> Result<(), RosError> {
        self.server
            .reject_goal(self.handle)
            .await
            .map_err(|e| RosError::Goal {
                name: self.name.clone(),
                why: format!("{e:?}"),
            })
    }
}

/// An accepted goal being executed: send feedback, watch for a cancel, then finish it.
pub struct RunningGoal<A: ActionInterface> {
    server: Arc<Inner<A>>,
    running: Running,
    tasks: Tasks,
    name: String,
    handle: ExecutingGoalHandle<Wire<A::Goal>>,
    flag: Arc<AtomicBool>,
    rx: watch::Receiver<bool>,
}

impl<A: ActionInterface> std::fmt::Debug for RunningGoal<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunningGoal")
            .field("action", &self.name)
            .field("id", &self.id())
            .finish()
    }
}

impl<A: ActionInterface> RunningGoal<A> {
    pub fn id(&self) -> String {
        self.handle.goal_id().uuid.to_string()
    }

    pub async fn feedback(&self, feedback: A::Feedback) -> Result<(), RosError> {
        feedback.check_bounds().map_err(|e| RosError::Bounds {
            topic: self.name.clone(),
            why: e.to_string(),
        })?;
        self.server
            .publish_feedback(self.handle.clone(), Wire(feedback))
            .await
            .map_err(|e| RosError::Goal {
                name: self.name.clone(),
                why: format!("feedback: {e:?}"),
            })
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
        // An error means the server is gone: then no cancel will ever come.
        if self.rx.wait_for(|c| *c).await.is_err() {
            std::future::pending::<()>().await;
        }
    }

    pub fn succeed(self, result: A::Result) {
        self.finish(GoalEndStatus::Succeeded, result);
    }

    pub fn abort(self, result: A::Result) {
        self.finish(GoalEndStatus::Aborted, result);
    }

    /// Ends a goal the client cancelled.
    pub fn canceled(self, result: A::Result) {
        self.finish(GoalEndStatus::Canceled, result);
    }

    /// The result goes out when the client asks for it (it normally already has); that wait
    /// runs on its own task so the executor is free at once.
    fn finish(self, status: GoalEndStatus, result: A::Result) {
        let id = self.handle.goal_id();
        self.running
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&id);
        if let Err(e) = result.check_bounds() {
            tracing::warn!(action = %self.name, "result out of bounds, sent anyway: {e}");
        }
        let (server, handle, name) = (self.server, self.handle, self.name);
        self.tasks.spawn(async move {
            let send = server.send_result_response(handle, status, Wire(result));
            match tokio::time::timeout(RESULT_PICKUP, send).await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => tracing::warn!(action = %name, "cannot send a result: {e:?}"),
                Err(_) => tracing::warn!(action = %name, "no client asked for a result"),
            }
        });
    }
}

pub struct ActionClient<A: ActionInterface> {
    pub(crate) inner: InnerClient<A>,
    pub(crate) name: String,
    pub(crate) server: ServerWatch,
    /// ros2-client drops responses a concurrent waiter reads first: one call per service at a
    /// time.
    pub(crate) goal_turn: Mutex<()>,
    pub(crate) result_turn: Mutex<()>,
    pub(crate) cancel_turn: Mutex<()>,
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

    /// Waits until an action server is discovered. False if none appeared within `timeout`.
    pub async fn wait_for_server(&self, timeout: Duration) -> bool {
        self.server.wait_until(Instant::now() + timeout).await
    }

    fn timeout_error(&self, what: &str, after: Duration) -> RosError {
        RosError::Timeout {
            name: format!("{} ({what})", self.name),
            after,
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
        let _turn = self.goal_turn.lock().await;
        let deadline = Instant::now() + timeout;
        if !self.server.wait_until(deadline).await {
            return Err(RosError::NoServer {
                name: self.name.clone(),
                waited: timeout,
            });
        }
        self.inner.set_mapping(self.server.mapping());
        let sent = tokio::time::timeout_at(deadline, self.inner.async_send_goal(Wire(goal))).await;
        let (id, response) = match sent {
            Err(_) => {
                self.server.forget();
                return Err(self.timeout_error("goal", timeout));
            }
            Ok(Err(e)) => {
                return Err(RosError::Goal {
                    name: self.name.clone(),
                    why: format!("{e:?}"),
                })
            }
            Ok(Ok(r)) => r,
        };
        if !response.accepted {
            return Err(RosError::GoalRejected {
                name: self.name.clone(),
            });
        }
        Ok(GoalHandle {
            client: self,
            id,
            servers: self.server.serving(),
        })
    }
}

/// A goal the server accepted.
pub struct GoalHandle<'a, A: ActionInterface> {
    client: &'a ActionClient<A>,
    id: GoalId,
    /// The participants serving the action when the goal was accepted: the goal lives in one
    /// of them, and dies with it (a respawned server does not know it).
    servers: Vec<Vec<u8>>,
}

impl<A: ActionInterface> std::fmt::Debug for GoalHandle<'_, A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GoalHandle")
            .field("action", &self.client.name)
            .field("id", &self.id())
            .finish()
    }
}

impl<A: ActionInterface> GoalHandle<'_, A> {
    pub fn id(&self) -> String {
        self.id.uuid.to_string()
    }

    /// This goal's feedback. Samples that do not decode are logged and skipped.
    pub fn feedback(&self) -> impl Stream<Item = A::Feedback> + '_ {
        let name = self.client.name.clone();
        self.client
            .inner
            .feedback_stream(self.id)
            .filter_map(move |r| {
                let name = name.clone();
                async move {
                    match r {
                        Ok(Wire(f)) => Some(f),
                        Err(e) => {
                            tracing::warn!(action = %name, "dropping feedback that does not decode: {e:?}");
                            None
                        }
                    }
                }
            })
    }

    /// The goal's end and result, within `timeout`. Poll it beside [`feedback`](Self::feedback)
    /// (e.g. in `tokio::select!`); it may be called again after a timeout.
    ///
    /// Fails with [`RosError::ServerGone`] once none of the participants that served the action
    /// when the goal was accepted is left (a dead node's participant is dropped when its lease
    /// runs out, about 10 s), rather than waiting out `timeout` for a result that cannot come.
    pub async fn result(&self, timeout: Duration) -> Result<(GoalOutcome, A::Result), RosError> {
        let _turn = self.client.result_turn.lock().await;
        let asked = tokio::time::timeout(timeout, self.client.inner.async_request_result(self.id));
        tokio::pin!(asked);
        let mut check = tokio::time::interval(SERVER_CHECK);
        let answer = loop {
            tokio::select! {
                answer = &mut asked => break answer,
                _ = check.tick() => {
                    if !self.servers.is_empty() && self.server_gone() {
                        self.client.server.forget();
                        return Err(RosError::ServerGone {
                            name: self.client.name.clone(),
                        });
                    }
                }
            }
        };
        match answer {
            Err(_) => Err(self.client.timeout_error("result", timeout)),
            Ok(Err(e)) => Err(RosError::Goal {
                name: self.client.name.clone(),
                why: format!("{e:?}"),
            }),
            Ok(Ok((status, Wire(result)))) => {
                let outcome = match status {
                    GoalStatusEnum::Succeeded => GoalOutcome::Succeeded,
                    GoalStatusEnum::Canceled => GoalOutcome::Canceled,
                    GoalStatusEnum::Aborted => GoalOutcome::Aborted,
                    other => {
                        return Err(RosError::Goal {
                            name: self.client.name.clone(),
                            why: format!("result with a status that is not an end: {other:?}"),
                        })
                    }
                };
                Ok((outcome, result))
            }
        }
    }

    fn server_gone(&self) -> bool {
        let now = self.client.server.serving();
        !self.servers.iter().any(|p| now.contains(p))
    }

    /// Asks the server to cancel the goal. True if it agreed (the result then says
    /// `Canceled`, unless the goal ended first).
    pub async fn cancel(&self, timeout: Duration) -> Result<bool, RosError> {
        let _turn = self.client.cancel_turn.lock().await;
        let zero = ros2_client::builtin_interfaces::Time::ZERO;
        match tokio::time::timeout(timeout, self.client.inner.async_cancel_goal(self.id, zero))
            .await
        {
            Err(_) => Err(self.client.timeout_error("cancel", timeout)),
            Ok(Err(e)) => Err(RosError::Goal {
                name: self.client.name.clone(),
                why: format!("cancel: {e:?}"),
            }),
            Ok(Ok(response)) => Ok(response
                .goals_canceling
                .iter()
                .any(|g| g.goal_id == self.id)),
        }
    }
}
