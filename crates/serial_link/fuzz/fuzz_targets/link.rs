//! Feeds arbitrary bytes to every layer of the serial protocol: the frame decoder, every message
//! set's decoder, and host and controller links of all three kinds, both as raw line bytes and
//! as well-formed frames with arbitrary headers and payloads (which reach the state machine past
//! the CRC). Any panic, unbounded buffer or non-canonical decode is a bug.
//! Run: `cd crates/serial_link/fuzz && cargo fuzz run link`.
#![no_main]

use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use serial_link::common::{Common, Hello, HelloAck};
use serial_link::frame::{
    decode_frame, encode_frame, FrameDecoder, MAX_ENCODED_LEN, MAX_PAYLOAD_LEN,
};
use serial_link::header::{Header, PROTOCOL_VERSION};
use serial_link::{
    ArmCommand, ArmReport, ControllerKind, FieldCommand, FieldReport, FirmwareId, HeadCommand,
    HeadReport, Link, LinkConfig, Message,
};

fn canonical<M: Message>(msg_type: u8, payload: &[u8]) {
    if let Ok(m) = M::decode(msg_type, payload) {
        assert_eq!(m.msg_type(), msg_type);
        assert_eq!(m.payload(), payload);
    }
}

fn config() -> LinkConfig {
    LinkConfig {
        nonce_seed: Some(7),
        max_queue: 4,
        ..LinkConfig::default()
    }
}

/// Turns fuzz bytes into line bytes: in raw mode as they are, in frame mode as a run of valid
/// frames whose header fields and payloads come from the input.
fn line_bytes(data: &[u8]) -> Vec<u8> {
    let Some((&mode, rest)) = data.split_first() else {
        return Vec::new();
    };
    if mode & 1 == 0 {
        return rest.to_vec();
    }
    let mut out = Vec::new();
    let mut rest = rest;
    while rest.len() >= 5 {
        let (h, tail) = rest.split_at(5);
        let len = usize::from(h[4]) % (MAX_PAYLOAD_LEN + 1);
        let len = len.min(tail.len());
        let (payload, tail) = tail.split_at(len);
        let header = Header::from_bytes([
            if h[0] & 0x80 != 0 {
                h[0]
            } else {
                PROTOCOL_VERSION
            },
            h[1],
            h[2],
            h[3],
            // Bias types toward the defined ones so the decoders are reached often.
            h[0] & 0x7F,
        ]);
        if let Ok(f) = encode_frame(&header, payload) {
            out.extend_from_slice(&f);
        }
        rest = tail;
    }
    out
}

/// Runs one link against `bytes`, after a genuine handshake so the input reaches a live session.
fn drive<Tx: Message, Rx: Message>(
    mut link: Link<Tx, Rx>,
    host: bool,
    kind: ControllerKind,
    bytes: &[u8],
    t0: Instant,
) {
    let mut now = t0;
    if host {
        link.handle_timeout(now);
        let hello = link.take_transmit();
        let nonce = hello
            .split(|&b| b == 0)
            .filter(|f| !f.is_empty())
            .filter_map(|f| decode_frame(f).ok())
            .find_map(|f| match Common::decode(f.header.msg_type, &f.payload) {
                Ok(Common::Hello(h)) => Some(h.nonce),
                _ => None,
            });
        let Some(nonce) = nonce else {
            panic!("host sent no hello")
        };
        let ack = Common::HelloAck(HelloAck {
            protocol_version: PROTOCOL_VERSION,
            kind,
            nonce,
            firmware: FirmwareId::new("fuzz"),
        });
        let h = Header {
            version: PROTOCOL_VERSION,
            reliable: false,
            seq: 0,
            ack: None,
            msg_type: ack.msg_type(),
        };
        if let Ok(f) = encode_frame(&h, &ack.payload()) {
            link.receive(&f, now);
        }
    } else {
        let hello = Common::Hello(Hello {
            protocol_version: PROTOCOL_VERSION,
            expect: kind,
            nonce: 1,
        });
        let h = Header {
            version: PROTOCOL_VERSION,
            reliable: false,
            seq: 0,
            ack: None,
            msg_type: hello.msg_type(),
        };
        if let Ok(f) = encode_frame(&h, &hello.payload()) {
            link.receive(&f, now);
        }
    }
    assert!(link.is_connected());
    for chunk in bytes.chunks(24) {
        link.receive(chunk, now);
        now += Duration::from_millis(u64::from(chunk[0] % 64));
        // Let the input make this end send too, so acknowledgement, retransmission and refusal
        // paths run against the hostile peer.
        if let [flags, t, payload @ ..] = chunk {
            let n = (usize::from(*flags >> 1) % 21).min(payload.len());
            if let Ok(m) = Tx::decode(*t, &payload[..n]) {
                let _ = if flags & 1 == 0 {
                    link.send(m, now).map(|_| ())
                } else {
                    link.send_unreliable(m, now)
                };
            }
        }
        if link.poll_timeout().is_some_and(|t| t <= now) {
            link.handle_timeout(now);
        }
        let _ = link.take_transmit();
        while link.poll_event().is_some() {}
        assert!(link.unacknowledged() <= 5);
    }
}

fuzz_target!(|data: &[u8]| {
    let mut dec = FrameDecoder::new();
    for b in data {
        if let Some(Ok(f)) = dec.push(*b) {
            let again = encode_frame(&f.header, &f.payload).expect("a decoded frame re-encodes");
            let mut d2 = FrameDecoder::new();
            assert_eq!(d2.push_slice(&again), vec![Ok(f)]);
        }
        assert!(dec.pending() <= MAX_ENCODED_LEN);
    }

    if let Some((&t, payload)) = data.split_first() {
        canonical::<Common>(t, payload);
        canonical::<FieldCommand>(t, payload);
        canonical::<FieldReport>(t, payload);
        canonical::<ArmCommand>(t, payload);
        canonical::<ArmReport>(t, payload);
        canonical::<HeadCommand>(t, payload);
        canonical::<HeadReport>(t, payload);
    }

    let bytes = line_bytes(data);
    let t0 = Instant::now();
    let c = config();
    drive(
        Link::<FieldCommand, FieldReport>::host(ControllerKind::Field, c.clone(), t0),
        true,
        ControllerKind::Field,
        &bytes,
        t0,
    );
    drive(
        Link::<FieldReport, FieldCommand>::controller(
            ControllerKind::Field,
            FirmwareId::new("f"),
            c.clone(),
            t0,
        ),
        false,
        ControllerKind::Field,
        &bytes,
        t0,
    );
    drive(
        Link::<ArmCommand, ArmReport>::host(ControllerKind::Arm, c.clone(), t0),
        true,
        ControllerKind::Arm,
        &bytes,
        t0,
    );
    drive(
        Link::<ArmReport, ArmCommand>::controller(
            ControllerKind::Arm,
            FirmwareId::new("a"),
            c.clone(),
            t0,
        ),
        false,
        ControllerKind::Arm,
        &bytes,
        t0,
    );
    drive(
        Link::<HeadCommand, HeadReport>::host(ControllerKind::Head, c.clone(), t0),
        true,
        ControllerKind::Head,
        &bytes,
        t0,
    );
    drive(
        Link::<HeadReport, HeadCommand>::controller(
            ControllerKind::Head,
            FirmwareId::new("h"),
            c,
            t0,
        ),
        false,
        ControllerKind::Head,
        &bytes,
        t0,
    );
});
