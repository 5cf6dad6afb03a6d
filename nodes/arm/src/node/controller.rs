//! The arm controller over its serial link: `serial_link`'s reconnecting session owns the port
//! (opened again every 2 s while it is missing or after it closes; the link's handshake,
//! acknowledgements and re-handshake after a silence), and a task here keeps the latest of what
//! the controller reported in a watch channel. Motions ([`super::motion`]) read that state;
//! they never touch the port.

use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::Arc;

use serial_link::arm::{Alarm, ArmStatus};
use serial_link::session::{reconnecting, LinkHealth, SessionEvent};
use serial_link::transport::LinkSender;
use serial_link::{ArmCommand, ArmReport, CentiDeg, ControllerKind, Event};
use tokio::sync::{mpsc, watch};

use super::error::LinkError;
use arm_kinematics::joints::Joints;

pub use serial_link::session::{BoxedIo, Connector};

/// Position reports every 20 ms: /joint_states' 50 Hz.
pub const REPORT_PERIOD_MS: u16 = 20;

/// Opens the serial device or pseudo-terminal at `port` raw ("" = none configured).
pub fn port_connector(port: String) -> Connector {
    serial_link::session::port_connector(port, serial_link::port::DEFAULT_BAUD)
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
    /// The controller's firmware, as its handshake named it.
    pub firmware: String,
}

/// The node's handle on the controller; cheap to clone.
#[derive(Debug, Clone)]
pub struct ArmLink {
    state: watch::Receiver<ControllerState>,
    link: watch::Receiver<LinkHealth>,
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
        let session = reconnecting(connect, ControllerKind::Arm, what.clone());
        let sender = session.sender.clone();
        let link = session.health.clone();
        tokio::spawn(follow(session.events, sender.clone(), what, state_tx));
        ArmLink {
            state,
            link,
            sender,
            next_move: Arc::default(),
        }
    }

    pub fn state(&self) -> ControllerState {
        self.state.borrow().clone()
    }

    /// The serial link's own health: its round trip and error counters.
    pub fn link_health(&self) -> LinkHealth {
        self.link.borrow().clone()
    }

    pub fn watch(&self) -> watch::Receiver<ControllerState> {
        self.state.clone()
    }

    /// Sends `cmd` reliably in the current session.
    pub async fn send(&self, cmd: ArmCommand) -> Result<(), LinkError> {
        let sender = self.sender.borrow().clone();
        let Some(sender) = sender else {
            return Err(LinkError::NoSession(self.state.borrow().last_loss.clone()));
        };
        sender.send(cmd).await.map(|_| ()).map_err(LinkError::Send)
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

/// Keeps `state` up to date with the session's events; ends when the node (every
/// [`ArmLink`]) is gone, which stops the session.
async fn follow(
    mut events: mpsc::Receiver<SessionEvent<ArmReport>>,
    sender: watch::Receiver<Option<LinkSender<ArmCommand>>>,
    what: String,
    state: watch::Sender<ControllerState>,
) {
    let down = |s: &mut ControllerState, why: String| {
        s.connected = false;
        s.joints = None;
        s.last_loss = why;
    };
    while let Some(event) = events.recv().await {
        if state.is_closed() {
            return;
        }
        match event {
            SessionEvent::Unavailable(e) => state.send_modify(|s| {
                s.last_loss = format!("cannot open the arm controller's port {what}: {e}")
            }),
            SessionEvent::PortOpen => {}
            SessionEvent::PortClosed(_) => {
                state.send_modify(|s| down(s, "the arm controller's port closed".into()))
            }
            SessionEvent::Link(Event::Connected(peer)) => {
                state.send_modify(|s| {
                    s.firmware = peer.firmware.to_string();
                    s.connected = true;
                    s.session += 1;
                    s.joints = None;
                });
                // Reports every 20 ms and a status now; from another task, as the session
                // waits for this one to take its events.
                let tx = sender.borrow().clone();
                tokio::spawn(async move {
                    let Some(tx) = tx else { return };
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
            SessionEvent::Link(Event::Disconnected { reason, .. }) => state.send_modify(|s| {
                down(
                    s,
                    format!("lost the link to the arm controller ({reason:?})"),
                )
            }),
            SessionEvent::Link(Event::HandshakeFailed(e)) => {
                state.send_modify(|s| s.last_loss = format!("arm controller: {e}"));
            }
            SessionEvent::Link(Event::Received(report)) => {
                state.send_modify(|s| on_report(s, report));
            }
            SessionEvent::Link(Event::Rejected { .. }) => state.send_modify(|s| s.rejected += 1),
            SessionEvent::Link(Event::Delivered(_)) => {}
        }
    }
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
