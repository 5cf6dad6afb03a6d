//! Framing: `COBS(header | payload | crc16 little-endian)` followed by a single 0x00.
//!
//! COBS removes every zero byte from the frame, so 0x00 only ever marks a frame's end and a
//! receiver that joins mid-stream, or loses bytes to noise, resynchronises at the next zero.
//! Every buffer here is bounded by [`MAX_ENCODED_LEN`], so no input makes the decoder allocate
//! without bound.

use crate::crc::crc16;
use crate::header::{Header, HEADER_LEN};

/// A payload, in a buffer of the largest size a frame allows.
pub type Payload = heapless::Vec<u8, MAX_PAYLOAD_LEN>;
/// One encoded frame with its delimiter, as it goes on the line.
pub type EncodedFrame = heapless::Vec<u8, { MAX_ENCODED_LEN + 1 }>;

/// The most payload bytes a frame can carry.
pub const MAX_PAYLOAD_LEN: usize = 64;
/// Length of the CRC trailer.
pub const CRC_LEN: usize = 2;
/// The longest frame before COBS encoding: header, payload and CRC.
pub const MAX_RAW_LEN: usize = HEADER_LEN + MAX_PAYLOAD_LEN + CRC_LEN;
/// The shortest frame before COBS encoding: a header and a CRC with no payload.
pub const MIN_RAW_LEN: usize = HEADER_LEN + CRC_LEN;
/// The longest COBS-encoded frame, not counting the 0x00 delimiter. A receiver needs a buffer of
/// this size; anything longer between two delimiters is not a frame.
pub const MAX_ENCODED_LEN: usize = cobs::max_encoding_length(MAX_RAW_LEN);
/// The frame delimiter.
pub const DELIMITER: u8 = 0x00;

/// A frame that passed COBS and CRC checks: its header and payload, not yet interpreted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawFrame {
    /// The header.
    pub header: Header,
    /// The payload.
    pub payload: Payload,
}

/// Why a frame was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    /// A payload too long to send.
    #[error("payload of {0} bytes exceeds the maximum of {MAX_PAYLOAD_LEN}")]
    PayloadTooLong(usize),
    /// More than [`MAX_ENCODED_LEN`] bytes arrived without a delimiter; they were discarded.
    #[error("more than {MAX_ENCODED_LEN} bytes without a delimiter")]
    Overlong,
    /// The bytes between two delimiters are not valid COBS.
    #[error("invalid COBS encoding")]
    Cobs,
    /// The decoded frame is shorter than a header and a CRC.
    #[error("frame of {0} bytes is shorter than the minimum of {MIN_RAW_LEN}")]
    TooShort(usize),
    /// The CRC does not match: the frame was corrupted on the line.
    #[error("CRC mismatch: computed {computed:#06x}, received {received:#06x}")]
    Crc {
        /// The CRC of the received header and payload.
        computed: u16,
        /// The CRC the frame carried.
        received: u16,
    },
}

/// Encodes one frame, delimiter included, ready to be written to the line.
pub fn encode_frame(header: &Header, payload: &[u8]) -> Result<EncodedFrame, FrameError> {
    if payload.len() > MAX_PAYLOAD_LEN {
        return Err(FrameError::PayloadTooLong(payload.len()));
    }
    let mut raw = [0u8; MAX_RAW_LEN];
    let body = HEADER_LEN + payload.len();
    raw[..HEADER_LEN].copy_from_slice(&header.to_bytes());
    raw[HEADER_LEN..body].copy_from_slice(payload);
    let crc = crc16(&raw[..body]);
    raw[body..body + CRC_LEN].copy_from_slice(&crc.to_le_bytes());
    let mut out = [0u8; MAX_ENCODED_LEN + 1];
    // The buffers are sized by the crate's own bound, so these cannot fail; the error paths are
    // kept rather than trusting that with a panic.
    let n = cobs::try_encode(&raw[..body + CRC_LEN], &mut out).map_err(|_| FrameError::Cobs)?;
    out[n] = DELIMITER;
    EncodedFrame::from_slice(&out[..=n]).map_err(|_| FrameError::Cobs)
}

/// Decodes the bytes between two delimiters (the delimiter itself excluded).
pub fn decode_frame(encoded: &[u8]) -> Result<RawFrame, FrameError> {
    if encoded.len() > MAX_ENCODED_LEN {
        return Err(FrameError::Overlong);
    }
    let mut raw = [0u8; MAX_RAW_LEN];
    let report = cobs::decode(encoded, &mut raw).map_err(|_| FrameError::Cobs)?;
    // The decoder accepts a frame that stops early; all of the input must belong to it.
    if report.parsed_size() < encoded.len() {
        return Err(FrameError::Cobs);
    }
    let len = report.frame_size();
    let raw = raw.get(..len).ok_or(FrameError::Cobs)?;
    if len < MIN_RAW_LEN {
        return Err(FrameError::TooShort(len));
    }
    let (body, crc_bytes) = raw.split_at(len - CRC_LEN);
    let received = u16::from_le_bytes([crc_bytes[0], crc_bytes[1]]);
    let computed = crc16(body);
    if computed != received {
        return Err(FrameError::Crc { computed, received });
    }
    let (head, payload) = body.split_at(HEADER_LEN);
    let mut h = [0u8; HEADER_LEN];
    h.copy_from_slice(head);
    Ok(RawFrame {
        header: Header::from_bytes(h),
        payload: Payload::from_slice(payload)
            .map_err(|_| FrameError::PayloadTooLong(payload.len()))?,
    })
}

/// Splits a byte stream into frames.
///
/// Feed it whatever the line delivers, in pieces of any size. Empty frames (two delimiters in a
/// row) are skipped silently: senders put a delimiter in front of a frame to end any garbage a
/// receiver may have collected.
#[derive(Debug)]
pub struct FrameDecoder {
    buf: heapless::Vec<u8, MAX_ENCODED_LEN>,
    discarding: bool,
}

impl Default for FrameDecoder {
    fn default() -> Self {
        Self::new()
    }
}

impl FrameDecoder {
    /// A decoder waiting for the first delimiter-terminated frame.
    pub fn new() -> Self {
        Self {
            buf: heapless::Vec::new(),
            discarding: false,
        }
    }

    /// Takes one byte; returns a result when the byte ends a frame.
    pub fn push(&mut self, byte: u8) -> Option<Result<RawFrame, FrameError>> {
        if byte == DELIMITER {
            if self.discarding {
                self.discarding = false;
                return Some(Err(FrameError::Overlong));
            }
            if self.buf.is_empty() {
                return None;
            }
            let result = decode_frame(&self.buf);
            self.buf.clear();
            return Some(result);
        }
        if self.discarding {
            return None;
        }
        if self.buf.push(byte).is_err() {
            self.buf.clear();
            self.discarding = true;
        }
        None
    }

    /// Takes a run of bytes; returns every frame (or error) they complete, in order.
    #[cfg(feature = "std")]
    pub fn push_slice(&mut self, bytes: &[u8]) -> Vec<Result<RawFrame, FrameError>> {
        bytes.iter().filter_map(|&b| self.push(b)).collect()
    }

    /// Bytes held for a frame not yet ended by a delimiter.
    pub fn pending(&self) -> usize {
        self.buf.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::header::PROTOCOL_VERSION;
    use proptest::prelude::*;

    fn header() -> impl Strategy<Value = Header> {
        (any::<bool>(), any::<u8>(), any::<Option<u8>>(), any::<u8>()).prop_map(
            |(reliable, seq, ack, msg_type)| Header {
                version: PROTOCOL_VERSION,
                reliable,
                seq,
                ack,
                msg_type,
            },
        )
    }

    /// A frame as it is before COBS: header, payload, CRC.
    fn raw_frame(h: &Header, p: &[u8]) -> Vec<u8> {
        let mut raw = h.to_bytes().to_vec();
        raw.extend_from_slice(p);
        let crc = crc16(&raw);
        raw.extend_from_slice(&crc.to_le_bytes());
        raw
    }

    fn payload() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(any::<u8>(), 0..=MAX_PAYLOAD_LEN)
    }

    proptest! {
        #[test]
        fn round_trip(h in header(), p in payload()) {
            let bytes = encode_frame(&h, &p).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(bytes.iter().filter(|&&b| b == 0).count(), 1);
            prop_assert_eq!(bytes.last(), Some(&DELIMITER));
            prop_assert!(bytes.len() <= MAX_ENCODED_LEN + 1);
            let mut dec = FrameDecoder::new();
            let frames = dec.push_slice(&bytes);
            let payload = Payload::from_slice(&p).map_err(|_| TestCaseError::fail("payload too long"))?;
            prop_assert_eq!(frames, vec![Ok(RawFrame { header: h, payload })]);
        }

        #[test]
        fn crc_rejects_any_single_byte_error(h in header(), p in payload(), pos: prop::sample::Index, flip in 1u8..=255) {
            let mut raw = raw_frame(&h, &p);
            let i = pos.index(raw.len());
            raw[i] ^= flip;
            let rejected = matches!(decode_frame(&cobs::encode_vec(&raw)), Err(FrameError::Crc { .. }));
            prop_assert!(rejected);
        }

        #[test]
        fn crc_rejects_any_two_bit_error(h in header(), p in payload(), a: prop::sample::Index, b: prop::sample::Index) {
            let mut raw = raw_frame(&h, &p);
            let bits = raw.len() * 8;
            let (a, b) = (a.index(bits), b.index(bits));
            prop_assume!(a != b);
            raw[a / 8] ^= 1 << (a % 8);
            raw[b / 8] ^= 1 << (b % 8);
            let rejected = matches!(decode_frame(&cobs::encode_vec(&raw)), Err(FrameError::Crc { .. }));
            prop_assert!(rejected);
        }

        #[test]
        fn corrupted_line_bytes_never_panic(h in header(), p in payload(), pos: prop::sample::Index, flip in 1u8..=255) {
            let mut bytes = encode_frame(&h, &p).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let i = pos.index(bytes.len() - 1);
            bytes[i] ^= flip;
            let mut dec = FrameDecoder::new();
            let _ = dec.push_slice(&bytes);
        }

        #[test]
        fn garbage_never_panics_and_memory_stays_bounded(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
            let mut dec = FrameDecoder::new();
            for &b in &bytes {
                let _ = dec.push(b);
                prop_assert!(dec.pending() <= MAX_ENCODED_LEN);
            }
        }

        #[test]
        fn decoder_resynchronises_after_garbage(garbage in proptest::collection::vec(any::<u8>(), 0..300), h in header(), p in payload()) {
            let frame = encode_frame(&h, &p).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let mut dec = FrameDecoder::new();
            let _ = dec.push_slice(&garbage);
            // A leading delimiter ends whatever the garbage left half-done.
            let _ = dec.push(DELIMITER);
            let frames = dec.push_slice(&frame);
            let payload = Payload::from_slice(&p).map_err(|_| TestCaseError::fail("payload too long"))?;
            prop_assert_eq!(frames, vec![Ok(RawFrame { header: h, payload })]);
        }
    }

    #[test]
    fn too_long_payload_is_refused() {
        let h = Header {
            version: 1,
            reliable: false,
            seq: 0,
            ack: None,
            msg_type: 1,
        };
        assert_eq!(
            encode_frame(&h, &[0; MAX_PAYLOAD_LEN + 1]),
            Err(FrameError::PayloadTooLong(MAX_PAYLOAD_LEN + 1))
        );
    }

    #[test]
    fn overlong_run_is_reported_once_and_then_decoding_resumes() {
        let mut dec = FrameDecoder::new();
        let noise = vec![0x55; 1000];
        assert!(dec.push_slice(&noise).is_empty());
        assert_eq!(dec.push(DELIMITER), Some(Err(FrameError::Overlong)));
        let h = Header {
            version: 1,
            reliable: true,
            seq: 3,
            ack: Some(9),
            msg_type: 0x30,
        };
        let frame = encode_frame(&h, &[1, 2, 3]).expect("small frame encodes");
        let got = dec.push_slice(&frame);
        assert_eq!(
            got,
            vec![Ok(RawFrame {
                header: h,
                payload: Payload::from_slice(&[1, 2, 3]).expect("fits")
            })]
        );
    }

    #[test]
    fn short_frame_is_rejected() {
        // COBS of [1, 2]: code 3 then the bytes.
        assert_eq!(decode_frame(&[3, 1, 2]), Err(FrameError::TooShort(2)));
    }

    #[test]
    fn max_encoded_len_is_what_the_doc_says() {
        assert_eq!(MAX_RAW_LEN, 71);
        assert_eq!(MAX_ENCODED_LEN, 72);
    }
}
