//! Service servers and clients. Clients use r2r's untyped client; r2r has no untyped server, so
//! a server needs its service bound to r2r's native type ([`R2rService`]).

use std::collections::HashMap;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use checkers_msgs::{Interface, ServiceInterface};
use futures::{Stream, StreamExt};
use r2r::WrappedServiceTypeSupport;
use tokio::time::Instant;

use super::convert::{convert, from_json, to_json};
use super::node::{create_error, Node};
use super::qos;
use super::spin::Shared;
use crate::error::RosError;
use crate::service_server::Requests;

/// A service with the type r2r generated for it, which r2r's servers need. Implemented for
/// every `checkers_msgs` service where r2r generated `r2r::checkers_msgs` (see `bindings`).
pub trait R2rService: ServiceInterface {
    type Native: WrappedServiceTypeSupport + 'static;
}

type NativeRequest<S> = r2r::ServiceRequest<<S as R2rService>::Native>;
type NativeRequests<S> = Pin<Box<dyn Stream<Item = NativeRequest<S>> + Send>>;

impl Node {
    pub fn service_server<S: R2rService>(
        &mut self,
        name: &str,
    ) -> Result<ServiceServer<S>, RosError> {
        let fqn = self.name_of("service", name)?;
        let requests = self
            .shared
            .with(|n| n.create_service::<S::Native>(name, qos::service()))
            .map_err(|e| create_error(format!("service server {fqn}"), e))?;
        let requests = ServerRequests {
            requests: tokio::sync::Mutex::new(Box::pin(requests)),
            pending: Mutex::default(),
            next_id: AtomicU64::new(0),
            _node: Arc::clone(&self.shared),
        };
        Ok(ServiceServer::new(fqn, requests))
    }

    pub fn service_client<S: ServiceInterface>(
        &mut self,
        name: &str,
    ) -> Result<ServiceClient<S>, RosError> {
        let fqn = self.name_of("service", name)?;
        let inner = self
            .shared
            .with(|n| n.create_client_untyped(name, S::ROS_TYPE, qos::service()))
            .map_err(|e| create_error(format!("service client {fqn} ({})", S::ROS_TYPE), e))?;
        Ok(ServiceClient {
            inner,
            name: fqn,
            ready: AtomicBool::new(false),
            _node: Arc::clone(&self.shared),
            _s: PhantomData,
        })
    }
}

/// Identifies a request so its response can be sent later.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RequestId(u64);

/// A service server: takes requests, sends responses, or serves them all with a handler.
pub type ServiceServer<S> = crate::service_server::ServiceServer<S, ServerRequests<S>>;

/// r2r's service: where a [`ServiceServer`] takes requests and sends responses.
pub struct ServerRequests<S: R2rService> {
    requests: tokio::sync::Mutex<NativeRequests<S>>,
    /// r2r answers through the request itself: it waits here until it is answered.
    pending: Mutex<HashMap<u64, NativeRequest<S>>>,
    next_id: AtomicU64,
    _node: Arc<Shared>,
}

impl<S: R2rService> std::fmt::Debug for ServerRequests<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ServerRequests")
    }
}

impl<S: R2rService> Requests<S> for ServerRequests<S> {
    type Id = RequestId;

    async fn next(&self, service: &str) -> (RequestId, S::Request) {
        loop {
            let Some(request) = self.requests.lock().await.next().await else {
                // The node outlives its servers, so r2r never ends this stream.
                tracing::error!(%service, "r2r closed the request stream");
                return std::future::pending().await;
            };
            match convert::<_, S::Request>(&request.message) {
                Ok(req) => {
                    let id = self.next_id.fetch_add(1, Ordering::Relaxed);
                    self.pending
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .insert(id, request);
                    return (RequestId(id), req);
                }
                Err(e) => tracing::warn!(
                    %service,
                    "dropping a request that does not decode as {}: {e}",
                    S::ROS_TYPE
                ),
            }
        }
    }

    async fn respond(
        &self,
        service: &str,
        id: RequestId,
        response: S::Response,
    ) -> Result<(), RosError> {
        let error = |why: String| RosError::Publish {
            topic: service.to_string(),
            why,
        };
        let native = convert::<_, <S::Native as WrappedServiceTypeSupport>::Response>(&response)
            .map_err(|e| error(format!("response not representable: {e}")))?;
        let request = self
            .pending
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&id.0)
            .ok_or_else(|| error(format!("no request {} waits for a response", id.0)))?;
        request.respond(native).map_err(|e| error(e.to_string()))
    }
}

pub struct ServiceClient<S: ServiceInterface> {
    inner: r2r::ClientUntyped,
    name: String,
    /// Set once the server was seen; cleared when a call times out, since it may have gone.
    ready: AtomicBool,
    _node: Arc<Shared>,
    _s: PhantomData<S>,
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

    /// Waits until a server is available. False if none appeared within `timeout`.
    pub async fn wait_for_service(&self, timeout: Duration) -> bool {
        self.wait_until(Instant::now() + timeout).await
    }

    async fn wait_until(&self, deadline: Instant) -> bool {
        if self.ready.load(Ordering::Acquire) {
            return true;
        }
        let found = match r2r::Node::is_available(&self.inner) {
            Ok(available) => matches!(
                tokio::time::timeout_at(deadline, available).await,
                Ok(Ok(()))
            ),
            Err(e) => {
                tracing::warn!(service = %self.name, "cannot watch for the server: {e}");
                false
            }
        };
        self.ready.store(found, Ordering::Release);
        found
    }

    /// One request, one response, within `timeout` (waiting for the server included). Never
    /// resent: use this for requests that must not run twice.
    pub async fn call(
        &self,
        request: S::Request,
        timeout: Duration,
    ) -> Result<S::Response, RosError> {
        let receive_error = |why: String| RosError::Receive {
            name: self.name.clone(),
            why,
        };
        request.check_bounds().map_err(|e| RosError::Bounds {
            topic: self.name.clone(),
            why: e.to_string(),
        })?;
        let deadline = Instant::now() + timeout;
        if !self.wait_until(deadline).await {
            return Err(RosError::NoServer {
                name: self.name.clone(),
                waited: timeout,
            });
        }
        let publish_error = |why: String| RosError::Publish {
            topic: self.name.clone(),
            why,
        };
        let json = to_json(&request)
            .map_err(|e| publish_error(format!("request not representable: {e}")))?;
        let sent = self
            .inner
            .request(json)
            .map_err(|e| publish_error(e.to_string()))?;
        match tokio::time::timeout_at(deadline, sent).await {
            Err(_) => {
                self.ready.store(false, Ordering::Release);
                Err(RosError::Timeout {
                    name: self.name.clone(),
                    after: timeout,
                })
            }
            Ok(Err(e)) | Ok(Ok(Err(e))) => Err(receive_error(e.to_string())),
            Ok(Ok(Ok(json))) => from_json(json).map_err(|e| receive_error(e.to_string())),
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
