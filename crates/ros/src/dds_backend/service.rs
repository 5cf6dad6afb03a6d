//! Service servers and clients. Every call has a timeout; only calls the caller declares safe to
//! repeat are resent.

use std::future::Future;
use std::time::Duration;

use checkers_msgs::{Interface, ServiceInterface};
use ros2_client::{Client, RmwRequestId, Server};
use tokio::sync::Mutex;
use tokio::time::Instant;

use super::discovery::ServerWatch;
use super::wire::Wire;
use crate::error::RosError;

/// Identifies a request so its response can be sent later.
#[derive(Debug, Clone, Copy)]
pub struct RequestId(RmwRequestId);

pub struct ServiceServer<S: ServiceInterface> {
    pub(crate) inner: Server<Wire<S::Request>, Wire<S::Response>>,
    pub(crate) name: String,
}

impl<S: ServiceInterface> std::fmt::Debug for ServiceServer<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ServiceServer({}, {})", self.name, S::ROS_TYPE)
    }
}

impl<S: ServiceInterface> ServiceServer<S> {
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The next request. One that does not decode is logged and skipped.
    pub async fn next_request(&self) -> (RequestId, S::Request) {
        loop {
            match self.inner.async_receive_request().await {
                Ok((id, Wire(req))) => return (RequestId(id), req),
                Err(e) => {
                    tracing::warn!(service = %self.name, "dropping a request that does not decode: {e:?}");
                    // A broken reader would fail at once forever: do not spin on it.
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            }
        }
    }

    /// Sends the response to request `id`.
    pub async fn respond(&self, id: RequestId, response: S::Response) -> Result<(), RosError> {
        response.check_bounds().map_err(|e| RosError::Bounds {
            topic: self.name.clone(),
            why: e.to_string(),
        })?;
        self.inner
            .async_send_response(id.0, Wire(response))
            .await
            .map_err(|e| RosError::Publish {
                topic: self.name.clone(),
                why: format!("{e:?}"),
            })
    }

    /// Answers every request with `handler`, one at a time, forever. A response that cannot be
    /// sent is logged; the server goes on.
    pub async fn serve<F, Fut>(&self, mut handler: F)
    where
        F: FnMut(S::Request) -> Fut,
        Fut: Future<Output = S::Response>,
    {
        loop {
            let (id, req) = self.next_request().await;
            let response = handler(req).await;
            if let Err(e) = self.respond(id, response).await {
                tracing::warn!(service = %self.name, "{e}");
            }
        }
    }
}

pub struct ServiceClient<S: ServiceInterface> {
    pub(crate) inner: Client<Wire<S::Request>, Wire<S::Response>>,
    pub(crate) name: String,
    pub(crate) server: ServerWatch,
    /// ros2-client hands a response to whichever waiter reads it first and drops the others'
    /// responses, so calls on one client take turns.
    pub(crate) turn: Mutex<()>,
}

impl<S: ServiceInterface> std::fmt::Debug for ServiceClient<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ServiceClient({}, {})", self.name, S::ROS_TYPE)
    }
}

impl<S: ServiceInterface> ServiceClient<S> {
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Waits until a server is discovered. False if none appeared within `timeout`.
    pub async fn wait_for_service(&self, timeout: Duration) -> bool {
        self.server.wait_until(Instant::now() + timeout).await
    }

    /// One request, one response, within `timeout` (waiting for the server included). Never
    /// resent: use this for requests that must not run twice.
    pub async fn call(
        &self,
        request: S::Request,
        timeout: Duration,
    ) -> Result<S::Response, RosError> {
        request.check_bounds().map_err(|e| RosError::Bounds {
            topic: self.name.clone(),
            why: e.to_string(),
        })?;
        let _turn = self.turn.lock().await;
        let deadline = Instant::now() + timeout;
        if !self.server.wait_until(deadline).await {
            return Err(RosError::NoServer {
                name: self.name.clone(),
                waited: timeout,
            });
        }
        self.inner.set_mapping(self.server.mapping());
        let exchange = async {
            let id = self
                .inner
                .async_send_request(Wire(request))
                .await
                .map_err(|e| RosError::Publish {
                    topic: self.name.clone(),
                    why: format!("{e:?}"),
                })?;
            self.inner
                .async_receive_response(id)
                .await
                .map(|Wire(r)| r)
                .map_err(|e| RosError::Receive {
                    name: self.name.clone(),
                    why: format!("{e:?}"),
                })
        };
        match tokio::time::timeout_at(deadline, exchange).await {
            Ok(r) => r,
            Err(_) => {
                self.server.forget();
                Err(RosError::Timeout {
                    name: self.name.clone(),
                    after: timeout,
                })
            }
        }
    }

    /// Like [`call`](Self::call), resent up to `attempts` times in all when an attempt times
    /// out or fails. Only for requests that are safe to repeat (a scan, a query).
    pub async fn call_retrying(
        &self,
        request: S::Request,
        timeout_per_attempt: Duration,
        attempts: u32,
    ) -> Result<S::Response, RosError> {
        crate::retry::retrying(&self.name, timeout_per_attempt, attempts, || {
            self.call(request.clone(), timeout_per_attempt)
        })
        .await
    }
}
