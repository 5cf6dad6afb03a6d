//! The framed serial protocol the field, arm and head controllers speak.
//!
//! Layers, bottom up: [`crc`] and [`frame`] (COBS framing with a CRC-16), [`header`], [`wire`]
//! (little-endian fields and the [`Message`] trait), the message sets ([`common`], [`field`],
//! [`arm`], [`head`]) and [`Link`], a sans-IO endpoint with the handshake, acknowledgements and
//! retransmission. `docs/serial-protocol.md` is the same protocol written for firmware authors.
//! With the `tokio` feature, [`transport`] runs a link over any async byte stream; with `port`
//! (Unix), `port` opens serial devices and pseudo-terminals as such streams.
#![forbid(unsafe_code)]

pub mod arm;
pub mod common;
mod config;
pub mod crc;
mod event;
pub mod field;
pub mod frame;
pub mod head;
pub mod header;
mod link;
#[cfg(all(feature = "port", unix))]
pub mod port;
#[cfg(feature = "tokio")]
pub mod transport;
pub mod units;
pub mod wire;

pub use arm::{ArmCommand, ArmReport};
pub use common::{ControllerKind, FirmwareId, NackReason};
pub use config::LinkConfig;
pub use event::{DisconnectReason, Event, HandshakeError, MessageId, PeerInfo, SendError, Stats};
pub use field::{FieldCommand, FieldReport};
pub use head::{HeadCommand, HeadReport};
pub use header::PROTOCOL_VERSION;
pub use link::Link;
pub use units::{CentiDeg, ServoAngle};
pub use wire::{DecodeError, Message};

/// The board sensor node's end of the field link.
pub type FieldHost = Link<FieldCommand, FieldReport>;
/// The field controller's end (the simulator's, or a test's).
pub type FieldController = Link<FieldReport, FieldCommand>;
/// The arm node's end of the arm link.
pub type ArmHost = Link<ArmCommand, ArmReport>;
/// The arm controller's end.
pub type ArmController = Link<ArmReport, ArmCommand>;
/// The expression node's end of the head link.
pub type HeadHost = Link<HeadCommand, HeadReport>;
/// The head controller's end.
pub type HeadController = Link<HeadReport, HeadCommand>;
