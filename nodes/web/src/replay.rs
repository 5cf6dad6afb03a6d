//! A recorded game played back into the web window, without a graph: the page shows it as it
//! happened (the board, the moves, the face, the arm, the health panel), at the recorded pace
//! or faster. Nobody can play in a replay.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use graph_client::tap::{self, Sample};

use crate::arm_view::ArmView;
use crate::controls::Controls;
use crate::hub::Hub;
use crate::server::{self, Window};
use crate::session::Hello;

#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error(transparent)]
    Recording(#[from] recording::RecordingError),
    #[error("{0}: it holds no message of the graph's topics")]
    Empty(String),
    #[error("cannot listen on {address}:{port}: {source}")]
    Listen {
        address: String,
        port: u16,
        #[source]
        source: std::io::Error,
    },
}

/// What to replay and where.
#[derive(Debug)]
pub struct ReplayOptions<'a> {
    pub file: &'a Path,
    pub address: &'a str,
    pub port: u16,
    /// 2.0: twice as fast as it was played.
    pub speed: f64,
    pub arm: Option<ArmView>,
}

/// A replay ready to serve: its samples, what it skipped, its address.
#[derive(Debug)]
pub struct Replay {
    pub url: String,
    pub samples: usize,
    /// Messages of topics the graph's table does not know, or that do not decode.
    pub skipped: usize,
    /// Why the recording ends early (it was cut short by a crash), if it does.
    pub truncated: Option<String>,
    listener: tokio::net::TcpListener,
    window: Arc<Window>,
    feed: Vec<Sample>,
    speed: f64,
}

/// Reads the recording and binds the window's port.
pub async fn open(o: ReplayOptions<'_>) -> Result<Replay, ReplayError> {
    let rec = recording::read(o.file)?;
    let mut feed = Vec::with_capacity(rec.messages.len());
    let mut skipped = 0;
    for m in rec.messages {
        let decoded = tap::find(&m.topic).map(|t| (t, t.decode(&m.data)));
        match decoded {
            Some((topic, Ok(json))) => feed.push(Sample {
                topic,
                stamp_ns: m.log_time_ns,
                cdr: m.data.into(),
                json: Arc::new(json),
            }),
            Some((_, Err(e))) => {
                tracing::debug!("skipped: {e}");
                skipped += 1;
            }
            None => skipped += 1,
        }
    }
    if feed.is_empty() {
        return Err(ReplayError::Empty(o.file.display().to_string()));
    }
    let listener = server::bind(o.address, o.port, 10)
        .await
        .map_err(|source| ReplayError::Listen {
            address: o.address.to_string(),
            port: o.port,
            source,
        })?;
    let url = listener.local_addr().map(server::url).unwrap_or_default();
    let window = Arc::new(Window {
        hub: Hub::new(o.arm),
        controls: Controls::Replay,
        key: String::new(),
        hello: Hello {
            replay: true,
            levels: Arc::new(Vec::new()),
        },
    });
    Ok(Replay {
        url,
        samples: feed.len(),
        skipped,
        truncated: rec.truncated,
        listener,
        window,
        feed,
        speed: o.speed,
    })
}

impl Replay {
    /// Serves the page and feeds it the recording at its pace; `done` is called once the last
    /// message is in. Serves on until the task is dropped.
    pub async fn run(self, done: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
        let hub = self.window.hub.clone();
        let (feed, speed) = (self.feed, self.speed.max(1e-3));
        let feeder = tokio::spawn(async move {
            let start = tokio::time::Instant::now();
            let first = feed.first().map_or(0, |s| s.stamp_ns);
            for s in feed {
                let offset = s.stamp_ns.saturating_sub(first) as f64 / 1e9 / speed;
                tokio::time::sleep_until(start + Duration::from_secs_f64(offset)).await;
                hub.publish(s);
            }
            done();
        });
        let served = server::serve(self.listener, self.window).await;
        feeder.abort();
        served
    }
}
