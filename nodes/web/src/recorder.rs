//! `recorder_node`: every game kept as an MCAP file, like `ros2 bag record -s mcap` of the
//! graph's topics. A file per game (`UNIX_SECONDS-gameID.mcap`, in `dir`, the arbiter's
//! `games/` folder beside the PDN by default), a new part past `max_file_mb`, the oldest
//! recordings removed past `max_total_mb`, chunks closed every `flush_period_s` so a crash
//! loses at most that much.

use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use graph_client::tap::{self, Sample};
use recording::{Channel, Limits, Recorder};
use ros::{Node, NodeError};
use tokio::sync::mpsc;

const TAP_QUEUE: usize = 8_192;
/// Samples held while the game is not known yet (the arbiter's state is latched: it comes
/// within a second or two of discovery).
const BEFORE_FIRST_STATE: usize = 20_000;

fn channel(s: &Sample) -> Channel<'static> {
    Channel {
        topic: s.topic.name,
        ros_type: s.topic.ros_type,
        definition: s.topic.definition,
        type_hash: s.topic.type_hash,
    }
}

pub async fn run(mut node: Node) -> Result<(), NodeError> {
    let mut p = node.params();
    let dir = p.declare("dir", String::new())?;
    let max_file_mb = p.declare("max_file_mb", 256i64)?;
    let max_total_mb = p.declare("max_total_mb", 2048i64)?;
    let flush_period_s = p.declare("flush_period_s", 2.0f64)?;
    drop(p);
    for name in node.params().unused_overrides() {
        tracing::warn!(
            parameter = name,
            "no such parameter of the recorder node; ignored"
        );
    }
    if dir.is_empty() {
        return Err(NodeError::param(
            "dir",
            "empty: the folder of the recordings",
        ));
    }
    let mb = |name: &'static str, v: i64| {
        u64::try_from(v)
            .ok()
            .filter(|&v| v >= 1)
            .map(|v| v << 20)
            .ok_or_else(|| NodeError::param(name, format!("{v}: 1 MB or more")))
    };
    let limits = Limits {
        file_bytes: mb("max_file_mb", max_file_mb)?,
        total_bytes: mb("max_total_mb", max_total_mb)?,
        ..Limits::default()
    };
    if !(flush_period_s > 0.0 && flush_period_s.is_finite()) {
        return Err(NodeError::param(
            "flush_period_s",
            format!("{flush_period_s}: more than 0"),
        ));
    }
    let mut recorder = Recorder::new(&PathBuf::from(&dir), limits).map_err(NodeError::setup)?;
    let (samples, mut tapped) = mpsc::channel(TAP_QUEUE);
    tap::tap(&mut node, &samples);
    let mut flush = tokio::time::interval(Duration::from_secs_f64(flush_period_s));
    let mut game: Option<u64> = None;
    let mut waiting: Vec<Sample> = Vec::new();
    let mut failing = false;
    loop {
        tokio::select! {
            s = tapped.recv() => {
                let Some(s) = s else { break };
                let started = new_game(&s, &mut game);
                let result = match started {
                    Some(id) => recorder
                        .start(&format!("{}-game{id}", unix_seconds()))
                        .map(|_| ()),
                    None => Ok(()),
                };
                let result = result.and_then(|()| {
                    if game.is_none() && waiting.len() < BEFORE_FIRST_STATE {
                        waiting.push(s);
                        return Ok(());
                    }
                    for w in waiting.drain(..).chain(std::iter::once(s)) {
                        recorder.write(&channel(&w), w.stamp_ns, &w.cdr)?;
                    }
                    Ok(())
                });
                report(result, &mut failing);
            }
            _ = flush.tick() => report(recorder.flush(), &mut failing),
        }
    }
    drop(node);
    recorder.finish().map_err(NodeError::setup)?;
    Ok(())
}

/// The id of the game `s` starts, when it is a `/game/state` of a game other than `game`.
fn new_game(s: &Sample, game: &mut Option<u64>) -> Option<u64> {
    if s.topic.name != "/game/state" {
        return None;
    }
    let id = s.json["game_id"].as_u64()?;
    if *game == Some(id) {
        return None;
    }
    *game = Some(id);
    Some(id)
}

/// Says once that recording fails (a full disk), and once that it works again.
fn report(result: Result<(), recording::RecordingError>, failing: &mut bool) {
    match result {
        Err(e) if !*failing => {
            tracing::warn!("recording failed, the game goes on unrecorded: {e}");
            *failing = true;
        }
        Ok(()) if *failing => {
            tracing::info!("recording again");
            *failing = false;
        }
        _ => {}
    }
}

fn unix_seconds() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
