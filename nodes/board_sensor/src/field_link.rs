//! The field controller over its serial link. One task owns the port: it opens it (again every
//! 2 s while it is missing or after it closed), runs the link, and says in the logs when the
//! controller is lost and found. Readers ask for snapshots through [`Field`]; button presses
//! and new sessions come out as [`FieldEvent`]s.

use std::time::Duration;

use serial_link::field::{Button, Snapshot};
use serial_link::transport::LinkSender;
use serial_link::{ControllerKind, Event, FieldCommand, FieldHost, FieldReport, LinkConfig};
use tokio::sync::{mpsc, watch, Mutex};
use tokio::time::{timeout, Instant};

const REOPEN: Duration = Duration::from_secs(2);

/// What the node hears from the field controller besides snapshots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldEvent {
    /// A session started (the first, or after a loss).
    Connected,
    /// The confirm button went down; its press counter now.
    Confirm { presses: u16 },
    /// The new-game button went down.
    NewGame { presses: u16 },
}

/// Why no snapshot came.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    #[error("no session with the field controller (port {port}): {why}")]
    NotConnected { port: String, why: String },
    #[error("the field controller did not answer a snapshot request within {0:?}")]
    Timeout(Duration),
    #[error(
        "the field controller's readings kept changing ({0} scans without two equal in a row)"
    )]
    Unstable(u32),
}

/// Snapshots on request.
#[derive(Debug)]
pub struct Field {
    port: String,
    sender: watch::Receiver<Option<LinkSender<FieldCommand>>>,
    /// Why the link is down, for messages.
    status: watch::Receiver<String>,
    /// One reader at a time: snapshots are answers to the requests of whoever holds it.
    snapshots: Mutex<mpsc::Receiver<Snapshot>>,
    /// How long a request waits for its snapshot (and, without a session, for one to start).
    pub request_timeout: Duration,
}

/// Starts the task that owns `port`.
pub fn start(
    port: String,
    baud: u32,
    request_timeout: Duration,
) -> (Field, mpsc::Receiver<FieldEvent>) {
    let (sender_tx, sender_rx) = watch::channel(None);
    let (status_tx, status_rx) = watch::channel("not connected yet".to_string());
    let (snap_tx, snap_rx) = mpsc::channel(16);
    let (event_tx, event_rx) = mpsc::channel(16);
    tokio::spawn(own_port(
        port.clone(),
        baud,
        sender_tx,
        status_tx,
        snap_tx,
        event_tx,
    ));
    (
        Field {
            port,
            sender: sender_rx,
            status: status_rx,
            snapshots: Mutex::new(snap_rx),
            request_timeout,
        },
        event_rx,
    )
}

async fn own_port(
    port: String,
    baud: u32,
    sender: watch::Sender<Option<LinkSender<FieldCommand>>>,
    status: watch::Sender<String>,
    snapshots: mpsc::Sender<Snapshot>,
    events: mpsc::Sender<FieldEvent>,
) {
    let mut warned = false;
    loop {
        if port.is_empty() {
            tracing::error!("no field controller port configured (parameter port)");
            status.send_replace("no port configured (parameter port)".into());
            return;
        }
        let io = match serial_link::port::open(&port, baud) {
            Ok(io) => io,
            Err(e) => {
                if !warned {
                    tracing::warn!(
                        "cannot open the field controller's port: {e}; retrying every {REOPEN:?}"
                    );
                    warned = true;
                }
                status.send_replace(format!("cannot open the port: {e}"));
                tokio::time::sleep(REOPEN).await;
                continue;
            }
        };
        warned = false;
        tracing::info!(%port, "field controller port open; connecting");
        status.send_replace("port open, handshake under way".into());
        let link = FieldHost::host(
            ControllerKind::Field,
            LinkConfig::default(),
            Instant::now().into_std(),
        );
        let mut handle = serial_link::transport::spawn(io, link);
        let mut connected = false;
        while let Some(event) = handle.events.recv().await {
            match event {
                Event::Connected(peer) => {
                    tracing::info!(%port, firmware = %peer.firmware.text(), "field controller connected");
                    connected = true;
                    sender.send_replace(Some(handle.sender.clone()));
                    status.send_replace("connected".into());
                    let _ = events.try_send(FieldEvent::Connected);
                }
                Event::Disconnected { reason, .. } => {
                    tracing::warn!(%port, "lost the field controller ({reason}); reconnecting");
                    connected = false;
                    sender.send_replace(None);
                    status.send_replace(format!("lost the controller ({reason}); reconnecting"));
                }
                Event::HandshakeFailed(e) => {
                    tracing::warn!(%port, "field controller: {e}");
                    status.send_replace(e.to_string());
                }
                Event::Received(FieldReport::Snapshot(s)) => {
                    // A full queue means nobody is reading: the snapshot is stale anyway.
                    let _ = snapshots.try_send(s);
                }
                Event::Received(FieldReport::ButtonPressed { button, presses }) => {
                    let ev = match button {
                        Button::Confirm => FieldEvent::Confirm { presses },
                        Button::NewGame => FieldEvent::NewGame { presses },
                    };
                    if events.send(ev).await.is_err() {
                        return;
                    }
                }
                Event::Rejected { reason, .. } => {
                    tracing::warn!(%port, ?reason, "the field controller refused a request");
                }
                Event::Delivered(_) => {}
            }
        }
        sender.send_replace(None);
        let why = match handle.task.await {
            Ok(Ok(())) => "the port closed".to_string(),
            Ok(Err(e)) => e.to_string(),
            Err(e) => e.to_string(),
        };
        if connected {
            tracing::warn!(%port, "lost the field controller: {why}; reopening the port");
        } else {
            tracing::warn!(%port, "field controller port: {why}; reopening");
        }
        status.send_replace(format!("{why}; reopening the port"));
        tokio::time::sleep(REOPEN).await;
    }
}

impl Field {
    /// The link's sender once a session is up, waiting until `deadline` for one.
    async fn session(&self, deadline: Instant) -> Result<LinkSender<FieldCommand>, ReadError> {
        let mut rx = self.sender.clone();
        let waited = timeout(deadline.saturating_duration_since(Instant::now()), async {
            loop {
                if let Some(s) = rx.borrow_and_update().clone() {
                    return Some(s);
                }
                if rx.changed().await.is_err() {
                    return None;
                }
            }
        })
        .await;
        match waited {
            Ok(Some(s)) => Ok(s),
            _ => Err(ReadError::NotConnected {
                port: self.port.clone(),
                why: self.status.borrow().clone(),
            }),
        }
    }

    /// One scan, fresh: requested now, answered from a scan that started after the request.
    async fn scan(&self, rx: &mut mpsc::Receiver<Snapshot>) -> Result<Snapshot, ReadError> {
        let deadline = Instant::now() + self.request_timeout;
        let sender = self.session(deadline).await?;
        // Answers to earlier requests that timed out are not this request's.
        while rx.try_recv().is_ok() {}
        sender
            .send(FieldCommand::SnapshotRequest)
            .await
            .map_err(|e| ReadError::NotConnected {
                port: self.port.clone(),
                why: e.to_string(),
            })?;
        match timeout(
            deadline.saturating_duration_since(Instant::now()),
            rx.recv(),
        )
        .await
        {
            Ok(Some(s)) => Ok(s),
            Ok(None) => Err(ReadError::NotConnected {
                port: self.port.clone(),
                why: "the link task stopped".into(),
            }),
            Err(_) => Err(ReadError::Timeout(self.request_timeout)),
        }
    }

    /// One raw scan (sensor order), for the confirm counter after a reconnection.
    pub async fn snapshot(&self) -> Result<Snapshot, ReadError> {
        let mut rx = self.snapshots.lock().await;
        self.scan(&mut rx).await
    }

    /// `readings` trusted readings (each two equal scans in a row, at most `max_scans` scans
    /// each), sensor order.
    pub async fn readings(&self, readings: u32, max_scans: u32) -> Result<Vec<u32>, ReadError> {
        let mut rx = self.snapshots.lock().await;
        let mut out = Vec::new();
        for _ in 0..readings.max(1) {
            let mut agreement = crate::reading::Agreement::default();
            let mut trusted = None;
            for _ in 0..max_scans.max(2) {
                let s = self.scan(&mut rx).await?;
                if let Some(r) = agreement.push(s.presence) {
                    trusted = Some(r);
                    break;
                }
            }
            out.push(trusted.ok_or(ReadError::Unstable(max_scans.max(2)))?);
        }
        Ok(out)
    }
}
