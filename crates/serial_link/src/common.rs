//! The messages of the link itself, the same for every controller: the handshake, keepalive,
//! acknowledgement and refusal. Type codes 0x00..=0x0F.
//!
//! The header layout and the payloads of `Hello` and `HelloAck` are frozen across protocol
//! versions, so two ends of different versions can always find out that they differ.

use crate::wire::{DecodeError, Message, Reader, Writer};

/// Type code of [`Common::Hello`].
pub const HELLO: u8 = 0x01;
/// Type code of [`Common::HelloAck`].
pub const HELLO_ACK: u8 = 0x02;
/// Type code of [`Common::Ping`].
pub const PING: u8 = 0x03;
/// Type code of [`Common::Pong`].
pub const PONG: u8 = 0x04;
/// Type code of [`Common::Ack`].
pub const ACK: u8 = 0x05;
/// Type code of [`Common::Nack`].
pub const NACK: u8 = 0x06;
/// The highest type code reserved for the link; message sets use codes above it.
pub const LAST_COMMON_TYPE: u8 = 0x0F;

/// Which end or which controller a link talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ControllerKind {
    /// The host (the driver node), or "any controller" in a host's `Hello`.
    Host,
    /// The field: 32 Hall sensors and the buttons.
    Field,
    /// The arm: three steppers and the suction pump.
    Arm,
    /// The head: LED eyes, brow and neck servos.
    Head,
}

impl ControllerKind {
    /// The wire code.
    pub fn code(self) -> u8 {
        match self {
            Self::Host => 0,
            Self::Field => 1,
            Self::Arm => 2,
            Self::Head => 3,
        }
    }

    /// The kind with this wire code.
    pub fn from_code(code: u8) -> Option<Self> {
        match code {
            0 => Some(Self::Host),
            1 => Some(Self::Field),
            2 => Some(Self::Arm),
            3 => Some(Self::Head),
            _ => None,
        }
    }
}

impl core::fmt::Display for ControllerKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Self::Host => "host",
            Self::Field => "field",
            Self::Arm => "arm",
            Self::Head => "head",
        })
    }
}

/// Length of a firmware identifier.
pub const FIRMWARE_ID_LEN: usize = 16;

/// A controller's firmware name and version as 16 bytes of ASCII, padded with zeros.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FirmwareId(pub [u8; FIRMWARE_ID_LEN]);

impl FirmwareId {
    /// The identifier for `text`, cut to 16 bytes.
    pub fn new(text: &str) -> Self {
        let mut id = [0u8; FIRMWARE_ID_LEN];
        for (d, s) in id.iter_mut().zip(text.bytes()) {
            *d = s;
        }
        Self(id)
    }

    /// The text up to the first zero, with anything that is not printable ASCII shown as '?'.
    pub fn chars(&self) -> impl Iterator<Item = char> + '_ {
        self.0.iter().take_while(|&&b| b != 0).map(|&b| {
            if b.is_ascii_graphic() || b == b' ' {
                char::from(b)
            } else {
                '?'
            }
        })
    }

    /// [`FirmwareId::chars`] as a string.
    #[cfg(feature = "std")]
    pub fn text(&self) -> String {
        self.chars().collect()
    }
}

impl core::fmt::Display for FirmwareId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        use core::fmt::Write;
        self.chars().try_for_each(|c| f.write_char(c))
    }
}

impl core::fmt::Debug for FirmwareId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "FirmwareId(\"{self}\")")
    }
}

/// Why a frame was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NackReason {
    /// The type code is not one this end knows.
    UnknownType,
    /// The payload does not fit the type (length or a field value).
    BadPayload,
    /// There is no session: the controller restarted or never had a handshake.
    NoSession,
    /// A reason this version does not define, kept so newer peers can be logged.
    Other(u8),
}

impl NackReason {
    /// The wire code.
    pub fn code(self) -> u8 {
        match self {
            Self::UnknownType => 1,
            Self::BadPayload => 2,
            Self::NoSession => 3,
            Self::Other(c) => c,
        }
    }

    /// The reason for a wire code.
    pub fn from_code(code: u8) -> Self {
        match code {
            1 => Self::UnknownType,
            2 => Self::BadPayload,
            3 => Self::NoSession,
            c => Self::Other(c),
        }
    }
}

/// The host's opening of a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hello {
    /// The host's protocol version.
    pub protocol_version: u8,
    /// The controller the host expects, or [`ControllerKind::Host`] for any.
    pub expect: ControllerKind,
    /// Chosen at random for each connection attempt, echoed in `HelloAck`; a repeated `Hello`
    /// with the same nonce does not restart the session.
    pub nonce: u16,
}

/// The controller's answer to [`Hello`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HelloAck {
    /// The controller's protocol version.
    pub protocol_version: u8,
    /// What the controller is.
    pub kind: ControllerKind,
    /// The nonce of the `Hello` answered.
    pub nonce: u16,
    /// Firmware name and version.
    pub firmware: FirmwareId,
}

/// The messages of the link layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Common {
    /// 0x01: host to controller, opens a session.
    Hello(Hello),
    /// 0x02: controller to host, accepts (or, by its version and kind, declines) a session.
    HelloAck(HelloAck),
    /// 0x03: either way; answered by `Pong` with the same nonce.
    Ping {
        /// Echoed in the `Pong`.
        nonce: u32,
    },
    /// 0x04: the answer to `Ping`.
    Pong {
        /// The `Ping`'s nonce.
        nonce: u32,
    },
    /// 0x05: no payload; carries an acknowledgement in its header when there is nothing else to
    /// send.
    Ack,
    /// 0x06: a reliable frame was received intact but refused.
    Nack {
        /// The sequence number of the refused frame.
        seq: u8,
        /// Why.
        reason: NackReason,
    },
}

fn read_kind(r: &mut Reader<'_>, field: &'static str) -> Result<ControllerKind, DecodeError> {
    let code = r.u8()?;
    ControllerKind::from_code(code).ok_or_else(|| r.invalid(field, code.into()))
}

impl Message for Common {
    fn msg_type(&self) -> u8 {
        match self {
            Self::Hello(_) => HELLO,
            Self::HelloAck(_) => HELLO_ACK,
            Self::Ping { .. } => PING,
            Self::Pong { .. } => PONG,
            Self::Ack => ACK,
            Self::Nack { .. } => NACK,
        }
    }

    fn write_payload(&self, w: &mut Writer<'_>) {
        match self {
            Self::Hello(h) => {
                w.u8(h.protocol_version).u8(h.expect.code()).u16(h.nonce);
            }
            Self::HelloAck(a) => {
                w.u8(a.protocol_version)
                    .u8(a.kind.code())
                    .u16(a.nonce)
                    .bytes(&a.firmware.0);
            }
            Self::Ping { nonce } | Self::Pong { nonce } => {
                w.u32(*nonce);
            }
            Self::Ack => {}
            Self::Nack { seq, reason } => {
                w.u8(*seq).u8(reason.code());
            }
        }
    }

    fn read_payload(msg_type: u8, r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok(match msg_type {
            HELLO => Self::Hello(Hello {
                protocol_version: r.u8()?,
                expect: read_kind(r, "expect")?,
                nonce: r.u16()?,
            }),
            HELLO_ACK => Self::HelloAck(HelloAck {
                protocol_version: r.u8()?,
                kind: read_kind(r, "kind")?,
                nonce: r.u16()?,
                firmware: FirmwareId(r.array()?),
            }),
            PING => Self::Ping { nonce: r.u32()? },
            PONG => Self::Pong { nonce: r.u32()? },
            ACK => Self::Ack,
            NACK => Self::Nack {
                seq: r.u8()?,
                reason: NackReason::from_code(r.u8()?),
            },
            t => return Err(DecodeError::UnknownType(t)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn firmware_id_is_cut_and_padded() {
        let id = FirmwareId::new("field-fw 1.2.3 with a long tail");
        assert_eq!(&id.0, b"field-fw 1.2.3 w");
        assert_eq!(FirmwareId::new("arm").text(), "arm");
        assert_eq!(FirmwareId::new("arm").0[3..], [0u8; 13]);
        assert_eq!(FirmwareId([0xFF; 16]).text(), "?".repeat(16));
    }

    #[test]
    fn nack_reason_codes_round_trip() {
        for c in 0..=255u8 {
            assert_eq!(NackReason::from_code(c).code(), c);
        }
    }

    #[test]
    fn unknown_kind_is_an_error() {
        assert!(matches!(
            Common::decode(HELLO, &[1, 9, 0, 0]),
            Err(DecodeError::InvalidValue {
                field: "expect",
                value: 9,
                ..
            })
        ));
    }
}
