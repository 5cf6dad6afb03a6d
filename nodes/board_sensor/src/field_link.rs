//! The field controller over its serial link: `serial_link`'s reconnecting session owns the
//! port (opened again every 2 s while it is missing or after it closed; it says in the logs
//! when the controller is lost and found). Readers ask for snapshots through [`Field`]; button
//! presses and new sessions come out as [`FieldEvent`]s.

use std::time::Duration;

use serial_link::field::{Button, Snapshot};
use serial_link::session::{port_connector, reconnecting, Connector, LinkHealth, SessionEvent};
use serial_link::transport::LinkSender;
use serial_link::{ControllerKind, Event, FieldCommand, FieldReport};
use tokio::sync::{mpsc, watch, Mutex};
use tokio::time::{timeout, Instant};

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

/// The buttons' press counters, as last reported, for `/diagnostics`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Presses {
    pub confirm: Option<u16>,
    pub new_game: Option<u16>,
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
    link: watch::Receiver<LinkHealth>,
    presses: watch::Receiver<Presses>,
}

/// Starts the session with the controller on `port`.
pub fn start(
    port: String,
    baud: u32,
    request_timeout: Duration,
) -> (Field, mpsc::Receiver<FieldEvent>) {
    start_with(port_connector(port.clone(), baud), port, request_timeout)
}

/// The same over any byte stream `connect` opens (a test's in-memory pipe); `port` names it.
pub fn start_with(
    connect: Connector,
    port: String,
    request_timeout: Duration,
) -> (Field, mpsc::Receiver<FieldEvent>) {
    let session = reconnecting(connect, ControllerKind::Field, port.clone());
    let (status_tx, status_rx) = watch::channel("not connected yet".to_string());
    let (snap_tx, snap_rx) = mpsc::channel(16);
    let (event_tx, event_rx) = mpsc::channel(16);
    let (presses_tx, presses) = watch::channel(Presses::default());
    tokio::spawn(follow(
        session.events,
        status_tx,
        presses_tx,
        snap_tx,
        event_tx,
    ));
    (
        Field {
            port,
            sender: session.sender,
            status: status_rx,
            snapshots: Mutex::new(snap_rx),
            request_timeout,
            link: session.health,
            presses,
        },
        event_rx,
    )
}

/// Turns the session's events into snapshots, field events and the status the errors quote.
async fn follow(
    mut session: mpsc::Receiver<SessionEvent<FieldReport>>,
    status: watch::Sender<String>,
    presses: watch::Sender<Presses>,
    snapshots: mpsc::Sender<Snapshot>,
    events: mpsc::Sender<FieldEvent>,
) {
    while let Some(event) = session.recv().await {
        presses.send_modify(|p| match &event {
            SessionEvent::Link(Event::Received(FieldReport::Snapshot(s))) => {
                p.confirm = Some(s.confirm_presses);
                p.new_game = Some(s.new_game_presses);
            }
            SessionEvent::Link(Event::Received(FieldReport::ButtonPressed { button, presses })) => {
                match button {
                    Button::Confirm => p.confirm = Some(*presses),
                    Button::NewGame => p.new_game = Some(*presses),
                }
            }
            _ => {}
        });
        let now = match event {
            SessionEvent::Unavailable(e) => format!("cannot open the port: {e}"),
            SessionEvent::PortOpen => "port open, handshake under way".into(),
            SessionEvent::PortClosed(why) => format!("{why}; reopening the port"),
            SessionEvent::Link(Event::Connected(_)) => {
                let _ = events.try_send(FieldEvent::Connected);
                "connected".into()
            }
            SessionEvent::Link(Event::Disconnected { reason, .. }) => {
                format!("lost the controller ({reason}); reconnecting")
            }
            SessionEvent::Link(Event::HandshakeFailed(e)) => e.to_string(),
            SessionEvent::Link(Event::Received(FieldReport::Snapshot(s))) => {
                // A full queue means nobody is reading: the snapshot is stale anyway.
                let _ = snapshots.try_send(s);
                continue;
            }
            SessionEvent::Link(Event::Received(FieldReport::ButtonPressed { button, presses })) => {
                let ev = match button {
                    Button::Confirm => FieldEvent::Confirm { presses },
                    Button::NewGame => FieldEvent::NewGame { presses },
                };
                if events.send(ev).await.is_err() {
                    return;
                }
                continue;
            }
            SessionEvent::Link(Event::Rejected { .. } | Event::Delivered(_)) => continue,
        };
        status.send_replace(now);
    }
}

impl Field {
    /// How the link is now.
    pub fn link(&self) -> LinkHealth {
        self.link.borrow().clone()
    }

    /// The buttons' counters, as last reported.
    pub fn presses(&self) -> Presses {
        *self.presses.borrow()
    }

    /// The port it keeps open.
    pub fn port(&self) -> &str {
        &self.port
    }

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
