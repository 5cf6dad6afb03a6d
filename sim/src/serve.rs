//! Serving one controller on a pseudo-terminal: the controller's firmware (in [`crate::state`])
//! fed from the pty through the line faults (noise, dropped frames, a controller gone silent),
//! as a board's main loop feeds it from its USB serial port.

use std::time::Duration;

use serial_link::frame::DELIMITER;
use serial_link::port::Port;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::faults::Controller;
use crate::state::{lock, Shared};

/// How often the serving loop runs the firmware when no bytes come: well inside the 20 ms
/// within which an acknowledgement is owed.
const TICK: Duration = Duration::from_millis(5);

/// Runs controller `which` over `port` until the port fails (the sim is shutting down).
pub async fn serve(which: Controller, mut port: Port, shared: Shared) -> std::io::Result<()> {
    let mut buf = [0u8; 256];
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut was_silent = false;
    loop {
        let silent = lock(&shared).faults.is_silent(which);
        if silent != was_silent {
            tracing::info!(
                controller = which.name(),
                "{}",
                if silent {
                    "injected fault: the controller stops answering"
                } else {
                    "the controller answers again"
                }
            );
            was_silent = silent;
        }
        tokio::select! {
            r = port.read(&mut buf) => {
                let n = r?;
                if n == 0 {
                    // Cannot happen while the sim holds the device end open; end quietly.
                    return Ok(());
                }
                if silent {
                    // Read and ignore: a dead controller does not make the host's writes block.
                    continue;
                }
                let bytes = inbound(&shared, &buf[..n]);
                lock(&shared).receive(which, &bytes);
            }
            _ = tick.tick() => {}
        }
        let out = lock(&shared).poll(which);
        if silent || out.is_empty() {
            continue;
        }
        let out = outbound(&shared, &out);
        if !out.is_empty() {
            port.write_all(&out).await?;
        }
    }
}

/// The host's bytes as the line delivers them: a chunk may be lost or have a bit flipped.
pub(crate) fn inbound(shared: &Shared, bytes: &[u8]) -> Vec<u8> {
    let mut sim = lock(shared);
    let (drop, noise) = (sim.faults.drop_frames, sim.faults.serial_noise);
    if sim.rng.chance(drop) {
        tracing::debug!(
            len = bytes.len(),
            "injected fault: bytes from the host lost"
        );
        return Vec::new();
    }
    let mut bytes = bytes.to_vec();
    if sim.rng.chance(noise) {
        let i = sim.rng.below(bytes.len());
        let bit = sim.rng.below(8);
        bytes[i] ^= 1 << bit;
        tracing::debug!("injected fault: a bit from the host flipped");
    }
    bytes
}

/// The controller's frames as the line delivers them: each may be lost, corrupted, or preceded
/// by a burst of garbage.
pub(crate) fn outbound(shared: &Shared, bytes: &[u8]) -> Vec<u8> {
    let mut sim = lock(shared);
    let (drop, noise) = (sim.faults.drop_frames, sim.faults.serial_noise);
    if drop <= 0.0 && noise <= 0.0 {
        return bytes.to_vec();
    }
    let mut out = Vec::with_capacity(bytes.len() + 8);
    for frame in bytes.split(|&b| b == DELIMITER).filter(|f| !f.is_empty()) {
        if sim.rng.chance(drop) {
            tracing::debug!("injected fault: a frame to the host lost");
            continue;
        }
        let mut frame = frame.to_vec();
        if sim.rng.chance(noise) {
            if sim.rng.chance(0.5) {
                let garbage: Vec<u8> = (0..1 + sim.rng.below(8))
                    .map(|_| (sim.rng.next_u64() & 0xFF) as u8)
                    .collect();
                out.push(DELIMITER);
                out.extend_from_slice(&garbage);
                tracing::debug!(len = garbage.len(), "injected fault: noise on the line");
            } else {
                let i = sim.rng.below(frame.len());
                frame[i] ^= 1 << sim.rng.below(8);
                tracing::debug!("injected fault: a bit of a frame flipped");
            }
        }
        out.push(DELIMITER);
        out.extend_from_slice(&frame);
        out.push(DELIMITER);
    }
    out
}
