//! What both backends' service servers share: the server itself, its response check and its
//! serve loop, around how a backend takes requests and sends responses ([`Requests`]).

use std::future::Future;

use checkers_msgs::{Interface, ServiceInterface};

use crate::error::RosError;

/// A backend's requests to one service. `service` is the service's name, for errors and logs.
pub trait Requests<S: ServiceInterface> {
    /// Identifies a request so its response can be sent later.
    type Id;

    /// The next request. One that does not decode is logged and skipped.
    fn next(&self, service: &str) -> impl Future<Output = (Self::Id, S::Request)> + Send;

    /// Sends `response` (bounds already checked) to request `id`.
    fn respond(
        &self,
        service: &str,
        id: Self::Id,
        response: S::Response,
    ) -> impl Future<Output = Result<(), RosError>> + Send;
}

pub struct ServiceServer<S: ServiceInterface, R> {
    requests: R,
    name: String,
    _s: std::marker::PhantomData<fn() -> S>,
}

impl<S: ServiceInterface, R> std::fmt::Debug for ServiceServer<S, R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ServiceServer({}, {})", self.name, S::ROS_TYPE)
    }
}

impl<S: ServiceInterface, R: Requests<S>> ServiceServer<S, R> {
    pub(crate) fn new(name: String, requests: R) -> ServiceServer<S, R> {
        ServiceServer {
            requests,
            name,
            _s: std::marker::PhantomData,
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The next request. One that does not decode is logged and skipped.
    pub async fn next_request(&self) -> (R::Id, S::Request) {
        self.requests.next(&self.name).await
    }

    /// Sends the response to request `id`.
    pub async fn respond(&self, id: R::Id, response: S::Response) -> Result<(), RosError> {
        response.check_bounds().map_err(|e| RosError::Bounds {
            topic: self.name.clone(),
            why: e.to_string(),
        })?;
        self.requests.respond(&self.name, id, response).await
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
