//! The five-byte header at the front of every frame.

/// The protocol version this crate speaks. Byte 0 of every header.
pub const PROTOCOL_VERSION: u8 = 1;

/// Header length in bytes.
pub const HEADER_LEN: usize = 5;

/// Flag bit: the sender wants this frame acknowledged and will retransmit it until it is.
pub const FLAG_RELIABLE: u8 = 0x01;
/// Flag bit: the ack byte is valid.
pub const FLAG_ACK: u8 = 0x02;

/// A decoded header.
///
/// Layout: `version`, `flags`, `seq`, `ack`, `msg_type`, one byte each. Reserved flag bits are
/// sent as zero and ignored on receipt, so a later version can use them without breaking this one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Protocol version of the sender.
    pub version: u8,
    /// Whether the frame must be acknowledged (then `seq` is meaningful).
    pub reliable: bool,
    /// The sequence number of this frame; only reliable frames take part in acknowledgement.
    pub seq: u8,
    /// The sequence number of the last reliable frame the sender accepted from its peer.
    pub ack: Option<u8>,
    /// The message type code, which decides how the payload is read.
    pub msg_type: u8,
}

impl Header {
    /// The header's five bytes.
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut flags = 0;
        if self.reliable {
            flags |= FLAG_RELIABLE;
        }
        if self.ack.is_some() {
            flags |= FLAG_ACK;
        }
        [
            self.version,
            flags,
            self.seq,
            self.ack.unwrap_or(0),
            self.msg_type,
        ]
    }

    /// Reads a header from its five bytes.
    pub fn from_bytes(bytes: [u8; HEADER_LEN]) -> Self {
        let [version, flags, seq, ack, msg_type] = bytes;
        Self {
            version,
            reliable: flags & FLAG_RELIABLE != 0,
            seq,
            ack: (flags & FLAG_ACK != 0).then_some(ack),
            msg_type,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn round_trip(version: u8, reliable: bool, seq: u8, ack: Option<u8>, msg_type: u8) {
            let h = Header { version, reliable, seq, ack, msg_type };
            prop_assert_eq!(Header::from_bytes(h.to_bytes()), h);
        }

        #[test]
        fn reserved_flag_bits_are_ignored(bytes: [u8; HEADER_LEN]) {
            let h = Header::from_bytes(bytes);
            let mut masked = bytes;
            masked[1] &= FLAG_RELIABLE | FLAG_ACK;
            prop_assert_eq!(Header::from_bytes(masked), h);
        }
    }

    #[test]
    fn ack_byte_is_zero_without_ack() {
        let h = Header {
            version: 1,
            reliable: true,
            seq: 7,
            ack: None,
            msg_type: 0x10,
        };
        assert_eq!(h.to_bytes(), [1, FLAG_RELIABLE, 7, 0, 0x10]);
    }
}
