//! The link endpoint: a sans-IO state machine for one end of one serial line.
//!
//! The owner feeds it received bytes ([`Link::receive`]), the time ([`Link::handle_timeout`],
//! when [`Link::poll_timeout`] says so) and messages to send ([`Link::send`]); it takes from it
//! the bytes to write ([`Link::take_transmit`]) and what happened ([`Link::poll_event`]). No
//! clock, thread or port is touched here, so the simulator, the driver nodes and the tests run
//! the very same logic, and a test can drive two ends through a lossy channel deterministically.
//!
//! Reliability is stop-and-wait: one reliable frame is in flight at a time, retransmitted until
//! acknowledged or until the retries are spent, which ends the session. Serial lines do not
//! reorder, so one outstanding frame and a duplicate check against the last accepted sequence
//! number are enough, and a controller's firmware needs nothing more.

// Without `std` the log lines vanish, and what they alone read goes unused.
#![cfg_attr(not(feature = "std"), allow(unused_variables))]

use heapless::Deque;

use crate::common::{
    Common, ControllerKind, FirmwareId, Hello, HelloAck, NackReason, HELLO, HELLO_ACK,
    LAST_COMMON_TYPE,
};
use crate::config::{LinkConfig, MAX_QUEUE};
use crate::event::{
    DisconnectReason, Event, HandshakeError, Lost, MessageId, PeerInfo, SendError, Stats,
};
use crate::frame::{
    encode_frame, FrameDecoder, FrameError, Payload, RawFrame, DELIMITER, MAX_ENCODED_LEN,
};
use crate::header::{Header, PROTOCOL_VERSION};
use crate::log::{debug, info, trace, warn};
use crate::time::Timestamp;
use crate::wire::{DecodeError, Message};

/// Frames a link can hold for the line between two [`Link::take_transmit`]s: a reply to each
/// of several frames read at once, a retransmission, an acknowledgement. More are dropped and
/// counted; the peer's retransmission makes good a reliable one.
pub const TRANSMIT_FRAMES: usize = 8;
/// Bytes of [`TRANSMIT_FRAMES`] frames, each with its leading and trailing delimiter.
pub const TRANSMIT_LEN: usize = TRANSMIT_FRAMES * (MAX_ENCODED_LEN + 2);
/// Events a link holds until [`Link::poll_event`] takes them; more are dropped and counted.
pub const MAX_EVENTS: usize = 16;

/// The bytes [`Link::take_transmit`] hands over.
pub type Transmit = heapless::Vec<u8, TRANSMIT_LEN>;

#[derive(Debug, Clone, Copy)]
enum Role {
    Host {
        expect: ControllerKind,
    },
    Controller {
        kind: ControllerKind,
        firmware: FirmwareId,
    },
}

#[derive(Debug, Clone, Copy)]
enum State<Instant> {
    /// No session. A host repeats `Hello` from `next_hello` on; a controller waits for one.
    Down {
        nonce: u16,
        next_hello: Instant,
    },
    Up {
        nonce: u16,
        peer: PeerInfo,
    },
}

#[derive(Debug)]
struct InFlight<Instant> {
    id: MessageId,
    seq: u8,
    msg_type: u8,
    payload: Payload,
    sent_at: Instant,
    retries: u8,
}

/// One end of a serial link: `Tx` is the set of messages this end sends, `Rx` what it receives.
/// A host's link to the arm is a `Link<ArmCommand, ArmReport>`, the arm's own end a
/// `Link<ArmReport, ArmCommand, _>`; the aliases in the crate root name all six. `Instant` is
/// the clock: `std::time::Instant` on a computer, [`crate::Micros`] on a controller.
#[derive(Debug)]
pub struct Link<Tx, Rx, Instant> {
    role: Role,
    config: LinkConfig,
    decoder: FrameDecoder,
    state: State<Instant>,
    rng: u64,
    next_id: u64,
    tx_seq: u8,
    in_flight: Option<InFlight<Instant>>,
    queue: Deque<(MessageId, Tx), MAX_QUEUE>,
    last_rx_seq: Option<u8>,
    ack_owed: bool,
    last_heard: Instant,
    last_sent: Instant,
    ping: Option<(u32, Instant)>,
    last_ping_at: Option<Instant>,
    out: Transmit,
    events: Deque<Event<Rx>, MAX_EVENTS>,
    stats: Stats,
}

impl<Tx: Message, Rx: Message, Instant: Timestamp> Link<Tx, Rx, Instant> {
    /// The host's end of the link to a controller of kind `expect` ([`ControllerKind::Host`]
    /// accepts any). It starts the handshake at the first [`Link::handle_timeout`].
    pub fn host(expect: ControllerKind, config: LinkConfig, now: Instant) -> Self {
        Self::new(Role::Host { expect }, config, now)
    }

    /// A controller's end: it waits for the host's `Hello`.
    pub fn controller(
        kind: ControllerKind,
        firmware: FirmwareId,
        config: LinkConfig,
        now: Instant,
    ) -> Self {
        Self::new(Role::Controller { kind, firmware }, config, now)
    }

    fn new(role: Role, config: LinkConfig, now: Instant) -> Self {
        let seed = config.nonce_seed.unwrap_or_else(random_seed);
        let mut link = Self {
            role,
            config,
            decoder: FrameDecoder::new(),
            state: State::Down {
                nonce: 0,
                next_hello: now,
            },
            // xorshift needs a non-zero state.
            rng: seed | 1,
            next_id: 0,
            tx_seq: 0,
            in_flight: None,
            queue: Deque::new(),
            last_rx_seq: None,
            ack_owed: false,
            last_heard: now,
            last_sent: now,
            ping: None,
            last_ping_at: None,
            out: Transmit::new(),
            events: Deque::new(),
            stats: Stats::default(),
        };
        let nonce = link.fresh_nonce(None);
        link.state = State::Down {
            nonce,
            next_hello: now,
        };
        link
    }

    /// Whether a session is up.
    pub fn is_connected(&self) -> bool {
        matches!(self.state, State::Up { .. })
    }

    /// The peer of the current session.
    pub fn peer(&self) -> Option<PeerInfo> {
        match self.state {
            State::Up { peer, .. } => Some(peer),
            State::Down { .. } => None,
        }
    }

    /// Counters for diagnostics.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Reliable messages not yet acknowledged: the one in flight and those queued behind it.
    pub fn unacknowledged(&self) -> usize {
        self.queue.len() + usize::from(self.in_flight.is_some())
    }

    /// Queues a message for reliable delivery: it is sent when those before it are acknowledged,
    /// and retransmitted until it is. Its fate comes back as [`Event::Delivered`],
    /// [`Event::Rejected`] or in [`Event::Disconnected`]'s `lost`.
    pub fn send(&mut self, msg: Tx, now: Instant) -> Result<MessageId, SendError> {
        self.check_sendable(&msg)?;
        if self.queue.len() >= self.config.max_queue.min(MAX_QUEUE) {
            return Err(SendError::QueueFull);
        }
        let id = MessageId(self.next_id);
        if self.queue.push_back((id, msg)).is_err() {
            return Err(SendError::QueueFull);
        }
        self.next_id += 1;
        self.flush(now);
        Ok(id)
    }

    /// Sends a message once, without acknowledgement: for periodic reports where the next one
    /// replaces a lost one.
    pub fn send_unreliable(&mut self, msg: Tx, now: Instant) -> Result<(), SendError> {
        let payload = self.check_sendable(&msg)?;
        self.emit(false, 0, msg.msg_type(), &payload, now);
        Ok(())
    }

    fn check_sendable(&self, msg: &Tx) -> Result<Payload, SendError> {
        if !self.is_connected() {
            return Err(SendError::NotConnected);
        }
        if msg.msg_type() <= LAST_COMMON_TYPE {
            return Err(SendError::ReservedType(msg.msg_type()));
        }
        msg.payload().map_err(|e| match e {
            FrameError::PayloadTooLong(len) => SendError::PayloadTooLong(len),
            _ => SendError::PayloadTooLong(0),
        })
    }

    /// Takes bytes read from the line, in pieces of any size.
    pub fn receive(&mut self, bytes: &[u8], now: Instant) {
        for &b in bytes {
            match self.decoder.push(b) {
                None => {}
                Some(Ok(frame)) => self.on_frame(frame, now),
                Some(Err(FrameError::Crc { computed, received })) => {
                    self.stats.crc_errors += 1;
                    debug!(computed, received, "frame dropped: CRC mismatch");
                }
                Some(Err(e)) => {
                    self.stats.framing_errors += 1;
                    debug!(error = %e, "bytes dropped: not a frame");
                }
            }
        }
        self.flush(now);
    }

    /// The bytes to write to the line now; the link forgets them.
    pub fn take_transmit(&mut self) -> Transmit {
        core::mem::take(&mut self.out)
    }

    /// The next event, oldest first.
    pub fn poll_event(&mut self) -> Option<Event<Rx>> {
        self.events.pop_front()
    }

    /// When [`Link::handle_timeout`] must be called next, if ever (a controller without a
    /// session waits only for bytes).
    pub fn poll_timeout(&self) -> Option<Instant> {
        match self.state {
            State::Down { next_hello, .. } => match self.role {
                Role::Host { .. } => Some(next_hello),
                Role::Controller { .. } => None,
            },
            State::Up { .. } => {
                let mut t = self.last_heard.after(self.config.peer_timeout);
                if let Some(f) = &self.in_flight {
                    t = t.min(f.sent_at.after(self.config.ack_timeout));
                }
                if let Some(p) = self.next_ping() {
                    t = t.min(p);
                }
                Some(t)
            }
        }
    }

    /// Lets time pass: retransmissions, keepalives, timeouts and (on a host) the handshake.
    pub fn handle_timeout(&mut self, now: Instant) {
        if let State::Up { .. } = self.state {
            self.tick_session(now);
        }
        if let (State::Down { nonce, next_hello }, Role::Host { expect }) = (self.state, self.role)
        {
            if now >= next_hello {
                let hello = Common::Hello(Hello {
                    protocol_version: PROTOCOL_VERSION,
                    expect,
                    nonce,
                });
                trace!(nonce, "hello");
                self.emit_common(&hello, now);
                self.state = State::Down {
                    nonce,
                    next_hello: now.after(self.config.hello_interval),
                };
            }
        }
        self.flush(now);
    }

    fn tick_session(&mut self, now: Instant) {
        if now >= self.last_heard.after(self.config.peer_timeout) {
            self.go_down(DisconnectReason::PeerSilent, now);
            return;
        }
        if let Some(f) = &self.in_flight {
            if now >= f.sent_at.after(self.config.ack_timeout) {
                if f.retries >= self.config.max_retries {
                    self.go_down(DisconnectReason::NoAck, now);
                    return;
                }
                let (seq, msg_type, payload) = (f.seq, f.msg_type, f.payload.clone());
                debug!(seq, msg_type, "retransmit");
                self.stats.retransmits += 1;
                self.emit(true, seq, msg_type, &payload, now);
                if let Some(f) = &mut self.in_flight {
                    f.retries += 1;
                    f.sent_at = now;
                }
            }
        }
        if self.next_ping().is_some_and(|t| now >= t) {
            let nonce = self.rng_next() as u32;
            self.ping = Some((nonce, now));
            self.last_ping_at = Some(now);
            self.emit_common(&Common::Ping { nonce }, now);
        }
    }

    /// When the host's next keepalive is due: once it has sent or heard nothing for the
    /// keepalive interval (so both ends hear each other even when traffic is one-way), at most
    /// once per interval.
    fn next_ping(&self) -> Option<Instant> {
        let Role::Host { .. } = self.role else {
            return None;
        };
        let ka = self.config.keepalive_interval;
        let quiet = self.last_sent.min(self.last_heard).after(ka);
        Some(match self.last_ping_at {
            Some(p) => quiet.max(p.after(ka)),
            None => quiet,
        })
    }

    fn on_frame(&mut self, frame: RawFrame, now: Instant) {
        self.stats.frames_in += 1;
        let h = frame.header;
        trace!(?h, len = frame.payload.len(), "frame in");
        // The handshake is read whatever the version byte says: its layout is frozen so that
        // ends of different versions can tell each other so.
        if h.msg_type == HELLO || h.msg_type == HELLO_ACK {
            match Common::decode(h.msg_type, &frame.payload) {
                Ok(Common::Hello(hello)) => self.on_hello(hello, now),
                Ok(Common::HelloAck(ack)) => self.on_hello_ack(ack, now),
                Ok(_) => {}
                Err(e) => {
                    self.stats.decode_errors += 1;
                    debug!(error = %e, "bad handshake frame");
                }
            }
            return;
        }
        if h.version != PROTOCOL_VERSION {
            self.stats.wrong_version += 1;
            debug!(
                version = h.version,
                "frame of another protocol version dropped"
            );
            return;
        }
        let State::Up { .. } = self.state else {
            if let Role::Controller { .. } = self.role {
                self.emit_common(
                    &Common::Nack {
                        seq: h.seq,
                        reason: NackReason::NoSession,
                    },
                    now,
                );
            }
            return;
        };
        self.last_heard = now;
        if let Some(ack) = h.ack {
            self.on_ack(ack);
        }
        let msg = if h.msg_type <= LAST_COMMON_TYPE {
            Common::decode(h.msg_type, &frame.payload).map(Incoming::Common)
        } else {
            Rx::decode(h.msg_type, &frame.payload).map(Incoming::App)
        };
        let msg = match msg {
            Ok(m) => m,
            Err(e) => {
                self.stats.decode_errors += 1;
                debug!(error = %e, "frame refused");
                if h.reliable {
                    let reason = match e {
                        DecodeError::UnknownType(_) => NackReason::UnknownType,
                        _ => NackReason::BadPayload,
                    };
                    self.emit_common(&Common::Nack { seq: h.seq, reason }, now);
                }
                return;
            }
        };
        if h.reliable {
            self.ack_owed = true;
            if self.last_rx_seq == Some(h.seq) {
                self.stats.duplicates += 1;
                debug!(seq = h.seq, "duplicate dropped");
                return;
            }
            self.last_rx_seq = Some(h.seq);
        }
        match msg {
            Incoming::App(m) => self.push_event(Event::Received(m)),
            Incoming::Common(Common::Ping { nonce }) => {
                self.emit_common(&Common::Pong { nonce }, now);
            }
            Incoming::Common(Common::Pong { nonce }) => {
                if let Some((n, at)) = self.ping {
                    if n == nonce {
                        self.stats.last_rtt = Some(now.since(at));
                        self.ping = None;
                    }
                }
            }
            Incoming::Common(Common::Nack { seq, reason }) => self.on_nack(seq, reason, now),
            Incoming::Common(_) => {}
        }
    }

    fn on_ack(&mut self, ack: u8) {
        if let Some(f) = &self.in_flight {
            if f.seq == ack {
                trace!(seq = ack, "acknowledged");
                let id = f.id;
                self.push_event(Event::Delivered(id));
                self.in_flight = None;
            }
        }
    }

    fn on_nack(&mut self, seq: u8, reason: NackReason, now: Instant) {
        if reason == NackReason::NoSession {
            self.go_down(DisconnectReason::PeerReset, now);
            return;
        }
        if let Some(f) = &self.in_flight {
            if f.seq == seq {
                warn!(seq, ?reason, "message refused by the peer");
                let id = f.id;
                self.push_event(Event::Rejected { id, reason });
                self.in_flight = None;
            }
        }
    }

    fn on_hello(&mut self, hello: Hello, now: Instant) {
        let Role::Controller { kind, firmware } = self.role else {
            return;
        };
        let compatible = hello.protocol_version == PROTOCOL_VERSION
            && (hello.expect == ControllerKind::Host || hello.expect == kind);
        if compatible {
            match self.state {
                // The host repeated its Hello because our HelloAck was lost: same session, and
                // proof the host is alive.
                State::Up { nonce, .. } if nonce == hello.nonce => self.last_heard = now,
                State::Up { .. } => {
                    self.go_down(DisconnectReason::PeerReset, now);
                    self.start_session(hello.nonce, host_peer(hello.protocol_version), now);
                }
                State::Down { .. } => {
                    self.start_session(hello.nonce, host_peer(hello.protocol_version), now);
                }
            }
        } else {
            warn!(?hello, "hello from an incompatible host");
        }
        let ack = Common::HelloAck(HelloAck {
            protocol_version: PROTOCOL_VERSION,
            kind,
            nonce: hello.nonce,
            firmware,
        });
        self.emit_common(&ack, now);
    }

    fn on_hello_ack(&mut self, ack: HelloAck, now: Instant) {
        let (State::Down { nonce, .. }, Role::Host { expect }) = (self.state, self.role) else {
            return;
        };
        if ack.nonce != nonce {
            debug!(nonce = ack.nonce, "stale hello-ack ignored");
            return;
        }
        let failure = if ack.protocol_version != PROTOCOL_VERSION {
            Some(HandshakeError::VersionMismatch {
                ours: PROTOCOL_VERSION,
                theirs: ack.protocol_version,
            })
        } else if expect != ControllerKind::Host && ack.kind != expect {
            Some(HandshakeError::WrongKind {
                expected: expect,
                found: ack.kind,
            })
        } else {
            None
        };
        if let Some(e) = failure {
            warn!(error = %e, "handshake failed");
            self.push_event(Event::HandshakeFailed(e));
            self.state = State::Down {
                nonce,
                next_hello: now.after(self.config.incompatible_retry),
            };
            return;
        }
        let peer = PeerInfo {
            kind: ack.kind,
            protocol_version: ack.protocol_version,
            firmware: ack.firmware,
        };
        self.start_session(nonce, peer, now);
    }

    fn start_session(&mut self, nonce: u16, peer: PeerInfo, now: Instant) {
        info!(kind = %peer.kind, firmware = %peer.firmware, "session up");
        self.state = State::Up { nonce, peer };
        self.tx_seq = 0;
        self.last_rx_seq = None;
        self.ack_owed = false;
        self.in_flight = None;
        self.last_heard = now;
        self.ping = None;
        self.last_ping_at = None;
        self.push_event(Event::Connected(peer));
    }

    fn go_down(&mut self, reason: DisconnectReason, now: Instant) {
        let State::Up { nonce, .. } = self.state else {
            return;
        };
        let mut lost = Lost::new();
        // `Lost` holds the whole queue and the frame in flight, so nothing is left out.
        let in_flight = self.in_flight.take().map(|f| f.id);
        let queued = core::iter::from_fn(|| self.queue.pop_front().map(|(id, _)| id));
        lost.extend(in_flight.into_iter().chain(queued));
        warn!(%reason, lost = lost.len(), "session down");
        self.push_event(Event::Disconnected { reason, lost });
        let nonce = self.fresh_nonce(Some(nonce));
        self.state = State::Down {
            nonce,
            next_hello: now,
        };
    }

    /// Sends the next queued reliable message if none is in flight, and an acknowledgement if one
    /// is owed and did not ride on another frame.
    fn flush(&mut self, now: Instant) {
        if !self.is_connected() {
            return;
        }
        if self.in_flight.is_none() {
            if let Some((id, msg)) = self.queue.pop_front() {
                let seq = self.tx_seq;
                self.tx_seq = self.tx_seq.wrapping_add(1);
                // `send` checked that it encodes.
                let payload = msg.payload().unwrap_or_default();
                self.emit(true, seq, msg.msg_type(), &payload, now);
                self.in_flight = Some(InFlight {
                    id,
                    seq,
                    msg_type: msg.msg_type(),
                    payload,
                    sent_at: now,
                    retries: 0,
                });
            }
        }
        if self.ack_owed {
            self.emit_common(&Common::Ack, now);
        }
    }

    fn emit_common(&mut self, msg: &Common, now: Instant) {
        match msg.payload() {
            Ok(payload) => self.emit(false, 0, msg.msg_type(), &payload, now),
            Err(e) => warn!(error = %e, "link message not sent"),
        }
    }

    fn push_event(&mut self, event: Event<Rx>) {
        if self.events.push_back(event).is_err() {
            self.stats.events_dropped += 1;
            warn!("event dropped: the owner is not polling");
        }
    }

    /// Writes one frame. Every frame of a session carries the latest acknowledgement, so a lost
    /// `Ack` is made good by whatever frame comes next. Every frame also has a delimiter in
    /// front: line noise between frames then ends as a short bad frame of its own instead of
    /// spoiling the good frame after it, for one byte per frame.
    fn emit(&mut self, reliable: bool, seq: u8, msg_type: u8, payload: &[u8], now: Instant) {
        let ack = if self.is_connected() {
            self.last_rx_seq
        } else {
            None
        };
        let header = Header {
            version: PROTOCOL_VERSION,
            reliable,
            seq,
            ack,
            msg_type,
        };
        match encode_frame(&header, payload) {
            Ok(bytes) => {
                if self.out.len() + 1 + bytes.len() > TRANSMIT_LEN {
                    self.stats.transmit_overflows += 1;
                    debug!(msg_type, "frame not sent: transmit buffer full");
                    return;
                }
                // Fits: checked just above.
                let _ = self.out.push(DELIMITER);
                let _ = self.out.extend_from_slice(&bytes);
                self.stats.frames_out += 1;
                self.last_sent = now;
                if ack.is_some() {
                    self.ack_owed = false;
                }
            }
            Err(e) => warn!(error = %e, msg_type, "frame not sent"),
        }
    }

    fn rng_next(&mut self) -> u64 {
        // xorshift64: nonces need only differ between attempts, not be secret.
        let mut x = self.rng;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.rng = x;
        x
    }

    fn fresh_nonce(&mut self, previous: Option<u16>) -> u16 {
        loop {
            let n = (self.rng_next() >> 16) as u16;
            if Some(n) != previous {
                return n;
            }
        }
    }
}

#[cfg(feature = "std")]
fn random_seed() -> u64 {
    use std::hash::BuildHasher;
    std::collections::hash_map::RandomState::new().hash_one(0u8)
}

/// Without `std` there is no entropy here; a controller seeds from its own (`nonce_seed`).
#[cfg(not(feature = "std"))]
fn random_seed() -> u64 {
    0x9E37_79B9_7F4A_7C15
}

enum Incoming<Rx> {
    Common(Common),
    App(Rx),
}

fn host_peer(protocol_version: u8) -> PeerInfo {
    PeerInfo {
        kind: ControllerKind::Host,
        protocol_version,
        firmware: FirmwareId::default(),
    }
}
