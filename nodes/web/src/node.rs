//! `web_node`: the window on the running graph. It taps every topic, keeps what a page opening
//! now must be told, and serves the page, its feed and Foxglove's protocol on one port,
//! localhost by default. Its URL is logged (and written to `url_file` when given), with the
//! player's key; without the key a page only watches.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use graph_client::client::GraphClient;
use graph_client::tap;
use ros::{Node, NodeError};
use tokio::sync::mpsc;

use crate::arm_view::ArmView;
use crate::controls::Controls;
use crate::hub::Hub;
use crate::server::{self, Window};
use crate::session::Hello;

/// How many samples may wait between the tap and the hub.
const TAP_QUEUE: usize = 4_096;

#[derive(Debug)]
struct Settings {
    address: String,
    port: u16,
    port_tries: u16,
    key: String,
    sim: bool,
    arm_config: String,
    board_config: String,
    difficulty_dir: String,
    url_file: String,
}

impl Settings {
    fn declare(node: &mut Node) -> Result<Settings, NodeError> {
        let mut p = node.params();
        let address = p.declare("address", "127.0.0.1".to_string())?;
        let port = p.declare("port", 8080i64)?;
        let port_tries = p.declare("port_tries", 10i64)?;
        let key = p.declare("key", String::new())?;
        let sim = p.declare("sim", false)?;
        let arm_config = p.declare("arm_config", String::new())?;
        let board_config = p.declare("board_config", String::new())?;
        let difficulty_dir = p.declare("difficulty_dir", String::new())?;
        let url_file = p.declare("url_file", String::new())?;
        let port = u16::try_from(port)
            .map_err(|_| NodeError::param("port", format!("{port}: 0 (any free) to 65535")))?;
        let port_tries = u16::try_from(port_tries)
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| NodeError::param("port_tries", format!("{port_tries}: 1 or more")))?;
        Ok(Settings {
            address,
            port,
            port_tries,
            key,
            sim,
            arm_config,
            board_config,
            difficulty_dir,
            url_file,
        })
    }
}

/// A key nobody guesses: std's per-process random hasher keys, twice.
fn random_key() -> String {
    let word = || RandomState::new().build_hasher().finish();
    format!("{:016x}{:016x}", word(), word())
}

/// The level names of `dir`, easiest first, for the page's new-game choice.
fn level_names(dir: &str) -> Vec<String> {
    if dir.is_empty() {
        return Vec::new();
    }
    let (levels, errors) = search::load_each(Path::new(dir));
    for e in errors {
        tracing::warn!("a difficulty level is left out of the page's list: {e}");
    }
    levels.into_iter().map(|l| l.name).collect()
}

/// The robot's geometry for the arm's drawing and Foxglove's 3D panel; without its configs the
/// window still shows everything else.
pub fn arm_view(arm: &str, board: &str) -> Option<ArmView> {
    if arm.is_empty() || board.is_empty() {
        return None;
    }
    match ArmView::load(Path::new(arm), Path::new(board)) {
        Ok(v) => Some(v),
        Err(e) => {
            tracing::warn!("the arm will not be drawn: {e}");
            None
        }
    }
}

pub async fn run(mut node: Node) -> Result<(), NodeError> {
    let s = Settings::declare(&mut node)?;
    for name in node.params().unused_overrides() {
        tracing::warn!(
            parameter = name,
            "no such parameter of the web node; ignored"
        );
    }
    let hub = Hub::new(arm_view(&s.arm_config, &s.board_config));
    let (samples, mut tapped) = mpsc::channel(TAP_QUEUE);
    tap::tap(&mut node, &samples);
    let feeder = hub.clone();
    node.spawn(async move {
        while let Some(sample) = tapped.recv().await {
            feeder.publish(sample);
        }
    });
    let client = GraphClient::on(node).map_err(NodeError::setup)?;
    let key = if s.key.is_empty() {
        random_key()
    } else {
        s.key.clone()
    };
    let listener = server::bind(&s.address, s.port, s.port_tries)
        .await
        .map_err(|e| {
            NodeError::param(
                "port",
                format!(
                    "cannot listen on {}:{} (nor the {} ports after it): {e}",
                    s.address,
                    s.port,
                    s.port_tries - 1
                ),
            )
        })?;
    let url = server::url(listener.local_addr().map_err(NodeError::setup)?);
    tracing::info!("web window: {url} (watch) and {url}?key={key} (play)");
    if !s.url_file.is_empty() {
        write_url_file(Path::new(&s.url_file), &url, &key);
    }
    let window = Arc::new(Window {
        hub,
        controls: Controls::Live {
            client: Arc::new(client),
            sim: s.sim,
        },
        key,
        hello: Hello {
            replay: false,
            levels: Arc::new(level_names(&s.difficulty_dir)),
        },
    });
    server::serve(listener, window)
        .await
        .map_err(NodeError::setup)
}

/// The page's URL and the player's key, for the program that launched the graph (`play`,
/// the tests): `URL` on the first line, `KEY` on the second.
fn write_url_file(path: &Path, url: &str, key: &str) {
    let tmp = PathBuf::from(format!("{}.tmp", path.display()));
    let written =
        std::fs::write(&tmp, format!("{url}\n{key}\n")).and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = written {
        tracing::warn!(
            "cannot write the web window's address to {}: {e}",
            path.display()
        );
    }
}
