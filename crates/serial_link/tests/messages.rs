//! Every message of every set survives encode and decode; no payload makes decoding panic.

use proptest::prelude::*;
use serial_link::arm::{Alarm, AlarmCode, ArmState, ArmStatus, MoveJoints, NO_JOINT};
use serial_link::common::{Common, ControllerKind, FirmwareId, Hello, HelloAck, NackReason};
use serial_link::field::{Button, Snapshot};
use serial_link::frame::MAX_PAYLOAD_LEN;
use serial_link::head::{EyeBitmap, HeadStatus};
use serial_link::{
    ArmCommand, ArmReport, CentiDeg, DecodeError, FieldCommand, FieldReport, HeadCommand,
    HeadReport, Message, ServoAngle,
};

fn kind() -> impl Strategy<Value = ControllerKind> {
    prop_oneof![
        Just(ControllerKind::Host),
        Just(ControllerKind::Field),
        Just(ControllerKind::Arm),
        Just(ControllerKind::Head),
    ]
}

fn common() -> impl Strategy<Value = Common> {
    prop_oneof![
        (any::<u8>(), kind(), any::<u16>()).prop_map(|(v, k, n)| Common::Hello(Hello {
            protocol_version: v,
            expect: k,
            nonce: n
        })),
        (any::<u8>(), kind(), any::<u16>(), any::<[u8; 16]>()).prop_map(|(v, k, n, f)| {
            Common::HelloAck(HelloAck {
                protocol_version: v,
                kind: k,
                nonce: n,
                firmware: FirmwareId(f),
            })
        }),
        any::<u32>().prop_map(|nonce| Common::Ping { nonce }),
        any::<u32>().prop_map(|nonce| Common::Pong { nonce }),
        Just(Common::Ack),
        (any::<u8>(), any::<u8>()).prop_map(|(seq, r)| Common::Nack {
            seq,
            reason: NackReason::from_code(r)
        }),
    ]
}

fn button() -> impl Strategy<Value = Button> {
    prop_oneof![Just(Button::Confirm), Just(Button::NewGame)]
}

fn field_report() -> impl Strategy<Value = FieldReport> {
    prop_oneof![
        (
            any::<u16>(),
            any::<u32>(),
            0u8..4,
            any::<u16>(),
            any::<u16>()
        )
            .prop_map(
                |(scan, presence, buttons_held, confirm_presses, new_game_presses)| {
                    FieldReport::Snapshot(Snapshot {
                        scan,
                        presence,
                        buttons_held,
                        confirm_presses,
                        new_game_presses,
                    })
                }
            ),
        (button(), any::<u16>())
            .prop_map(|(button, presses)| FieldReport::ButtonPressed { button, presses }),
    ]
}

fn joints() -> impl Strategy<Value = [CentiDeg; 3]> {
    any::<[i32; 3]>().prop_map(|j| j.map(CentiDeg))
}

fn arm_command() -> impl Strategy<Value = ArmCommand> {
    prop_oneof![
        (any::<u16>(), joints(), any::<u32>()).prop_map(|(move_id, target, speed)| {
            ArmCommand::MoveJoints(MoveJoints {
                move_id,
                target,
                speed,
            })
        }),
        any::<bool>().prop_map(|on| ArmCommand::SetPump { on }),
        Just(ArmCommand::Home),
        Just(ArmCommand::Stop),
        Just(ArmCommand::ClearAlarm),
        Just(ArmCommand::StatusRequest),
        any::<u16>().prop_map(|period_ms| ArmCommand::SetReportPeriod { period_ms }),
    ]
}

fn arm_state() -> impl Strategy<Value = ArmState> {
    prop_oneof![
        Just(ArmState::Idle),
        Just(ArmState::Moving),
        Just(ArmState::Homing),
        Just(ArmState::Alarm),
    ]
}

fn arm_report() -> impl Strategy<Value = ArmReport> {
    prop_oneof![
        joints().prop_map(|joints| ArmReport::Position { joints }),
        (
            arm_state(),
            any::<bool>(),
            any::<bool>(),
            any::<u16>(),
            joints()
        )
            .prop_map(
                |(state, homed, pump_on, move_id, joints)| ArmReport::Status(ArmStatus {
                    state,
                    homed,
                    pump_on,
                    move_id,
                    joints,
                })
            ),
        (
            any::<u8>(),
            prop_oneof![0u8..3, Just(NO_JOINT)],
            any::<i32>()
        )
            .prop_map(|(code, joint, detail)| ArmReport::Alarm(Alarm {
                code: AlarmCode::from_code(code),
                joint,
                detail,
            })),
    ]
}

fn servo() -> impl Strategy<Value = ServoAngle> {
    any::<i16>().prop_map(ServoAngle)
}

fn head_command() -> impl Strategy<Value = HeadCommand> {
    prop_oneof![
        (any::<[u8; 8]>(), any::<[u8; 8]>()).prop_map(|(l, r)| HeadCommand::SetEyes {
            left: EyeBitmap(l),
            right: EyeBitmap(r)
        }),
        (servo(), servo()).prop_map(|(left, right)| HeadCommand::SetBrows { left, right }),
        (servo(), servo(), any::<u16>()).prop_map(|(pan, tilt, speed)| HeadCommand::SetNeck {
            pan,
            tilt,
            speed
        }),
        (0u8..=15).prop_map(|level| HeadCommand::SetBrightness { level }),
        Just(HeadCommand::StatusRequest),
    ]
}

fn head_report() -> impl Strategy<Value = HeadReport> {
    (servo(), servo(), servo(), servo(), any::<bool>()).prop_map(
        |(pan, tilt, brow_left, brow_right, moving)| {
            HeadReport::Status(HeadStatus {
                pan,
                tilt,
                brow_left,
                brow_right,
                moving,
            })
        },
    )
}

fn round_trip<M: Message>(m: &M) -> Result<(), TestCaseError> {
    let payload = m
        .payload()
        .map_err(|e| TestCaseError::fail(e.to_string()))?
        .to_vec();
    prop_assert!(payload.len() <= MAX_PAYLOAD_LEN);
    prop_assert_eq!(&M::decode(m.msg_type(), &payload), &Ok(m.clone()));
    // One byte short or one too many is an error, never a different message.
    if let Some((_, short)) = payload.split_last() {
        prop_assert!(M::decode(m.msg_type(), short).is_err());
    }
    let mut long = payload.clone();
    long.push(0);
    prop_assert!(M::decode(m.msg_type(), &long).is_err());
    Ok(())
}

/// Decoding arbitrary bytes either fails or yields a message that encodes back to those bytes:
/// there is one encoding per message, so nothing is silently reinterpreted.
fn decode_is_canonical<M: Message>(msg_type: u8, payload: &[u8]) -> Result<(), TestCaseError> {
    if let Ok(m) = M::decode(msg_type, payload) {
        prop_assert_eq!(m.msg_type(), msg_type);
        prop_assert_eq!(m.payload().map(|p| p.to_vec()), Ok(payload.to_vec()));
    }
    Ok(())
}

proptest! {
    #[test]
    fn common_round_trip(m in common()) { round_trip(&m)?; }
    #[test]
    fn field_report_round_trip(m in field_report()) { round_trip(&m)?; }
    #[test]
    fn arm_command_round_trip(m in arm_command()) { round_trip(&m)?; }
    #[test]
    fn arm_report_round_trip(m in arm_report()) { round_trip(&m)?; }
    #[test]
    fn head_command_round_trip(m in head_command()) { round_trip(&m)?; }
    #[test]
    fn head_report_round_trip(m in head_report()) { round_trip(&m)?; }

    #[test]
    fn garbage_payloads_decode_canonically_or_fail(msg_type: u8, payload in proptest::collection::vec(any::<u8>(), 0..=MAX_PAYLOAD_LEN)) {
        decode_is_canonical::<Common>(msg_type, &payload)?;
        decode_is_canonical::<FieldCommand>(msg_type, &payload)?;
        decode_is_canonical::<FieldReport>(msg_type, &payload)?;
        decode_is_canonical::<ArmCommand>(msg_type, &payload)?;
        decode_is_canonical::<ArmReport>(msg_type, &payload)?;
        decode_is_canonical::<HeadCommand>(msg_type, &payload)?;
        decode_is_canonical::<HeadReport>(msg_type, &payload)?;
    }
}

#[test]
fn field_command_round_trip() {
    let m = FieldCommand::SnapshotRequest;
    assert_eq!(m.payload().map(|p| p.to_vec()), Ok(Vec::new()));
    assert_eq!(FieldCommand::decode(m.msg_type(), &[]), Ok(m));
}

/// The type code of every message, read from the protocol's table: codes must never change, and
/// none may fall in the link's reserved range or collide within a direction of a link.
#[test]
fn type_codes_are_fixed_and_distinct() {
    let cmd = |m: ArmCommand| m.msg_type();
    assert_eq!(FieldCommand::SnapshotRequest.msg_type(), 0x10);
    let snap = FieldReport::Snapshot(Snapshot {
        scan: 0,
        presence: 0,
        buttons_held: 0,
        confirm_presses: 0,
        new_game_presses: 0,
    });
    assert_eq!(snap.msg_type(), 0x18);
    assert_eq!(
        FieldReport::ButtonPressed {
            button: Button::Confirm,
            presses: 0
        }
        .msg_type(),
        0x19
    );
    let arm_codes = [
        cmd(ArmCommand::MoveJoints(MoveJoints {
            move_id: 0,
            target: [CentiDeg(0); 3],
            speed: 0,
        })),
        cmd(ArmCommand::SetPump { on: true }),
        cmd(ArmCommand::Home),
        cmd(ArmCommand::Stop),
        cmd(ArmCommand::ClearAlarm),
        cmd(ArmCommand::StatusRequest),
        cmd(ArmCommand::SetReportPeriod { period_ms: 0 }),
    ];
    assert_eq!(arm_codes, [0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36]);
    let head_codes = [
        HeadCommand::SetEyes {
            left: EyeBitmap::default(),
            right: EyeBitmap::default(),
        }
        .msg_type(),
        HeadCommand::SetBrows {
            left: ServoAngle(0),
            right: ServoAngle(0),
        }
        .msg_type(),
        HeadCommand::SetNeck {
            pan: ServoAngle(0),
            tilt: ServoAngle(0),
            speed: 0,
        }
        .msg_type(),
        HeadCommand::SetBrightness { level: 0 }.msg_type(),
        HeadCommand::StatusRequest.msg_type(),
    ];
    assert_eq!(head_codes, [0x50, 0x51, 0x52, 0x53, 0x54]);
}

#[test]
fn unknown_types_are_errors_in_every_set() {
    assert_eq!(
        ArmCommand::decode(0x18, &[]),
        Err(DecodeError::UnknownType(0x18))
    );
    assert_eq!(
        FieldReport::decode(0x30, &[]),
        Err(DecodeError::UnknownType(0x30))
    );
    assert_eq!(
        HeadReport::decode(0x00, &[]),
        Err(DecodeError::UnknownType(0x00))
    );
}

#[test]
fn out_of_range_fields_are_errors() {
    // Bit 2 of buttons_held is not a button.
    let mut snap = vec![0u8; 11];
    snap[6] = 0b100;
    assert!(matches!(
        FieldReport::decode(0x18, &snap),
        Err(DecodeError::InvalidValue {
            field: "buttons_held",
            ..
        })
    ));
    assert!(matches!(
        HeadCommand::decode(0x53, &[16]),
        Err(DecodeError::InvalidValue { field: "level", .. })
    ));
    assert!(matches!(
        ArmReport::decode(0x3A, &[1, 3, 0, 0, 0, 0]),
        Err(DecodeError::InvalidValue { field: "joint", .. })
    ));
    let mut status = vec![0u8; 17];
    status[0] = 4;
    assert!(matches!(
        ArmReport::decode(0x39, &status),
        Err(DecodeError::InvalidValue { field: "state", .. })
    ));
}
