//! Action clients on ros2-client's action protocol: goal, feedback, result, cancel.

use std::time::Duration;

use checkers_msgs::{ActionInterface, Interface};
use futures::{Stream, StreamExt};
use ros2_client::action::{GoalId, GoalStatusEnum};
use ros2_client::{ActionTypeName, ServiceMapping};
use tokio::sync::Mutex;
use tokio::time::Instant;

use super::discovery::{Peers, ServerWatch};
use super::node::Node;
use super::qos;
use super::wire::Wire;
use crate::error::RosError;
use crate::goal::GoalOutcome;

type InnerClient<A> = ros2_client::action::ActionClient<
    Wire<<A as ActionInterface>::Goal>,
    Wire<<A as ActionInterface>::Result>,
    Wire<<A as ActionInterface>::Feedback>,
>;

/// How often a client waiting for a result checks that the goal's server is still there.
const SERVER_CHECK: Duration = Duration::from_millis(500);

impl Node {
    pub fn action_client<A: ActionInterface>(
        &mut self,
        name: &str,
    ) -> Result<ActionClient<A>, RosError> {
        let (fqn, parsed) = self.name_of("action", name)?;
        let inner = self
            .inner
            .create_action_client::<Wire<A::Goal>, Wire<A::Result>, Wire<A::Feedback>>(
                ServiceMapping::Enhanced,
                &parsed,
                &ActionTypeName::new(A::PACKAGE, A::NAME),
                qos::action_client(),
            )
            .map_err(|e| RosError::Create {
                what: format!("action client {fqn}"),
                why: format!("{e:?}"),
            })?;
        Ok(ActionClient {
            inner,
            server: ServerWatch::new(self.context.domain_participant(), Peers::action(&fqn)),
            name: fqn,
            goal_turn: tokio::sync::Mutex::new(()),
            result_turn: tokio::sync::Mutex::new(()),
            cancel_turn: tokio::sync::Mutex::new(()),
        })
    }
}

pub struct ActionClient<A: ActionInterface> {
    inner: InnerClient<A>,
    name: String,
    server: ServerWatch,
    /// ros2-client drops responses a concurrent waiter reads first: one call per service at a
    /// time.
    goal_turn: Mutex<()>,
    result_turn: Mutex<()>,
    cancel_turn: Mutex<()>,
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
