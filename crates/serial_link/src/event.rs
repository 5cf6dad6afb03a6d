//! What a [`crate::Link`] tells its owner.

use crate::common::{ControllerKind, FirmwareId, NackReason};

/// Identifies a reliable message handed to [`crate::Link::send`], so its fate can be matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MessageId(pub u64);

/// The messages a session took down with it: the one in flight and the queue behind it.
pub type Lost = heapless::Vec<MessageId, { crate::config::MAX_QUEUE + 1 }>;

/// Who is at the other end of a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PeerInfo {
    /// The peer's kind; a controller sees [`ControllerKind::Host`].
    pub kind: ControllerKind,
    /// The peer's protocol version.
    pub protocol_version: u8,
    /// The peer's firmware; all zeros for a host.
    pub firmware: FirmwareId,
}

/// Why a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum DisconnectReason {
    /// A reliable frame went unacknowledged through every retry.
    #[error("no acknowledgement after all retries")]
    NoAck,
    /// Nothing was heard from the peer for the peer timeout.
    #[error("peer silent")]
    PeerSilent,
    /// The peer started over: a controller that lost its session, or a host with a new `Hello`.
    #[error("peer restarted the session")]
    PeerReset,
}

/// Why a handshake did not make a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum HandshakeError {
    /// The controller speaks another protocol version.
    #[error("controller speaks protocol version {theirs}, this host {ours}")]
    VersionMismatch {
        /// This end's version.
        ours: u8,
        /// The peer's version.
        theirs: u8,
    },
    /// The port leads to another controller than expected (a swapped cable).
    #[error("expected the {expected} controller, found the {found} controller")]
    WrongKind {
        /// The kind asked for.
        expected: ControllerKind,
        /// The kind that answered.
        found: ControllerKind,
    },
}

/// Something the owner of a link should know or act on.
// `Disconnected` carries its lost ids inline: boxing them would need a heap, which the firmware
// has not.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event<Rx> {
    /// A session started.
    Connected(PeerInfo),
    /// A session ended; the reliable messages not yet acknowledged are listed and dropped.
    Disconnected {
        /// Why.
        reason: DisconnectReason,
        /// Messages that may or may not have arrived.
        lost: Lost,
    },
    /// A controller answered the handshake but cannot be used; the host tries again later.
    HandshakeFailed(HandshakeError),
    /// A message from the peer (each reliable one exactly once, in order).
    Received(Rx),
    /// The peer acknowledged a reliable message.
    Delivered(MessageId),
    /// The peer refused a reliable message; it is not sent again.
    Rejected {
        /// The message.
        id: MessageId,
        /// Why.
        reason: NackReason,
    },
}

/// Why a message could not be sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// There is no session.
    #[error("no session with the peer")]
    NotConnected,
    /// Too many reliable messages are waiting.
    #[error("send queue full")]
    QueueFull,
    /// The message's payload is longer than a frame allows.
    #[error("payload of {0} bytes is too long")]
    PayloadTooLong(usize),
    /// The message uses a type code reserved for the link layer.
    #[error("message type {0:#04x} is reserved for the link")]
    ReservedType(u8),
}

/// Counters for diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    /// Frames that passed COBS and CRC.
    pub frames_in: u64,
    /// Frames written.
    pub frames_out: u64,
    /// Byte runs that were not frames: bad COBS, too short or too long.
    pub framing_errors: u64,
    /// Frames whose CRC did not match.
    pub crc_errors: u64,
    /// Frames of another protocol version (other than the handshake).
    pub wrong_version: u64,
    /// Intact frames whose payload could not be read; refused with a `Nack` if reliable.
    pub decode_errors: u64,
    /// Reliable frames received again and dropped.
    pub duplicates: u64,
    /// Reliable frames sent again.
    pub retransmits: u64,
    /// Events dropped because the owner did not poll them in time.
    pub events_dropped: u64,
    /// Frames not sent because the owner did not take the bytes in time.
    pub transmit_overflows: u64,
    /// The last round trip of a keepalive `Ping`.
    pub last_rtt: Option<core::time::Duration>,
}
