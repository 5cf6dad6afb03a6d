//! The computer's end of the emulated board's USB ports, without a pseudo-terminal: the host's
//! own `Link` per port, run between slices in emulated time. Tests and the figures use it to
//! talk to the firmware deterministically; the sim serves the ports on ptys instead.

use serial_link::{ControllerKind, Event, Link, LinkConfig, Message, Micros};

use crate::{Board, EmulatorError, Install, SliceInput, SliceOutput};

/// The installation for a test that runs the emulated boards, or `None` (with a line saying
/// why) where the firmware is not built. With `CHECKERS_REQUIRE_PICO` set, as CI sets it, a
/// missing build panics instead of skipping.
pub fn install_or_skip() -> Option<Install> {
    let required = std::env::var_os("CHECKERS_REQUIRE_PICO").is_some();
    let install = match Install::locate() {
        Ok(i) => i,
        Err(e) => {
            assert!(!required, "CHECKERS_REQUIRE_PICO is set: {e}");
            eprintln!("skipped: {e}");
            return None;
        }
    };
    if !install.firmware_built() {
        assert!(
            !required,
            "CHECKERS_REQUIRE_PICO is set but no Pico firmware is in {}",
            install.elf_dir.display()
        );
        eprintln!(
            "skipped: no Pico firmware in {} (firmware/pico/build.sh)",
            install.elf_dir.display()
        );
        return None;
    }
    Some(install)
}

/// The host's end of one USB CDC port.
#[derive(Debug)]
pub struct HostPort<Tx, Rx> {
    pub port: usize,
    pub link: Link<Tx, Rx, Micros>,
    /// Messages received, with the emulated time (microseconds) of the slice that brought them.
    pub received: Vec<(u64, Rx)>,
    /// Sessions begun.
    pub connects: usize,
}

impl<Tx: Message, Rx: Message> HostPort<Tx, Rx> {
    pub fn new(port: usize, kind: ControllerKind) -> Self {
        let config = LinkConfig {
            nonce_seed: Some(port as u64 + 11),
            ..LinkConfig::default()
        };
        HostPort {
            port,
            link: Link::host(kind, config, Micros(0)),
            received: Vec::new(),
            connects: 0,
        }
    }

    /// The latest message `pick` accepts.
    pub fn last<T>(&self, pick: impl Fn(&Rx) -> Option<T>) -> Option<T> {
        self.received.iter().rev().find_map(|(_, r)| pick(r))
    }
}

/// What [`run`] needs of a host end, whatever its messages.
pub trait Endpoint {
    fn port(&self) -> usize;
    /// Bytes to send now.
    fn outgoing(&mut self, now: Micros) -> Vec<u8>;
    fn incoming(&mut self, bytes: &[u8], now: Micros);
}

impl<Tx: Message, Rx: Message> Endpoint for HostPort<Tx, Rx> {
    fn port(&self) -> usize {
        self.port
    }

    fn outgoing(&mut self, now: Micros) -> Vec<u8> {
        self.link.handle_timeout(now);
        self.link.take_transmit().to_vec()
    }

    fn incoming(&mut self, bytes: &[u8], now: Micros) {
        self.link.receive(bytes, now);
        while let Some(e) = self.link.poll_event() {
            match e {
                Event::Received(r) => self.received.push((now.0, r)),
                Event::Connected(_) => self.connects += 1,
                _ => {}
            }
        }
    }
}

/// Runs `board` for `us` in slices of `slice_us`, the hosts talking to it. `first` goes with
/// the first slice; `wire` sees each slice's output and sets the next slice's input (the
/// electronics at the pins). Returns every slice's output.
pub async fn run(
    board: &mut Board,
    hosts: &mut [&mut dyn Endpoint],
    slice_us: u64,
    us: u64,
    first: SliceInput,
    mut wire: impl FnMut(&SliceOutput, &mut SliceInput),
) -> Result<Vec<SliceOutput>, EmulatorError> {
    let mut outs: Vec<SliceOutput> = Vec::new();
    let mut input = first;
    let mut now = Micros(board.now_us());
    let end = now.0 + us;
    while now.0 < end {
        input.run_us = slice_us;
        for h in hosts.iter_mut() {
            let bytes = h.outgoing(now);
            if !bytes.is_empty() {
                input.tx.push((h.port(), bytes));
            }
        }
        let out = board.slice(&input).await?;
        now = Micros(out.t_us);
        for (port, bytes) in &out.rx {
            for h in hosts.iter_mut().filter(|h| h.port() == *port) {
                h.incoming(bytes, now);
            }
        }
        input = SliceInput::default();
        wire(&out, &mut input);
        outs.push(out);
    }
    Ok(outs)
}
