//! CDR helpers shared by the test files: little-endian plain CDR through `cdr-encoding`, as
//! ros2-client (RustDDS) puts a sample on the wire after the 4-byte encapsulation header.

#![allow(dead_code)]

use byteorder::LittleEndian;
use serde::de::DeserializeOwned;
use serde::Serialize;

pub fn to_cdr<T: Serialize>(value: &T) -> Vec<u8> {
    cdr_encoding::to_vec::<T, LittleEndian>(value).expect("serializes to CDR")
}

/// Decodes `bytes`, requiring that the whole buffer is consumed.
pub fn from_cdr<T: DeserializeOwned>(bytes: &[u8]) -> T {
    let (value, used) =
        cdr_encoding::from_bytes::<T, LittleEndian>(bytes).expect("deserializes from CDR");
    assert_eq!(used, bytes.len(), "trailing bytes after the sample");
    value
}

pub fn round_trip<T: Serialize + DeserializeOwned>(value: &T) -> T {
    from_cdr(&to_cdr(value))
}
