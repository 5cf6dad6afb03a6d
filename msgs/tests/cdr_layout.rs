//! Byte-level checks against hand-computed CDR (little endian, alignment counted from the
//! start of the payload): they prove field order, padding, and the forms of strings,
//! sequences and fixed arrays.

mod common;

use checkers_msgs::builtin_interfaces::msg::Time;
use checkers_msgs::msg::{BoardOccupancy, FaceExpression};
use checkers_msgs::std_msgs::msg::{Empty, Header, String as StringMsg};
use common::{from_cdr, to_cdr};

#[test]
fn board_occupancy_bytes() {
    let reading = BoardOccupancy {
        header: Header {
            stamp: Time {
                sec: 0x0102_0304,
                nanosec: 5,
            },
            frame_id: "ab".to_string(),
        },
        occupied: 0x8000_0001,
        seq: 0x0102_0304_0506_0708,
        confirmed: true,
    };
    #[rustfmt::skip]
    let expected: [u8; 33] = [
        0x04, 0x03, 0x02, 0x01,             // header.stamp.sec (int32)
        0x05, 0x00, 0x00, 0x00,             // header.stamp.nanosec (uint32)
        0x03, 0x00, 0x00, 0x00,             // header.frame_id: length with the NUL
        b'a', b'b', 0x00,                   //   "ab" and NUL: offset 15
        0x00,                               // padding to 4 for the uint32
        0x01, 0x00, 0x00, 0x80,             // occupied (uint32) at 16
        0x00, 0x00, 0x00, 0x00,             // padding to 8 for the uint64
        0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, // seq (uint64) at 24
        0x01,                               // confirmed (bool) at 32
    ];
    assert_eq!(to_cdr(&reading), expected);
    assert_eq!(from_cdr::<BoardOccupancy>(&expected), reading);
}

#[test]
fn std_string_bytes() {
    let msg = StringMsg {
        data: "hi".to_string(),
    };
    assert_eq!(to_cdr(&msg), [0x03, 0x00, 0x00, 0x00, b'h', b'i', 0x00]);
}

#[test]
fn empty_message_is_one_octet_as_in_rosidl() {
    assert_eq!(to_cdr(&Empty::default()), [0x00]);
    assert_eq!(from_cdr::<Empty>(&[0x00]), Empty::default());
}

#[test]
fn fixed_arrays_have_no_length_prefix() {
    let mut face = FaceExpression::default();
    face.left_eye[0] = 0xAA;
    face.left_eye[63] = 0xBB;
    face.right_eye[0] = 0xCC;
    let bytes = to_cdr(&face);
    // header: sec 0..4, nanosec 4..8, frame_id length 8..12 and NUL 12; emotion 13;
    // intensity (float32) 16..20 after padding; the eyes follow with no length.
    assert_eq!(bytes[12..14], [0x00, 0x00]);
    assert_eq!(bytes[20], 0xAA);
    assert_eq!(bytes[83], 0xBB);
    assert_eq!(bytes[84], 0xCC);
    // right_eye ends at 148; four float32 to 164; gaze 164; phrase length at 168, NUL at 172.
    assert_eq!(bytes[168..], [0x01, 0x00, 0x00, 0x00, 0x00]);
    assert_eq!(bytes.len(), 173);
}
