//! Little-endian field readers and writers, and the [`Message`] trait every message set
//! implements. Layouts are written out by hand, field by field, so the byte layout in
//! `docs/serial-protocol.md` is exactly what the code does.

use crate::frame::{FrameError, Payload, MAX_PAYLOAD_LEN};

/// Why a payload could not be read as a message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// No message of this set has this type code.
    #[error("unknown message type {0:#04x}")]
    UnknownType(u8),
    /// The payload ended before the message's last field.
    #[error("message type {msg_type:#04x}: payload too short")]
    Truncated {
        /// The message type code.
        msg_type: u8,
    },
    /// The payload is longer than the message.
    #[error("message type {msg_type:#04x}: {extra} bytes after the last field")]
    TrailingBytes {
        /// The message type code.
        msg_type: u8,
        /// How many bytes were left over.
        extra: usize,
    },
    /// A field holds a value the protocol does not define.
    #[error("message type {msg_type:#04x}: field {field} has invalid value {value}")]
    InvalidValue {
        /// The message type code.
        msg_type: u8,
        /// The field's name as in the protocol document.
        field: &'static str,
        /// The value found.
        value: u32,
    },
}

/// Reads fields from a payload, front to back.
#[derive(Debug)]
pub struct Reader<'a> {
    msg_type: u8,
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A reader over the payload of a message of type `msg_type` (used in errors).
    pub fn new(msg_type: u8, payload: &'a [u8]) -> Self {
        Self {
            msg_type,
            rest: payload,
        }
    }

    /// The type code of the message being read.
    pub fn msg_type(&self) -> u8 {
        self.msg_type
    }

    /// The next `N` bytes.
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let (head, tail) = self
            .rest
            .split_first_chunk::<N>()
            .ok_or(DecodeError::Truncated {
                msg_type: self.msg_type,
            })?;
        self.rest = tail;
        Ok(*head)
    }

    /// An unsigned byte.
    pub fn u8(&mut self) -> Result<u8, DecodeError> {
        Ok(self.array::<1>()?[0])
    }

    /// A little-endian u16.
    pub fn u16(&mut self) -> Result<u16, DecodeError> {
        Ok(u16::from_le_bytes(self.array()?))
    }

    /// A little-endian i16.
    pub fn i16(&mut self) -> Result<i16, DecodeError> {
        Ok(i16::from_le_bytes(self.array()?))
    }

    /// A little-endian u32.
    pub fn u32(&mut self) -> Result<u32, DecodeError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    /// A little-endian i32.
    pub fn i32(&mut self) -> Result<i32, DecodeError> {
        Ok(i32::from_le_bytes(self.array()?))
    }

    /// A boolean: exactly 0 or 1, anything else is an error so that a byte meant for something
    /// else is not silently taken as true.
    pub fn bool(&mut self, field: &'static str) -> Result<bool, DecodeError> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            v => Err(self.invalid(field, v.into())),
        }
    }

    /// An error for an out-of-range value of `field`.
    pub fn invalid(&self, field: &'static str, value: u32) -> DecodeError {
        DecodeError::InvalidValue {
            msg_type: self.msg_type,
            field,
            value,
        }
    }

    /// Ends reading: every payload byte must have been consumed.
    pub fn finish(self) -> Result<(), DecodeError> {
        if self.rest.is_empty() {
            Ok(())
        } else {
            Err(DecodeError::TrailingBytes {
                msg_type: self.msg_type,
                extra: self.rest.len(),
            })
        }
    }
}

/// Appends little-endian fields to a payload.
#[derive(Debug)]
pub struct Writer<'a> {
    out: &'a mut Payload,
    /// How long the payload would be, had it fitted.
    wanted: usize,
}

impl<'a> Writer<'a> {
    /// A writer appending to `out`.
    pub fn new(out: &'a mut Payload) -> Self {
        let wanted = out.len();
        Self { out, wanted }
    }

    /// Raw bytes. What does not fit in a frame is dropped and counted: [`Message::payload`]
    /// turns that into an error.
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.wanted += b.len();
        if self.out.extend_from_slice(b).is_err() {
            self.out.clear();
        }
        self
    }

    /// An unsigned byte.
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.bytes(&[v])
    }

    /// A little-endian u16.
    pub fn u16(&mut self, v: u16) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    /// A little-endian i16.
    pub fn i16(&mut self, v: i16) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    /// A little-endian u32.
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    /// A little-endian i32.
    pub fn i32(&mut self, v: i32) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    /// A boolean as 0 or 1.
    pub fn bool(&mut self, v: bool) -> &mut Self {
        self.u8(u8::from(v))
    }
}

/// A set of messages that travel in one direction of one controller's link.
///
/// Type codes 0x00..=0x0F belong to the link itself ([`crate::common::Common`]); a message set's
/// codes must lie outside that range.
pub trait Message: Sized + Clone + core::fmt::Debug + PartialEq {
    /// The message's type code.
    fn msg_type(&self) -> u8;

    /// Appends the message's payload.
    fn write_payload(&self, w: &mut Writer<'_>);

    /// Reads a message of type `msg_type`; the caller checks that nothing is left over.
    fn read_payload(msg_type: u8, r: &mut Reader<'_>) -> Result<Self, DecodeError>;

    /// The payload bytes, or how long they would be if they do not fit in a frame.
    fn payload(&self) -> Result<Payload, FrameError> {
        let mut out = Payload::new();
        let mut w = Writer::new(&mut out);
        self.write_payload(&mut w);
        let wanted = w.wanted;
        if wanted > MAX_PAYLOAD_LEN {
            return Err(FrameError::PayloadTooLong(wanted));
        }
        Ok(out)
    }

    /// Reads a whole payload: every byte must belong to the message.
    fn decode(msg_type: u8, payload: &[u8]) -> Result<Self, DecodeError> {
        let mut r = Reader::new(msg_type, payload);
        let m = Self::read_payload(msg_type, &mut r)?;
        r.finish()?;
        Ok(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_little_endian() {
        let mut out = Payload::new();
        Writer::new(&mut out)
            .u16(0x1234)
            .i32(-2)
            .bool(true)
            .i16(-300);
        assert_eq!(out, [0x34, 0x12, 0xFE, 0xFF, 0xFF, 0xFF, 0x01, 0xD4, 0xFE]);
        let mut r = Reader::new(0x42, &out);
        assert_eq!(r.u16(), Ok(0x1234));
        assert_eq!(r.i32(), Ok(-2));
        assert_eq!(r.bool("b"), Ok(true));
        assert_eq!(r.i16(), Ok(-300));
        assert_eq!(r.finish(), Ok(()));
    }

    #[test]
    fn short_and_long_payloads_are_errors() {
        let mut r = Reader::new(7, &[1]);
        assert_eq!(r.u16(), Err(DecodeError::Truncated { msg_type: 7 }));
        let mut r = Reader::new(7, &[1, 2]);
        assert_eq!(r.u8(), Ok(1));
        assert_eq!(
            r.finish(),
            Err(DecodeError::TrailingBytes {
                msg_type: 7,
                extra: 1
            })
        );
    }

    #[test]
    fn bool_other_than_zero_or_one_is_an_error() {
        let mut r = Reader::new(9, &[2]);
        assert_eq!(
            r.bool("on"),
            Err(DecodeError::InvalidValue {
                msg_type: 9,
                field: "on",
                value: 2
            })
        );
    }
}
