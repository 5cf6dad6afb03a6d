//! Service servers and clients. Every call has a timeout; only calls the caller declares safe to
//! repeat are resent.

use std::time::Duration;

use checkers_msgs::{Interface, ServiceInterface};
use ros2_client::{Client, RmwRequestId, Server, ServiceMapping, ServiceTypeName};
use tokio::sync::Mutex;
use tokio::time::Instant;

use super::discovery::{Peers, ServerWatch};
use super::node::Node;
use super::qos;
use super::wire::Wire;
use crate::error::RosError;
use crate::service_server::Requests;

impl Node {
    pub fn service_server<S: super::Service>(
        &mut self,
        name: &str,
    ) -> Result<ServiceServer<S>, RosError> {
        let (fqn, parsed) = self.name_of("service", name)?;
        let inner = self
            .inner
            .create_server::<Wire<S::Request>, Wire<S::Response>>(
                ServiceMapping::Enhanced,
                &parsed,
                &ServiceTypeName::new(S::PACKAGE, S::NAME),
                qos::service(),
                qos::service(),
            )
            .map_err(|e| RosError::Create {
                what: format!("service server {fqn}"),
                why: format!("{e:?}"),
            })?;
        Ok(ServiceServer::new(fqn, ServerRequests(inner)))
    }

    pub fn service_client<S: ServiceInterface>(
        &mut self,
        name: &str,
    ) -> Result<ServiceClient<S>, RosError> {
        let (fqn, parsed) = self.name_of("service", name)?;
        let inner = self
            .inner
            .create_client::<Wire<S::Request>, Wire<S::Response>>(
                ServiceMapping::Enhanced,
                &parsed,
                &ServiceTypeName::new(S::PACKAGE, S::NAME),
                qos::service(),
                qos::service(),
            )
            .map_err(|e| RosError::Create {
                what: format!("service client {fqn}"),
                why: format!("{e:?}"),
            })?;
        Ok(ServiceClient {
            inner,
            server: ServerWatch::new(self.context.domain_participant(), Peers::service(&fqn)),
            name: fqn,
            turn: tokio::sync::Mutex::new(()),
        })
    }
}

/// Identifies a request so its response can be sent later.
#[derive(Debug, Clone, Copy)]
pub struct RequestId(RmwRequestId);

/// A service server: takes requests, sends responses, or serves them all with a handler.
pub type ServiceServer<S> = crate::service_server::ServiceServer<S, ServerRequests<S>>;

/// ros2-client's server: where a [`ServiceServer`] takes requests and sends responses.
pub struct ServerRequests<S: ServiceInterface>(Server<Wire<S::Request>, Wire<S::Response>>);

impl<S: ServiceInterface> std::fmt::Debug for ServerRequests<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ServerRequests")
    }
}

impl<S: ServiceInterface> Requests<S> for ServerRequests<S> {
    type Id = RequestId;

    async fn next(&self, service: &str) -> (RequestId, S::Request) {
        loop {
            match self.0.async_receive_request().await {
                Ok((id, Wire(req))) => return (RequestId(id), req),
                Err(e) => {
                    tracing::warn!(%service, "dropping a request that does not decode: {e:?}");
                    // A broken reader would fail at once forever: do not spin on it.
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            }
        }
    }

    async fn respond(
        &self,
        service: &str,
        id: RequestId,
        response: S::Response,
    ) -> Result<(), RosError> {
        self.0
            .async_send_response(id.0, Wire(response))
            .await
            .map_err(|e| RosError::Publish {
                topic: service.to_string(),
                why: format!("{e:?}"),
            })
    }
}

pub struct ServiceClient<S: ServiceInterface> {
    inner: Client<Wire<S::Request>, Wire<S::Response>>,
    name: String,
    server: ServerWatch,
    /// ros2-client hands a response to whichever waiter reads it first and drops the others'
    /// responses, so calls on one client take turns.
    turn: Mutex<()>,
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
