//! Action servers on ros2-client's action protocol (the same DDS topics and types rcl uses, so
//! `ros2 action` sees them). What a goal does once received is `crate::goal`'s; this is how it
//! goes over ros2-client.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use checkers_msgs::ActionInterface;
use ros2_client::action::{
    AsyncActionServer, ExecutingGoalHandle, GoalEndStatus, GoalId, NewGoalHandle,
};
use ros2_client::{ActionTypeName, ServiceMapping};

use super::node::Node;
use super::qos;
use super::wire::Wire;
use crate::cancel::CancelRequest;
use crate::error::RosError;
use crate::goal::{Accepted, GoalOutcome, Received};
use crate::tasks::Tasks;

type Inner<A> = AsyncActionServer<
    Wire<<A as ActionInterface>::Goal>,
    Wire<<A as ActionInterface>::Result>,
    Wire<<A as ActionInterface>::Feedback>,
>;

/// How long a finished goal's result waits for the client to ask for it.
const RESULT_PICKUP: Duration = Duration::from_secs(30);

/// The cancel requests of the goals being executed.
type Running = Arc<std::sync::Mutex<BTreeMap<GoalId, CancelRequest>>>;

fn lock(running: &Running) -> std::sync::MutexGuard<'_, BTreeMap<GoalId, CancelRequest>> {
    running.lock().unwrap_or_else(|p| p.into_inner())
}

impl Node {
    pub fn action_server<A: super::Action>(
        &mut self,
        name: &str,
    ) -> Result<ActionServer<A>, RosError> {
        let (fqn, parsed) = self.name_of("action", name)?;
        let inner = self
            .inner
            .create_action_server::<Wire<A::Goal>, Wire<A::Result>, Wire<A::Feedback>>(
                ServiceMapping::Enhanced,
                &parsed,
                &ActionTypeName::new(A::PACKAGE, A::NAME),
                qos::action_server(),
            )
            .map_err(|e| RosError::Create {
                what: format!("action server {fqn}"),
                why: format!("{e:?}"),
            })?;
        Ok(ActionServer::new(
            AsyncActionServer::new(inner),
            fqn,
            self.core.tasks.clone(),
        ))
    }
}

/// A goal received, waiting to be accepted or rejected.
pub type NewGoal<A> = crate::goal::NewGoal<A, ReceivedGoal<A>>;
/// An accepted goal being executed: send feedback, watch for a cancel, then finish it.
pub type RunningGoal<A> = crate::goal::RunningGoal<A, AcceptedGoal<A>>;

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
    fn new(inner: Inner<A>, name: String, tasks: Tasks) -> ActionServer<A> {
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
                        let received = ReceivedGoal {
                            server: Arc::clone(&self.inner),
                            running: Arc::clone(&self.running),
                            tasks: self.tasks.clone(),
                            handle,
                        };
                        return NewGoal::new(self.name.clone(), goal, received);
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
            let running = lock(&running);
            request
                .goals()
                .filter(|id| {
                    running.get(id).is_some_and(|cancel| {
                        cancel.raise();
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

/// ros2-client's goal, received: what a [`NewGoal`] accepts or rejects.
pub struct ReceivedGoal<A: ActionInterface> {
    server: Arc<Inner<A>>,
    running: Running,
    tasks: Tasks,
    handle: NewGoalHandle<Wire<A::Goal>>,
}

impl<A: ActionInterface> std::fmt::Debug for ReceivedGoal<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ReceivedGoal({})", self.id())
    }
}

impl<A: ActionInterface> Received<A> for ReceivedGoal<A> {
    type Accepted = AcceptedGoal<A>;

    fn id(&self) -> String {
        self.handle.goal_id().uuid.to_string()
    }

    async fn accept(
        self,
        action: &str,
        cancel: CancelRequest,
    ) -> Result<AcceptedGoal<A>, RosError> {
        let id = self.handle.goal_id();
        // Registered before the client learns of the acceptance, so no cancel can miss it.
        lock(&self.running).insert(id, cancel);
        let executing = async {
            let accepted = self.server.accept_goal(self.handle).await?;
            self.server.start_executing_goal(accepted).await
        }
        .await;
        match executing {
            Ok(handle) => Ok(AcceptedGoal {
                server: self.server,
                running: self.running,
                tasks: self.tasks,
                handle,
            }),
            Err(e) => {
                lock(&self.running).remove(&id);
                Err(RosError::Goal {
                    name: action.to_string(),
                    why: format!("{e:?}"),
                })
            }
        }
    }

    async fn reject(self, action: &str) -> Result<(), RosError> {
        self.server
            .reject_goal(self.handle)
            .await
            .map_err(|e| RosError::Goal {
                name: action.to_string(),
                why: format!("{e:?}"),
            })
    }
}

/// ros2-client's goal, being executed: where a [`RunningGoal`] sends feedback and its result.
pub struct AcceptedGoal<A: ActionInterface> {
    server: Arc<Inner<A>>,
    running: Running,
    tasks: Tasks,
    handle: ExecutingGoalHandle<Wire<A::Goal>>,
}

impl<A: ActionInterface> std::fmt::Debug for AcceptedGoal<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AcceptedGoal({})", self.handle.goal_id().uuid)
    }
}

impl<A: ActionInterface> Accepted<A> for AcceptedGoal<A> {
    async fn feedback(&self, action: &str, feedback: A::Feedback) -> Result<(), RosError> {
        self.server
            .publish_feedback(self.handle.clone(), Wire(feedback))
            .await
            .map_err(|e| RosError::Goal {
                name: action.to_string(),
                why: format!("feedback: {e:?}"),
            })
    }

    /// The result goes out when the client asks for it (it normally already has); that wait
    /// runs on its own task so the executor is free at once.
    fn finish(self, action: String, outcome: GoalOutcome, result: A::Result) {
        lock(&self.running).remove(&self.handle.goal_id());
        let status = match outcome {
            GoalOutcome::Succeeded => GoalEndStatus::Succeeded,
            GoalOutcome::Aborted => GoalEndStatus::Aborted,
            GoalOutcome::Canceled => GoalEndStatus::Canceled,
        };
        let (server, handle) = (self.server, self.handle);
        self.tasks.spawn(async move {
            let send = server.send_result_response(handle, status, Wire(result));
            match tokio::time::timeout(RESULT_PICKUP, send).await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => tracing::warn!(%action, "cannot send a result: {e:?}"),
                Err(_) => tracing::warn!(%action, "no client asked for a result"),
            }
        });
    }
}
