//! The board sensor node: `/board/occupancy` (a trusted reading each time the human presses
//! confirm) and `/board/scan` (a fresh reading on request).
//!
//! Parameters (config/board_sensor.yaml): `port` (the field controller's serial port, e.g. the
//! sim's `<run_dir>/field`), `baud`, `sensor_map` (32 square numbers, sensor i under square
//! `sensor_map[i]`), `scan_reads` (readings a scan combines when the request says 0),
//! `max_scans` (scans per reading before giving up on two equal ones), `request_timeout_s`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use checkers_msgs::msg::BoardOccupancy;
use checkers_msgs::srv::{ScanBoard, ScanBoard_Request, ScanBoard_Response};
use checkers_msgs::std_msgs::msg::Header;
pub use ros::NodeError;
use ros::{Node, Qos};
use tokio::sync::mpsc;

use crate::field_link::{self, Field, FieldEvent, ReadError};
use crate::health::{self, Readings};
use crate::reading::majority;
use crate::sensor_map::SensorMap;

#[derive(Debug, Clone)]
pub struct Settings {
    pub port: String,
    pub baud: u32,
    pub sensor_map: SensorMap,
    pub scan_reads: u32,
    pub max_scans: u32,
    pub request_timeout: Duration,
}

impl Settings {
    pub fn declare(node: &mut Node) -> Result<Settings, NodeError> {
        let mut p = node.params();
        let port = p.declare("port", String::new())?;
        let baud = p.declare("baud", i64::from(serial_link::port::DEFAULT_BAUD))?;
        let map = p.declare("sensor_map", (1..=32i64).collect::<Vec<_>>())?;
        let scan_reads = p.declare("scan_reads", 3i64)?;
        let max_scans = p.declare("max_scans", 10i64)?;
        let timeout_s = p.declare("request_timeout_s", 1.0f64)?;
        let param = |name: &'static str, why: String| NodeError::Param { name, why };
        if port.is_empty() {
            return Err(param("port", "no field controller port given".into()));
        }
        if !(timeout_s.is_finite() && timeout_s > 0.0) {
            return Err(param(
                "request_timeout_s",
                format!("{timeout_s} is not positive"),
            ));
        }
        Ok(Settings {
            port,
            baud: u32::try_from(baud).map_err(|_| param("baud", format!("{baud}")))?,
            sensor_map: SensorMap::new(&map).map_err(|e| NodeError::param("sensor_map", e))?,
            scan_reads: u32::try_from(scan_reads.clamp(1, 255)).unwrap_or(3),
            max_scans: u32::try_from(max_scans.clamp(2, 1000)).unwrap_or(10),
            request_timeout: Duration::from_secs_f64(timeout_s),
        })
    }
}

/// The node's state shared by the confirm loop and the scan service.
#[derive(Debug)]
struct Board {
    field: Arc<Field>,
    settings: Settings,
    /// Readings taken by this node, confirmed or not.
    seq: AtomicU64,
    /// How the readings went, for `/diagnostics`.
    readings: Arc<Readings>,
}

impl Board {
    /// `reads` trusted readings combined by majority, as squares.
    async fn read(&self, reads: u32) -> Result<u32, ReadError> {
        let read = self
            .field
            .readings(reads, self.settings.max_scans)
            .await
            .map(|r| self.settings.sensor_map.occupancy(majority(&r)));
        self.readings.record(&read);
        read
    }

    fn message(&self, node: &Node, occupied: u32, confirmed: bool) -> BoardOccupancy {
        BoardOccupancy {
            header: Header {
                stamp: node.now(),
                frame_id: "board".into(),
            },
            occupied,
            seq: self.seq.fetch_add(1, Ordering::Relaxed) + 1,
            confirmed,
        }
    }

    async fn scan(&self, node: &Node, req: ScanBoard_Request) -> ScanBoard_Response {
        let reads = if req.reads == 0 {
            self.settings.scan_reads
        } else {
            u32::from(req.reads)
        };
        match self.read(reads).await {
            Ok(occupied) => ScanBoard_Response {
                occupancy: self.message(node, occupied, false),
                success: true,
                message: String::new(),
            },
            Err(e) => {
                tracing::warn!("/board/scan failed: {e}");
                ScanBoard_Response {
                    success: false,
                    message: e.to_string(),
                    ..ScanBoard_Response::default()
                }
            }
        }
    }
}

/// The node a confirmed reading is for.
const ARBITER: &str = "arbiter";
/// How long a confirmed reading waits for the arbiter's subscription to be discovered.
const READER_GRACE: std::time::Duration = std::time::Duration::from_secs(5);

/// Confirm presses to published readings. A press made while the link was down reaches a
/// node in one of two ways: the controller reports a recent one when the next session starts,
/// and the first snapshot of that session shows it in the press counter. Each counter value is
/// acted on once.
async fn confirm_loop(
    board: &Board,
    node: &Node,
    out: &ros::Publisher<BoardOccupancy>,
    events: &mut mpsc::Receiver<FieldEvent>,
) {
    // The counter last known, and the one last published.
    let mut seen: Option<u16> = None;
    let mut acted: Option<u16> = None;
    while let Some(event) = events.recv().await {
        let pressed = match event {
            FieldEvent::Confirm { presses } => {
                seen = Some(presses);
                acted.replace(presses) != Some(presses)
            }
            FieldEvent::NewGame { presses } => {
                tracing::info!(presses, "new-game button pressed");
                false
            }
            FieldEvent::Connected => match board.field.snapshot().await {
                Ok(s) => {
                    // Counters restart with the controller; only a count that moved on is a
                    // missed press, and one that went back starts the count afresh.
                    let ahead = |l: u16| s.confirm_presses.wrapping_sub(l);
                    if acted.is_some_and(|a| ahead(a) >= 1000) {
                        acted = None;
                    }
                    let missed = seen.is_some_and(|l| (1..1000).contains(&ahead(l)))
                        && acted != Some(s.confirm_presses);
                    seen = Some(s.confirm_presses);
                    if missed {
                        tracing::info!("confirm was pressed while the link was down");
                        acted = seen;
                    }
                    missed
                }
                Err(e) => {
                    tracing::debug!("no snapshot after connecting: {e}");
                    false
                }
            },
        };
        if !pressed {
            continue;
        }
        match board.read(1).await {
            Ok(occupied) => {
                // A board sensor that has just started (respawned) may not be matched with the
                // arbiter yet, and a press published then is lost: wait for it a moment. Not for
                // any reader: the recorder and the web window read the topic too, and may be
                // found first. A graph without an arbiter (a test, `ros2 topic echo`) gets the
                // press once it has been seen to have none.
                if !out
                    .wait_for_subscriber_node(node, ARBITER, READER_GRACE)
                    .await
                {
                    tracing::warn!(
                        "confirm pressed, but the {ARBITER} does not subscribe to {}: the press goes unheard",
                        out.topic()
                    );
                }
                let msg = board.message(node, occupied, true);
                tracing::info!(
                    seq = msg.seq,
                    occupied = format!("{occupied:#010x}"),
                    "confirmed reading"
                );
                if let Err(e) = out.publish(msg).await {
                    tracing::warn!("{e}");
                }
            }
            Err(e) => tracing::warn!("confirm pressed, but no trusted reading: {e}"),
        }
    }
}

pub async fn run(mut node: Node) -> Result<(), NodeError> {
    let settings = Settings::declare(&mut node)?;
    for name in node.params().unused_overrides() {
        tracing::warn!(
            parameter = name,
            "no such parameter of the board sensor node; ignored"
        );
    }
    // Events, not latched: a restarted arbiter must never take an old confirm for a new one.
    // Latched, so that a press made while the arbiter starts again is not lost: it judges the
    // one it is handed once matched (and knows the one it judged before it stopped).
    let out = node.publisher::<BoardOccupancy>("/board/occupancy", Qos::State)?;
    let scan_server = node.service_server::<ScanBoard>("/board/scan")?;
    let (field, mut events) = field_link::start(
        settings.port.clone(),
        settings.baud,
        settings.request_timeout,
    );
    tracing::info!(port = %settings.port, "board sensor node running");
    let (field, readings) = (Arc::new(field), Arc::new(Readings::default()));
    let (f, r) = (Arc::clone(&field), Arc::clone(&readings));
    ros::diagnostics::publish_periodically(&mut node, move || {
        vec![health::report(f.port(), &f.link(), f.presses(), &r)]
    });
    let board = Board {
        field,
        settings,
        seq: AtomicU64::new(0),
        readings,
    };
    let serve = scan_server.serve(|req| board.scan(&node, req));
    // Both run for the node's life.
    futures::future::join(serve, confirm_loop(&board, &node, &out, &mut events)).await;
    Ok(())
}
