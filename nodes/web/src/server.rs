//! The window's one port: `/` the page (served from the binary: no build step, nothing to
//! install), `/ws` its live feed, `/foxglove` Foxglove's protocol.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use tokio::net::TcpListener;

use crate::controls::Controls;
use crate::foxglove;
use crate::hub::Hub;
use crate::session::{self, Hello, Role};

const INDEX: &str = include_str!("../page/index.html");
const APP: &str = include_str!("../page/app.js");
const STYLE: &str = include_str!("../page/style.css");

/// A WebSocket frame larger than this closes the connection (the page's own requests are
/// limited to a few kilobytes, and answered with an error beyond that).
const MAX_FRAME: usize = 1 << 20;

/// Everything a session needs.
#[derive(Debug)]
pub struct Window {
    pub hub: Arc<Hub>,
    pub controls: Controls,
    /// The player's key (`?key=`); without it a page only watches. Empty: nobody plays.
    pub key: String,
    pub hello: Hello,
}

/// The window's routes.
pub fn router(window: Arc<Window>) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { page(INDEX, "text/html; charset=utf-8") }),
        )
        .route(
            "/app.js",
            get(|| async { page(APP, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/style.css",
            get(|| async { page(STYLE, "text/css; charset=utf-8") }),
        )
        .route("/ws", get(page_feed))
        .route("/foxglove", get(foxglove_feed))
        .with_state(window)
}

fn page(body: &'static str, content_type: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

async fn page_feed(
    ws: WebSocketUpgrade,
    Query(query): Query<HashMap<String, String>>,
    State(w): State<Arc<Window>>,
) -> Response {
    let role = match query.get("key") {
        Some(k) if !w.key.is_empty() && *k == w.key => Role::Player,
        _ => Role::Spectator,
    };
    let (hub, controls, hello) = (w.hub.clone(), w.controls.clone(), w.hello.clone());
    ws.max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| session::run(socket, hub, controls, role, hello))
}

async fn foxglove_feed(ws: WebSocketUpgrade, State(w): State<Arc<Window>>) -> Response {
    let hub = w.hub.clone();
    ws.protocols([foxglove::SUBPROTOCOL])
        .max_message_size(MAX_FRAME)
        .on_upgrade(move |socket| foxglove::run(socket, hub))
}

/// Listens on `address:port`, or on the next free port of the `tries` after it (`port` 0:
/// any free port).
pub async fn bind(address: &str, port: u16, tries: u16) -> std::io::Result<TcpListener> {
    let mut last = None;
    for p in (0..tries.max(1)).map(|i| port.saturating_add(if port == 0 { 0 } else { i })) {
        match TcpListener::bind((address, p)).await {
            Ok(l) => return Ok(l),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no port to try")))
}

/// The page's address for a listener on `local`, as a person types it.
pub fn url(local: SocketAddr) -> String {
    match local {
        SocketAddr::V4(a) if a.ip().is_unspecified() => format!("http://127.0.0.1:{}/", a.port()),
        a => format!("http://{a}/"),
    }
}

/// Serves `window` on `listener` until the task is dropped.
pub async fn serve(listener: TcpListener, window: Arc<Window>) -> std::io::Result<()> {
    axum::serve(listener, router(window)).await
}
