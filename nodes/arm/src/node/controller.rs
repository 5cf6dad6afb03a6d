//! The arm controller over its serial link: one task owns the port, opens it again every 2 s
//! while it is missing or after it closes, runs the link (handshake, acknowledgements, the
//! link's own re-handshake after a silence) and keeps the latest of what the controller
//! reported in a watch channel. Motions ([`super::motion`]) read that state; they never touch
//! the port.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serial_link::arm::{Alarm, ArmStatus};
use serial_link::transport::LinkSender;
use serial_link::{ArmCommand, ArmHost, ArmReport, CentiDeg, ControllerKind, Event, LinkConfig};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::watch;

use arm_kinematics::joints::Joints;

const REOPEN: Duration = Duration::from_secs(2);
/// Position reports every 20 ms: /joint_states' 50 Hz.
pub const REPORT_PERIOD_MS: u16 = 20;

/// A byte stream to the controller: a serial device, a pseudo-terminal, an in-memory pipe.
pub trait Io: AsyncRead + AsyncWrite + Send + Unpin {}
impl<T: AsyncRead + AsyncWrite + Send + Unpin> Io for T {}

pub type BoxedIo = Box<dyn Io>;
type Opening = Pin<Box<dyn Future<Output = std::io::Result<BoxedIo>> + Send>>;
/// Opens the stream to the controller; called again for every reconnection.
pub type Connector = Arc<dyn Fn() -> Opening + Send + Sync>;

/// Opens the serial device or pseudo-terminal at `port` raw ("" = none configured).
pub fn port_connector(port: String) -> Connector {
    Arc::new(move || {
        let port = port.clone();
        Box::pin(async move {
            if port.is_empty() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "no port configured (parameter port)",
                ));
            }
            // Raw, at the protocol's baud rate: a tty's line discipline would mangle frames.
            let io = serial_link::port::open(&port, serial_link::port::DEFAULT_BAUD)
                .map_err(|e| std::io::Error::other(e.to_string()))?;
            Ok(Box::new(io) as BoxedIo)
        })
    })
}

/// What the node knows of the controller now.
#[derive(Debug, Clone, Default)]
pub struct ControllerState {
    /// A session is up.
    pub connected: bool,
    /// Counts sessions: a motion that started in another session has lost its link.
    pub session: u64,
    /// The latest `Status`, and how many have arrived (so a waiter tells a fresh one).
    pub status: Option<ArmStatus>,
    pub statuses: u64,
    /// The joints last reported (`Position` or `Status`) in this session.
    pub joints: Option<Joints>,
    /// Alarms received so far, and the last one.
    pub alarms: u64,
    pub last_alarm: Option<Alarm>,
    /// Why the last session ended.
    pub last_loss: String,
    /// Commands the controller refused (Nack).
    pub rejected: u64,
}

/// The node's handle on the controller; cheap to clone.
#[derive(Debug, Clone)]
pub struct ArmLink {
    state: watch::Receiver<ControllerState>,
    sender: watch::Receiver<Option<LinkSender<ArmCommand>>>,
    next_move: Arc<AtomicU16>,
}

impl ArmLink {
    /// Starts the task that keeps a link to the controller open through `connect`.
    pub fn start(connect: Connector, what: String) -> ArmLink {
        let (state_tx, state) = watch::channel(ControllerState {
            last_loss: "the arm controller has not answered yet".into(),
            ..ControllerState::default()
        });
        let (sender_tx, sender) = watch::channel(None);
        tokio::spawn(drive(connect, what, state_tx, sender_tx));
        ArmLink {
            state,
            sender,
            next_move: Arc::default(),
        }
    }

    pub fn state(&self) -> ControllerState {
        self.state.borrow().clone()
    }

    pub fn watch(&self) -> watch::Receiver<ControllerState> {
        self.state.clone()
    }

    /// Sends `cmd` reliably in the current session.
    pub async fn send(&self, cmd: ArmCommand) -> Result<(), String> {
        let sender = self.sender.borrow().clone();
        let Some(sender) = sender else {
            return Err(self.state.borrow().last_loss.clone());
        };
        sender
            .send(cmd)
            .await
            .map(|_| ())
            .map_err(|e| format!("cannot send to the arm controller: {e}"))
    }

    /// A move id the controller has not reported as its current one.
    pub fn new_move_id(&self) -> u16 {
        let current = self.state.borrow().status.map(|s| s.move_id);
        loop {
            let id = self
                .next_move
                .fetch_add(1, Ordering::Relaxed)
                .wrapping_add(1);
            if Some(id) != current {
                return id;
            }
        }
    }
}

pub fn to_joints(c: &[CentiDeg; 3]) -> Joints {
    Joints::new(c[0].radians(), c[1].radians(), c[2].radians())
}

pub fn to_centideg(q: &Joints) -> [CentiDeg; 3] {
    let a = q.array();
    [
        CentiDeg::from_radians(a[0]),
        CentiDeg::from_radians(a[1]),
        CentiDeg::from_radians(a[2]),
    ]
}

async fn drive(
    connect: Connector,
    what: String,
    state: watch::Sender<ControllerState>,
    sender: watch::Sender<Option<LinkSender<ArmCommand>>>,
) {
    let mut warned = false;
    // Ends when the node (every ArmLink) is gone.
    while !state.is_closed() {
        match connect().await {
            Ok(io) => {
                warned = false;
                tracing::info!(port = %what, "arm controller port open");
                session(io, &state, &sender).await;
                tracing::warn!(port = %what, "arm controller port closed; reopening");
            }
            Err(e) => {
                if !warned {
                    tracing::warn!(port = %what, "cannot open the arm controller's port: {e}; retrying every 2 s");
                    warned = true;
                }
                state.send_modify(|s| {
                    s.last_loss = format!("cannot open the arm controller's port {what}: {e}")
                });
            }
        }
        tokio::time::sleep(REOPEN).await;
    }
}

/// Runs the link over one opened port until the port closes.
async fn session(
    io: BoxedIo,
    state: &watch::Sender<ControllerState>,
    sender: &watch::Sender<Option<LinkSender<ArmCommand>>>,
) {
    let link = ArmHost::host(
        ControllerKind::Arm,
        LinkConfig::default(),
        tokio::time::Instant::now().into_std(),
    );
    let mut handle = serial_link::transport::spawn(io, link);
    while let Some(event) = handle.events.recv().await {
        match event {
            Event::Connected(peer) => {
                tracing::info!(?peer, "arm controller connected");
                sender.send_replace(Some(handle.sender.clone()));
                state.send_modify(|s| {
                    s.connected = true;
                    s.session += 1;
                    s.joints = None;
                });
                // From another task: the link task may be waiting for us to take events.
                let tx = handle.sender.clone();
                tokio::spawn(async move {
                    for cmd in [
                        ArmCommand::SetReportPeriod {
                            period_ms: REPORT_PERIOD_MS,
                        },
                        ArmCommand::StatusRequest,
                    ] {
                        if let Err(e) = tx.send(cmd).await {
                            tracing::debug!("arm controller setup not sent: {e}");
                        }
                    }
                });
            }
            Event::Disconnected { reason, lost } => {
                tracing::warn!(?reason, lost = lost.len(), "arm controller link lost");
                sender.send_replace(None);
                state.send_modify(|s| {
                    s.connected = false;
                    s.joints = None;
                    s.last_loss = format!("lost the link to the arm controller ({reason:?})");
                });
            }
            Event::HandshakeFailed(e) => {
                tracing::warn!("arm controller: {e}");
                state.send_modify(|s| s.last_loss = format!("arm controller: {e}"));
            }
            Event::Received(report) => state.send_modify(|s| on_report(s, report)),
            Event::Rejected { id, reason } => {
                tracing::warn!(?id, ?reason, "the arm controller refused a command");
                state.send_modify(|s| s.rejected += 1);
            }
            Event::Delivered(_) => {}
        }
    }
    sender.send_replace(None);
    state.send_modify(|s| {
        s.connected = false;
        s.joints = None;
        s.last_loss = "the arm controller's port closed".into();
    });
}

fn on_report(s: &mut ControllerState, report: ArmReport) {
    match report {
        ArmReport::Position { joints } => s.joints = Some(to_joints(&joints)),
        ArmReport::Status(st) => {
            s.joints = Some(to_joints(&st.joints));
            s.status = Some(st);
            s.statuses += 1;
        }
        ArmReport::Alarm(a) => {
            tracing::warn!(code = ?a.code, joint = a.joint, detail = a.detail, "arm controller alarm");
            s.alarms += 1;
            s.last_alarm = Some(a);
        }
    }
}
