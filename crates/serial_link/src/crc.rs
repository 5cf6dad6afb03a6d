//! The frame check sequence: CRC-16/CCITT-FALSE (catalogued as CRC-16/IBM-3740).
//!
//! Parameters, for firmware authors: width 16, polynomial 0x1021, initial value 0xFFFF, input and
//! output not reflected, final XOR 0x0000; the check value of the ASCII string "123456789" is
//! 0x29B1. It is the CRC most microcontroller libraries ship under the name "CCITT", and it
//! detects every error of up to three bits in frames of the size this protocol allows.

use crc::{Crc, CRC_16_IBM_3740};

const CCITT_FALSE: Crc<u16> = Crc::<u16>::new(&CRC_16_IBM_3740);

/// The CRC-16/CCITT-FALSE of `bytes`.
pub fn crc16(bytes: &[u8]) -> u16 {
    CCITT_FALSE.checksum(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_value_matches_the_catalogue() {
        assert_eq!(crc16(b"123456789"), 0x29B1);
    }

    #[test]
    fn empty_input_gives_the_initial_value() {
        assert_eq!(crc16(&[]), 0xFFFF);
    }

    /// A bitwise reference implementation, written straight from the parameters, so the table
    /// the crate builds is checked against the definition the firmware will use.
    fn reference(bytes: &[u8]) -> u16 {
        let mut crc: u16 = 0xFFFF;
        for &b in bytes {
            crc ^= u16::from(b) << 8;
            for _ in 0..8 {
                crc = if crc & 0x8000 != 0 {
                    (crc << 1) ^ 0x1021
                } else {
                    crc << 1
                };
            }
        }
        crc
    }

    proptest::proptest! {
        #[test]
        fn table_agrees_with_bitwise_reference(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..100)) {
            proptest::prop_assert_eq!(crc16(&bytes), reference(&bytes));
        }
    }
}
