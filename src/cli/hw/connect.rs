//! Finding controllers and opening sessions with them, with errors that say what is wrong
//! with a port: missing, not a serial device, silent, another kind, another protocol version.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use serial_link::port;
use serial_link::transport::{spawn, LinkHandle};
use serial_link::{ControllerKind, Event, Link, LinkConfig, Message, PeerInfo};

/// How long a controller has to answer the handshake: a few of the host's `Hello`s.
const ANSWER_WITHIN: Duration = Duration::from_millis(1500);

/// The serial ports a controller may be on: USB CDC and USB-serial adapters.
pub fn serial_ports() -> Vec<PathBuf> {
    let mut found = Vec::new();
    if let Ok(dir) = std::fs::read_dir("/dev") {
        for e in dir.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with("ttyACM") || name.starts_with("ttyUSB") {
                found.push(e.path());
            }
        }
    }
    found.sort();
    found
}

/// A session with the controller on `path`, which must be of kind `kind`.
pub async fn open<Tx, Rx>(
    path: &Path,
    baud: u32,
    kind: ControllerKind,
) -> anyhow::Result<(LinkHandle<Tx, Rx>, PeerInfo)>
where
    Tx: Message + Send + 'static,
    Rx: Message + Send + 'static,
{
    if !path.exists() {
        bail!(
            "{}: no such port (is the controller plugged in?)",
            path.display()
        );
    }
    let io = port::open(path, baud).with_context(|| format!("opening {}", path.display()))?;
    let mut link = spawn(io, Link::host(kind, LinkConfig::default(), Instant::now()));
    let answer = tokio::time::timeout(ANSWER_WITHIN, async {
        while let Some(e) = link.events.recv().await {
            match e {
                Event::Connected(peer) => return Ok(peer),
                Event::HandshakeFailed(e) => bail!("{}: {e}", path.display()),
                _ => {}
            }
        }
        bail!("{}: the port closed", path.display())
    })
    .await;
    match answer {
        Ok(Ok(peer)) => Ok((link, peer)),
        Ok(Err(e)) => {
            link.task.abort();
            Err(e)
        }
        Err(_) => {
            link.task.abort();
            bail!(
                "{}: no controller answered within {} ms (wrong port, no firmware, or another \
                 program holds the port: stop the robot's nodes first)",
                path.display(),
                ANSWER_WITHIN.as_millis()
            )
        }
    }
}

/// Who answers on each port.
pub async fn scan(paths: &[PathBuf], baud: u32) -> Vec<(PathBuf, anyhow::Result<PeerInfo>)> {
    let mut out = Vec::new();
    for p in paths {
        let r = open::<serial_link::FieldCommand, serial_link::FieldReport>(
            p,
            baud,
            ControllerKind::Host,
        )
        .await
        .map(|(link, peer)| {
            link.task.abort();
            peer
        });
        out.push((p.clone(), r));
    }
    out
}

/// `hw ports`: one line per port.
pub async fn print_ports(paths: &[PathBuf], baud: u32) -> anyhow::Result<()> {
    if paths.is_empty() {
        bail!("no serial ports (/dev/ttyACM*, /dev/ttyUSB*): is a controller plugged in?");
    }
    let found = scan(paths, baud).await;
    let mut any = false;
    for (path, r) in &found {
        match r {
            Ok(peer) => {
                any = true;
                println!(
                    "{}  {} controller  firmware \"{}\"  protocol {}",
                    path.display(),
                    peer.kind,
                    peer.firmware,
                    peer.protocol_version
                );
            }
            Err(e) => println!("{}  -  {e:#}", path.display()),
        }
    }
    if !any {
        bail!("no controller answered on {} port(s)", found.len());
    }
    Ok(())
}

/// The next report `want` picks, within `within`.
pub async fn report<Tx, Rx, T>(
    link: &mut LinkHandle<Tx, Rx>,
    within: Duration,
    mut want: impl FnMut(&Rx) -> Option<T>,
) -> anyhow::Result<T> {
    tokio::time::timeout(within, async {
        loop {
            match link.events.recv().await {
                Some(Event::Received(r)) => {
                    if let Some(t) = want(&r) {
                        return Ok(t);
                    }
                }
                Some(Event::Disconnected { reason, .. }) => {
                    bail!("the controller went away: {reason}")
                }
                Some(_) => {}
                None => bail!("the link stopped"),
            }
        }
    })
    .await
    .with_context(|| format!("no answer within {} s", within.as_secs_f64()))?
}
