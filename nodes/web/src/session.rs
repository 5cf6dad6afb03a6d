//! One open page: told everything the hub knows, then every update, live; its requests are
//! carried out one at a time off the update loop, each answered by its id.

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket};
use futures::{SinkExt, StreamExt};
use serde_json::json;
use tokio::sync::{broadcast, mpsc};

use crate::controls::{Controls, Refused, Request};
use crate::hub::{Hub, Update};

/// The longest request a page sends is well under this; more is not a request.
pub const MAX_REQUEST: usize = 4_096;

/// What a page may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Plays (on the sim) and asks for hints, take-backs, new games.
    Player,
    /// Watches.
    Spectator,
}

/// What every page is told before its first update.
#[derive(Debug, Clone)]
pub struct Hello {
    pub replay: bool,
    pub levels: Arc<Vec<String>>,
}

/// The page's JSON for an update.
pub fn update_json(u: &Update) -> String {
    match u {
        Update::Sample(s) => json!({
            "op": "msg",
            "topic": s.topic.name,
            "stamp_ns": s.stamp_ns,
            "msg": *s.json,
        })
        .to_string(),
        Update::Arm(a) => a.to_string(),
    }
}

fn reply(id: u64, result: Result<String, Refused>) -> String {
    let (ok, message) = match result {
        Ok(m) => (true, m),
        Err(m) => (false, m.to_string()),
    };
    json!({"op": "reply", "id": id, "ok": ok, "message": message}).to_string()
}

fn error(message: &str) -> String {
    json!({"op": "error", "message": message}).to_string()
}

/// Serves one page until it closes.
pub async fn run(socket: WebSocket, hub: Arc<Hub>, controls: Controls, role: Role, hello: Hello) {
    let (mut tx, mut rx) = socket.split();
    // Subscribed before the snapshot is taken, so nothing falls between the two; the page
    // drops what it is told twice.
    let mut updates = hub.subscribe();
    let can_play = role == Role::Player && controls.can_move();
    let first = json!({
        "op": "hello",
        "role": match role { Role::Player => "player", Role::Spectator => "spectator" },
        "can_play": can_play,
        "replay": hello.replay,
        "levels": *hello.levels,
    });
    let mut out = vec![first.to_string()];
    out.extend(hub.snapshot().iter().map(update_json));
    for text in out {
        if tx.send(Message::Text(text.into())).await.is_err() {
            return;
        }
    }
    let (requests, mut pending) = mpsc::channel::<Request>(8);
    let (answers, mut answered) = mpsc::channel::<String>(8);
    // One request at a time, in order: a move takes the simulated human several seconds.
    let worker = tokio::spawn(async move {
        while let Some(request) = pending.recv().await {
            let id = request.id();
            let result = controls.handle(request).await;
            if answers.send(reply(id, result)).await.is_err() {
                break;
            }
        }
    });
    loop {
        let text = tokio::select! {
            u = updates.recv() => match u {
                Ok(u) => update_json(&u),
                Err(broadcast::error::RecvError::Lagged(n)) => {
                    tracing::debug!("a page fell {n} updates behind");
                    continue;
                }
                Err(broadcast::error::RecvError::Closed) => break,
            },
            a = answered.recv() => match a {
                Some(a) => a,
                None => break,
            },
            m = rx.next() => match m {
                Some(Ok(Message::Text(t))) => match read_request(t.as_str(), role) {
                    Ok(request) => match requests.try_send(request) {
                        Ok(()) => continue,
                        Err(_) => error("too many requests at once: wait for the answers"),
                    },
                    Err(e) => e.frame(),
                },
                Some(Ok(Message::Binary(_))) => error("requests are JSON text"),
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => continue,
            },
        };
        if tx.send(Message::Text(text.into())).await.is_err() {
            break;
        }
    }
    worker.abort();
}

/// Why a frame from the page is not a request it may make.
#[derive(Debug, thiserror::Error)]
enum BadRequest {
    #[error("a request of {0} bytes: at most {MAX_REQUEST}")]
    TooLong(usize),
    #[error("not a request: {0}")]
    Malformed(#[from] serde_json::Error),
    /// A well-formed request from a page without the player's key.
    #[error("{1}")]
    NotAllowed(u64, Refused),
}

impl BadRequest {
    /// The frame that answers it: a reply to a request with an id, else an error.
    fn frame(self) -> String {
        match self {
            BadRequest::NotAllowed(id, why) => reply(id, Err(why)),
            other => error(&other.to_string()),
        }
    }
}

/// A request the page may make.
fn read_request(text: &str, role: Role) -> Result<Request, BadRequest> {
    if text.len() > MAX_REQUEST {
        return Err(BadRequest::TooLong(text.len()));
    }
    let request: Request = serde_json::from_str(text)?;
    if role == Role::Spectator {
        return Err(BadRequest::NotAllowed(request.id(), Refused::Spectator));
    }
    Ok(request)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spectators_and_bad_requests_are_answered_with_errors() {
        let move_ = r#"{"op":"move","id":5,"text":"c3-d4"}"#;
        assert!(read_request(move_, Role::Player).is_ok());
        let e = read_request(move_, Role::Spectator)
            .expect_err("spectator")
            .frame();
        assert!(e.contains(r#""id":5"#) && e.contains("spectators"), "{e}");
        let e = read_request("{not json", Role::Player)
            .expect_err("malformed")
            .frame();
        assert!(e.contains(r#""op":"error""#), "{e}");
        let huge = format!(r#"{{"op":"move","id":1,"text":"{}"}}"#, "x".repeat(10_000));
        assert!(read_request(&huge, Role::Player)
            .expect_err("huge")
            .frame()
            .contains("at most"));
    }
}
