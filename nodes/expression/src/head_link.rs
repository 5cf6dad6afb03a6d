//! The head controller over its serial link: the node's latest frame goes out as eye bitmaps,
//! brow and neck angles. The port is opened again (every 2 s) when it is missing or closes, and
//! the current frame is sent again whenever a session starts.

use std::time::Duration;

use serial_link::head::EyeBitmap;
use serial_link::{ControllerKind, Event, HeadCommand, HeadHost, LinkConfig, ServoAngle};
use tokio::sync::watch;

use crate::face::Frame;

const REOPEN: Duration = Duration::from_secs(2);
/// Neck speed, hundredths of a degree per second: calm, not twitchy.
const NECK_SPEED: u16 = 6000;

/// Starts driving the head on `port`; the returned sender takes each new frame.
pub fn start(port: String) -> watch::Sender<Option<Frame>> {
    let (tx, rx) = watch::channel(None);
    tokio::spawn(drive(port, rx));
    tx
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

async fn drive(port: String, mut frames: watch::Receiver<Option<Frame>>) {
    let mut warned = false;
    loop {
        let io = match serial_link::port::open(&port, serial_link::port::DEFAULT_BAUD) {
            Ok(io) => io,
            Err(e) => {
                if !warned {
                    tracing::warn!("cannot open the head controller's port: {e}; retrying");
                    warned = true;
                }
                tokio::time::sleep(REOPEN).await;
                continue;
            }
        };
        warned = false;
        if session(io, &mut frames).await.is_err() {
            return;
        }
        tracing::warn!(%port, "head controller link closed; reopening");
        tokio::time::sleep(REOPEN).await;
    }
}

/// The frames are gone: the node stopped.
#[derive(Debug)]
pub struct Stopped;

/// Runs the link over one opened port until the port closes (`Ok`) or the node stops.
pub async fn session<IO>(io: IO, frames: &mut watch::Receiver<Option<Frame>>) -> Result<(), Stopped>
where
    IO: tokio::io::AsyncRead + tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    let link = HeadHost::host(
        ControllerKind::Head,
        LinkConfig::default(),
        tokio::time::Instant::now().into_std(),
    );
    let mut handle = serial_link::transport::spawn(io, link);
    loop {
        tokio::select! {
            event = handle.events.recv() => match event {
                None => return Ok(()),
                Some(Event::Connected(peer)) => {
                    tracing::info!(?peer, "head controller connected");
                    let current = frames.borrow().clone();
                    if let Some(frame) = current {
                        send(&handle.sender, &frame).await;
                    }
                }
                Some(Event::Disconnected { reason, .. }) => {
                    tracing::warn!(?reason, "head controller lost");
                }
                Some(Event::HandshakeFailed(e)) => tracing::warn!("head controller: {e}"),
                Some(Event::Rejected { reason, .. }) => {
                    tracing::warn!(?reason, "head controller refused a command");
                }
                Some(_) => {}
            },
            changed = frames.changed() => {
                if changed.is_err() {
                    return Err(Stopped);
                }
                let current = frames.borrow_and_update().clone();
                if let Some(frame) = current {
                    send(&handle.sender, &frame).await;
                }
            }
        }
    }
}

async fn send(sender: &serial_link::transport::LinkSender<HeadCommand>, frame: &Frame) {
    for command in commands(frame) {
        // Without a session the frame waits for the next one (sent on Connected).
        if let Err(e) = sender.send(command).await {
            tracing::debug!("head command not sent: {e}");
            return;
        }
    }
}
