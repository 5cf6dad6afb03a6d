//! The head controller over its serial link: the node's latest frame goes out as eye bitmaps,
//! brow and neck angles. `serial_link`'s reconnecting session owns the port (opened again every
//! 2 s when it is missing or closes), and the current frame is sent again whenever a session
//! starts.

use serial_link::head::EyeBitmap;
use serial_link::session::{
    port_connector, reconnecting, Connector, LinkHealth, Reconnecting, SessionEvent,
};
use serial_link::transport::LinkSender;
use serial_link::{ControllerKind, Event, HeadCommand, HeadReport, ServoAngle};
use tokio::sync::watch;

use crate::face::Frame;

/// Neck speed, hundredths of a degree per second: calm, not twitchy.
const NECK_SPEED: u16 = 6000;

/// Starts driving the head on `port`; the returned sender takes each new frame, the receiver
/// says how the link is.
pub fn start(port: String) -> (watch::Sender<Option<Frame>>, watch::Receiver<LinkHealth>) {
    start_with(
        port_connector(port.clone(), serial_link::port::DEFAULT_BAUD),
        port,
    )
}

/// The same over any byte stream `connect` opens (a test's in-memory pipe); `what` names it.
pub fn start_with(
    connect: Connector,
    what: String,
) -> (watch::Sender<Option<Frame>>, watch::Receiver<LinkHealth>) {
    let (tx, rx) = watch::channel(None);
    let session = reconnecting(connect, ControllerKind::Head, what);
    let health = session.health.clone();
    tokio::spawn(drive(session, rx));
    (tx, health)
}

fn commands(frame: &Frame) -> [HeadCommand; 3] {
    [
        HeadCommand::SetEyes {
            left: EyeBitmap(frame.left_eye.0),
            right: EyeBitmap(frame.right_eye.0),
        },
        HeadCommand::SetBrows {
            left: ServoAngle::from_degrees(f64::from(frame.pose.left_brow_deg)),
            right: ServoAngle::from_degrees(f64::from(frame.pose.right_brow_deg)),
        },
        HeadCommand::SetNeck {
            pan: ServoAngle::from_degrees(f64::from(frame.pose.neck_pan_deg)),
            // The protocol's tilt is positive up; the face's is positive looking down.
            tilt: ServoAngle::from_degrees(-f64::from(frame.pose.neck_tilt_deg)),
            speed: NECK_SPEED,
        },
    ]
}

/// Sends each new frame, and the current one at the start of each session, until the node
/// stops (the frames' sender is gone).
async fn drive(
    mut session: Reconnecting<HeadCommand, HeadReport>,
    mut frames: watch::Receiver<Option<Frame>>,
) {
    loop {
        tokio::select! {
            event = session.events.recv() => match event {
                None => return,
                Some(SessionEvent::Link(Event::Connected(_))) => {
                    let current = frames.borrow().clone();
                    if let Some(frame) = current {
                        send(&session.sender, &frame).await;
                    }
                }
                Some(_) => {}
            },
            changed = frames.changed() => {
                if changed.is_err() {
                    return;
                }
                let current = frames.borrow_and_update().clone();
                if let Some(frame) = current {
                    send(&session.sender, &frame).await;
                }
            }
        }
    }
}

async fn send(sender: &watch::Receiver<Option<LinkSender<HeadCommand>>>, frame: &Frame) {
    // Without a session the frame waits for the next one (sent on Connected).
    let Some(sender) = sender.borrow().clone() else {
        return;
    };
    for command in commands(frame) {
        if let Err(e) = sender.send(command).await {
            tracing::debug!("head command not sent: {e}");
            return;
        }
    }
}
