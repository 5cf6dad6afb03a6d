//! A link that outlives its port: the one reconnecting session the three driver nodes share.
//! A task opens the port (again every [`REOPEN`] while it is missing, and after it closes),
//! runs a host [`Link`] over it, keeps the current session's [`LinkSender`] in a watch channel
//! and hands everything that happens to its owner as [`SessionEvent`]s. How the port is opened
//! is a [`Connector`], so a test gives an in-memory pipe where the node gives a serial device.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::{mpsc, watch};

use crate::common::ControllerKind;
use crate::config::LinkConfig;
use crate::event::Event;
use crate::link::Link;
use crate::transport::{spawn, LinkSender};
use crate::wire::Message;

/// How long a missing or closed port waits before it is opened again.
pub const REOPEN: Duration = Duration::from_secs(2);

/// A byte stream to a controller: a serial device, a pseudo-terminal, an in-memory pipe.
pub trait Io: AsyncRead + AsyncWrite + Send + Unpin {}
impl<T: AsyncRead + AsyncWrite + Send + Unpin> Io for T {}

/// An opened stream, whatever it is.
pub type BoxedIo = Box<dyn Io>;
type Opening = Pin<Box<dyn Future<Output = std::io::Result<BoxedIo>> + Send>>;
/// Opens the stream to the controller; called again for every reconnection.
pub type Connector = Arc<dyn Fn() -> Opening + Send + Sync>;

/// Opens the serial device or pseudo-terminal at `port` raw, at `baud` ("" = none configured).
#[cfg(all(feature = "port", unix))]
pub fn port_connector(port: String, baud: u32) -> Connector {
    Arc::new(move || {
        let port = port.clone();
        Box::pin(async move {
            if port.is_empty() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "no port configured (parameter port)",
                ));
            }
            // Raw: a tty's line discipline would mangle frames.
            let io =
                crate::port::open(&port, baud).map_err(|e| std::io::Error::other(e.to_string()))?;
            Ok(Box::new(io) as BoxedIo)
        })
    })
}

/// What happens to a reconnecting session.
// The link's events keep their lost ids inline (the firmware has no heap); these are few and
// pass through a channel, where the size costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum SessionEvent<Rx> {
    /// The port cannot be opened; said once until it opens again.
    Unavailable(String),
    /// The port is open: the handshake is under way.
    PortOpen,
    /// The link's own events: a session up or down, a message, a refusal.
    Link(Event<Rx>),
    /// The port closed or failed; it is opened again after [`REOPEN`].
    PortClosed(String),
}

/// How a reconnecting link is, for a node's `/diagnostics`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LinkHealth {
    /// A session is up.
    pub connected: bool,
    /// The link in words: "connected", "cannot open the port: ...", "lost the controller ...".
    pub state: String,
    /// The controller's firmware, as its last handshake named it.
    pub firmware: String,
    /// Sessions started so far.
    pub sessions: u64,
    /// Messages the controller refused.
    pub rejected: u64,
    /// The last keepalive's round trip in this session.
    pub round_trip: Option<std::time::Duration>,
    /// Frames that failed their CRC, and reliable frames sent again, in this session.
    pub crc_errors: u64,
    pub retransmits: u64,
}

impl LinkHealth {
    /// The link's key-values as a driver's `/diagnostics` status shows them, in that order.
    pub fn key_values(&self) -> [(&'static str, String); 6] {
        [
            ("firmware", self.firmware.clone()),
            ("link", self.state.clone()),
            ("sessions", self.sessions.to_string()),
            ("round_trip_ms", self.round_trip_ms()),
            ("crc_errors", self.crc_errors.to_string()),
            ("retransmits", self.retransmits.to_string()),
        ]
    }

    /// The last keepalive's round trip in milliseconds, "none" before the first.
    pub fn round_trip_ms(&self) -> String {
        self.round_trip
            .map_or("none".into(), |d| format!("{:.1}", d.as_secs_f64() * 1e3))
    }
}

/// The owner's end: the events, in order, and the current session's sender.
#[derive(Debug)]
pub struct Reconnecting<Tx, Rx> {
    /// Everything that happens; the session stops when this is dropped.
    pub events: mpsc::Receiver<SessionEvent<Rx>>,
    /// The sender of the session that is up, `None` between sessions.
    pub sender: watch::Receiver<Option<LinkSender<Tx>>>,
    /// How the link is now.
    pub health: watch::Receiver<LinkHealth>,
}

/// Starts keeping a session with the controller of `kind` through `connect`; `what` names
/// the port in the logs.
pub fn reconnecting<Tx, Rx>(
    connect: Connector,
    kind: ControllerKind,
    what: String,
) -> Reconnecting<Tx, Rx>
where
    Tx: Message + Send + Sync + 'static,
    Rx: Message + Send + 'static,
{
    let (events_tx, events) = mpsc::channel(64);
    let (sender_tx, sender) = watch::channel(None);
    let (health_tx, health) = watch::channel(LinkHealth {
        state: "not connected yet".into(),
        ..LinkHealth::default()
    });
    tokio::spawn(keep(connect, kind, what, events_tx, sender_tx, health_tx));
    Reconnecting {
        events,
        sender,
        health,
    }
}

async fn keep<Tx, Rx>(
    connect: Connector,
    kind: ControllerKind,
    what: String,
    events: mpsc::Sender<SessionEvent<Rx>>,
    sender: watch::Sender<Option<LinkSender<Tx>>>,
    health: watch::Sender<LinkHealth>,
) where
    Tx: Message + Send + Sync + 'static,
    Rx: Message + Send + 'static,
{
    let mut unavailable = false;
    while !events.is_closed() {
        let io = match connect().await {
            Ok(io) => io,
            Err(e) => {
                health.send_modify(|h| {
                    h.connected = false;
                    h.state = format!("cannot open the port: {e}");
                });
                if !unavailable {
                    tracing::warn!(port = %what, "cannot open the {kind} controller's port: {e}; retrying every {REOPEN:?}");
                    unavailable = true;
                    if events
                        .send(SessionEvent::Unavailable(e.to_string()))
                        .await
                        .is_err()
                    {
                        return;
                    }
                }
                tokio::time::sleep(REOPEN).await;
                continue;
            }
        };
        unavailable = false;
        health.send_modify(|h| h.state = "port open, handshake under way".into());
        tracing::info!(port = %what, "{kind} controller port open; connecting");
        if events.send(SessionEvent::PortOpen).await.is_err() {
            return;
        }
        let link = Link::host(
            kind,
            LinkConfig::default(),
            tokio::time::Instant::now().into_std(),
        );
        let mut handle = spawn(io, link);
        let mut connected = false;
        let mut link_stats = handle.stats.clone();
        // Until the link's task ends and takes its counters with it.
        let mut counting = true;
        loop {
            let event = tokio::select! {
                e = handle.events.recv() => match e {
                    Some(e) => e,
                    None => break,
                },
                changed = link_stats.changed(), if counting => {
                    counting = changed.is_ok();
                    let s = *link_stats.borrow_and_update();
                    health.send_modify(|h| {
                        h.round_trip = s.last_rtt;
                        h.crc_errors = s.crc_errors;
                        h.retransmits = s.retransmits;
                    });
                    continue;
                }
            };
            match &event {
                Event::Connected(peer) => {
                    tracing::info!(port = %what, firmware = %peer.firmware, "{kind} controller connected");
                    connected = true;
                    sender.send_replace(Some(handle.sender.clone()));
                    health.send_modify(|h| {
                        h.connected = true;
                        h.state = "connected".into();
                        h.firmware = peer.firmware.to_string();
                        h.sessions += 1;
                    });
                }
                Event::Disconnected { reason, .. } => {
                    tracing::warn!(port = %what, "lost the {kind} controller ({reason}); reconnecting");
                    connected = false;
                    sender.send_replace(None);
                    health.send_modify(|h| {
                        h.connected = false;
                        h.state = format!("lost the controller ({reason}); reconnecting");
                    });
                }
                Event::HandshakeFailed(e) => {
                    tracing::warn!(port = %what, "{kind} controller: {e}");
                    health.send_modify(|h| h.state = e.to_string());
                }
                Event::Rejected { reason, .. } => {
                    tracing::warn!(port = %what, ?reason, "the {kind} controller refused a message");
                    health.send_modify(|h| h.rejected += 1);
                }
                Event::Received(_) | Event::Delivered(_) => {}
            }
            if events.send(SessionEvent::Link(event)).await.is_err() {
                handle.task.abort();
                return;
            }
        }
        sender.send_replace(None);
        let why = match handle.task.await {
            Ok(Ok(())) => "the port closed".to_string(),
            Ok(Err(e)) => e.to_string(),
            Err(e) => e.to_string(),
        };
        health.send_modify(|h| {
            h.connected = false;
            h.state = format!("{why}; reopening the port");
        });
        if connected {
            tracing::warn!(port = %what, "lost the {kind} controller: {why}; reopening the port");
        } else {
            tracing::warn!(port = %what, "{kind} controller port: {why}; reopening");
        }
        if events.send(SessionEvent::PortClosed(why)).await.is_err() {
            return;
        }
        tokio::time::sleep(REOPEN).await;
    }
}
