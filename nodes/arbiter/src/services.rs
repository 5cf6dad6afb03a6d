//! The `/game/*` services as one stream of requests: taken one at a time between turns, and
//! all answered "busy" during the robot's.

use checkers_msgs::msg::BoardOccupancy;
use checkers_msgs::srv::{
    Hint, Hint_Request, Hint_Response, NewGame, NewGame_Request, NewGame_Response, Resign,
    Resign_Request, Resign_Response, ResolveAmbiguity, ResolveAmbiguity_Request,
    ResolveAmbiguity_Response, TakeBack, TakeBack_Request, TakeBack_Response,
};
use futures::{Stream, StreamExt};
use ros::{RequestId, ServiceServer};

use crate::error::ArbiterError;

/// A request to one of the `/game/*` services.
pub(crate) enum GameRequest {
    New(RequestId, NewGame_Request),
    Resign(RequestId, Resign_Request),
    Resolve(RequestId, ResolveAmbiguity_Request),
    Hint(RequestId, Hint_Request),
    TakeBack(RequestId, TakeBack_Request),
}

pub(crate) struct Services {
    pub(crate) new: ServiceServer<NewGame>,
    pub(crate) resign: ServiceServer<Resign>,
    pub(crate) resolve: ServiceServer<ResolveAmbiguity>,
    pub(crate) hint: ServiceServer<Hint>,
    pub(crate) takeback: ServiceServer<TakeBack>,
}

impl Services {
    pub(crate) async fn next(&self) -> GameRequest {
        tokio::select! {
            (id, r) = self.new.next_request() => GameRequest::New(id, r),
            (id, r) = self.resign.next_request() => GameRequest::Resign(id, r),
            (id, r) = self.resolve.next_request() => GameRequest::Resolve(id, r),
            (id, r) = self.hint.next_request() => GameRequest::Hint(id, r),
            (id, r) = self.takeback.next_request() => GameRequest::TakeBack(id, r),
        }
    }

    /// Answers `request` with its service's response: what was done, or why not.
    pub(crate) async fn answer(&self, request: GameRequest, outcome: Result<Done, Refusal>) {
        let (success, message, hint) = match outcome {
            Ok(Done::Text(message)) => (true, message, None),
            Ok(Done::Hint(response)) => (true, response.message.clone(), Some(response)),
            Err(why) => (false, why.to_string(), None),
        };
        match request {
            GameRequest::New(id, _) => {
                respond(&self.new, id, NewGame_Response { success, message }).await
            }
            GameRequest::Resign(id, _) => {
                respond(&self.resign, id, Resign_Response { success, message }).await
            }
            GameRequest::Resolve(id, _) => {
                let response = ResolveAmbiguity_Response { success, message };
                respond(&self.resolve, id, response).await
            }
            GameRequest::Hint(id, _) => {
                let response = hint.unwrap_or(Hint_Response {
                    success,
                    message,
                    ..Hint_Response::default()
                });
                respond(&self.hint, id, response).await
            }
            GameRequest::TakeBack(id, _) => {
                respond(&self.takeback, id, TakeBack_Response { success, message }).await
            }
        }
    }

    /// During the robot's turn the services answer "busy" and readings are set aside: nothing
    /// the human does with the board counts until the robot has finished.
    pub(crate) async fn stay_busy(
        &self,
        readings: &mut (impl Stream<Item = BoardOccupancy> + Unpin),
    ) {
        loop {
            tokio::select! {
                request = self.next() => self.answer(request, Err(Refusal::Busy)).await,
                Some(r) = readings.next() => tracing::info!(seq = r.seq, "a reading during the robot's turn: ignored"),
            }
        }
    }
}

/// Why a request was not carried out.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Refusal {
    #[error("busy: the robot is taking its turn; try again after its move")]
    Busy,
    #[error(transparent)]
    Failed(#[from] ArbiterError),
}

/// What a request that was carried out answers: a text to show, or a hint (which carries the
/// move as well).
#[derive(Debug)]
pub(crate) enum Done {
    Text(String),
    Hint(Hint_Response),
}

pub(crate) async fn respond<S: ros::Service>(
    server: &ServiceServer<S>,
    id: RequestId,
    response: S::Response,
) {
    if let Err(e) = server.respond(id, response).await {
        tracing::warn!("{e}");
    }
}
