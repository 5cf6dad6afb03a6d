//! The framed serial protocol the field, arm and head controllers speak.
//!
//! Layers, bottom up: [`crc`] and [`frame`] (COBS framing with a CRC-16), [`header`], [`wire`]
//! (little-endian fields and the [`Message`] trait), the message sets ([`common`], [`field`],
//! [`arm`], [`head`]) and [`Link`], a sans-IO endpoint with the handshake, acknowledgements and
//! retransmission. `docs/serial-protocol.md` is the same protocol written for firmware authors.
//! With the `tokio` feature, [`transport`] runs a link over any async byte stream; with `port`
//! (Unix), `port` opens serial devices and pseudo-terminals as such streams, and [`session`]
//! keeps a host's link alive across lost ports: the one reconnecting loop of the driver nodes.
//!
//! Without the default `std` feature the crate is `no_std` and allocates nothing: every buffer
//! is a `heapless` one of the size the protocol gives, and time is [`Micros`]. The controllers'
//! firmware (`firmware/core`) runs this very code.
//!
//! The handshake between the arm node's end and the arm controller's, with the bytes each end
//! writes handed to the other (a serial port does that in the robot):
//!
//! ```
//! use std::time::Instant;
//!
//! use serial_link::{ArmController, ArmHost, ControllerKind, Event, FirmwareId, LinkConfig};
//!
//! let now = Instant::now();
//! let mut host = ArmHost::host(ControllerKind::Arm, LinkConfig::default(), now);
//! let mut arm: ArmController<Instant> = ArmController::controller(
//!     ControllerKind::Arm,
//!     FirmwareId::new("arm 1.0"),
//!     LinkConfig::default(),
//!     now,
//! );
//! // The host says hello at its first timeout; the controller answers, the host acknowledges.
//! host.handle_timeout(now);
//! for _ in 0..3 {
//!     arm.receive(&host.take_transmit(), now);
//!     host.receive(&arm.take_transmit(), now);
//! }
//! assert!(host.is_connected() && arm.is_connected());
//! match host.poll_event() {
//!     Some(Event::Connected(peer)) => assert_eq!(peer.firmware.to_string(), "arm 1.0"),
//!     other => panic!("expected the session to start, got {other:?}"),
//! }
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
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
mod log;
#[cfg(all(feature = "port", unix))]
pub mod port;
#[cfg(feature = "tokio")]
pub mod session;
pub mod time;
#[cfg(feature = "tokio")]
pub mod transport;
pub mod units;
pub mod wire;

pub use arm::{ArmCommand, ArmReport};
pub use common::{ControllerKind, FirmwareId, NackReason};
pub use config::{LinkConfig, MAX_QUEUE};
pub use event::{
    DisconnectReason, Event, HandshakeError, Lost, MessageId, PeerInfo, SendError, Stats,
};
pub use field::{FieldCommand, FieldReport};
pub use head::{HeadCommand, HeadReport};
pub use header::PROTOCOL_VERSION;
pub use link::{Link, Transmit, MAX_EVENTS, TRANSMIT_FRAMES, TRANSMIT_LEN};
pub use time::{Micros, Timestamp};
pub use units::{CentiDeg, ServoAngle};
pub use wire::{DecodeError, Message};

/// The board sensor node's end of the field link.
#[cfg(feature = "std")]
pub type FieldHost = Link<FieldCommand, FieldReport, std::time::Instant>;
/// The field controller's end (the firmware's, or a test's).
pub type FieldController<T> = Link<FieldReport, FieldCommand, T>;
/// The arm node's end of the arm link.
#[cfg(feature = "std")]
pub type ArmHost = Link<ArmCommand, ArmReport, std::time::Instant>;
/// The arm controller's end.
pub type ArmController<T> = Link<ArmReport, ArmCommand, T>;
/// The expression node's end of the head link.
#[cfg(feature = "std")]
pub type HeadHost = Link<HeadCommand, HeadReport, std::time::Instant>;
/// The head controller's end.
pub type HeadController<T> = Link<HeadReport, HeadCommand, T>;
