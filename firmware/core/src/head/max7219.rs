//! The MAX7219 LED matrix drivers of the eyes, as the 16-bit words to shift into a daisy chain.
//!
//! Each word is a register address (high byte) and its value (low byte). In a chain of `N`
//! devices, one transaction (chip select low, `N` words, chip select high) writes one word to
//! every device: the first word shifted out travels farthest, so a transaction lists the words
//! for the device farthest from the microcontroller first. Words are sent most significant bit
//! first, as the MAX7219 expects.
//!
//! A pure encoder rather than the `max7219` crate: that one writes one device per transaction
//! (padding the others with no-ops), which costs twice the transactions for two eyes, and the
//! words themselves are what the tests check.

use embedded_hal::spi::SpiDevice;

/// Register addresses.
pub mod reg {
    /// No operation (pads a transaction for devices that are not addressed).
    pub const NO_OP: u8 = 0x00;
    /// Digit 0; digits 1..7 follow at 0x02..0x08. On an 8x8 matrix module a digit is a row.
    pub const DIGIT_0: u8 = 0x01;
    /// BCD decode per digit: 0 for raw segments.
    pub const DECODE_MODE: u8 = 0x09;
    /// Brightness 0..15.
    pub const INTENSITY: u8 = 0x0A;
    /// How many digits are scanned, minus one: 7 for all eight rows.
    pub const SCAN_LIMIT: u8 = 0x0B;
    /// 0 shuts the display down, 1 is normal operation.
    pub const SHUTDOWN: u8 = 0x0C;
    /// 1 lights every LED; 0 for normal operation.
    pub const DISPLAY_TEST: u8 = 0x0F;
}

/// The highest intensity level.
pub const MAX_INTENSITY: u8 = 15;

/// One register write.
pub const fn word(register: u8, value: u8) -> u16 {
    ((register as u16) << 8) | value as u16
}

/// How a matrix module is mounted relative to the protocol's bitmap (row 0 at the top, bit 7
/// the leftmost LED seen from the front). Applied in this order: transpose, mirror, flip.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Orientation {
    /// The module's digits drive columns, not rows.
    pub transpose: bool,
    /// Left and right swapped (bit 0 is the leftmost LED).
    pub mirror: bool,
    /// Upside down rows (digit 0 is the bottom row).
    pub flip: bool,
}

impl Orientation {
    /// The bytes to write to digits 0..7 for `bitmap`.
    pub fn apply(&self, bitmap: [u8; 8]) -> [u8; 8] {
        let mut rows = bitmap;
        if self.transpose {
            rows = core::array::from_fn(|r| {
                (0..8).fold(0u8, |acc, c| {
                    let lit = bitmap[c] & (0x80 >> r) != 0;
                    acc | (u8::from(lit) << (7 - c))
                })
            });
        }
        if self.mirror {
            rows = rows.map(u8::reverse_bits);
        }
        if self.flip {
            rows.reverse();
        }
        rows
    }
}

/// One transaction for a chain of `N`: the farthest device's word first.
pub type Transaction<const N: usize> = [u16; N];

/// The same word to every device of the chain.
pub fn to_all<const N: usize>(register: u8, value: u8) -> Transaction<N> {
    [word(register, value); N]
}

/// The setup, in the order that never shows garbage: test off, raw segments, all rows, the
/// brightness, and only then normal operation. Safe to repeat at any time.
pub fn init<const N: usize>(intensity: u8) -> [Transaction<N>; 5] {
    [
        to_all(reg::DISPLAY_TEST, 0),
        to_all(reg::DECODE_MODE, 0),
        to_all(reg::SCAN_LIMIT, 7),
        to_all(reg::INTENSITY, intensity.min(MAX_INTENSITY)),
        to_all(reg::SHUTDOWN, 1),
    ]
}

/// The brightness of every device.
pub fn intensity<const N: usize>(level: u8) -> Transaction<N> {
    to_all(reg::INTENSITY, level.min(MAX_INTENSITY))
}

/// All eight rows: `digits[i]` are the digit bytes for device `i` counted from the
/// microcontroller (already oriented).
pub fn frame<const N: usize>(digits: &[[u8; 8]; N]) -> [Transaction<N>; 8] {
    core::array::from_fn(|row| {
        core::array::from_fn(|slot| {
            let device = N - 1 - slot;
            word(reg::DIGIT_0 + row as u8, digits[device][row])
        })
    })
}

/// Shifts the transactions out, one chip-select frame each (the rising edge latches).
pub fn write<S: SpiDevice, const N: usize>(
    spi: &mut S,
    transactions: &[Transaction<N>],
) -> Result<(), S::Error> {
    // A fixed buffer, no heap: 8 devices is the longest chain this is meant for.
    const { assert!(N <= 8, "at most 8 MAX7219s in a chain") };
    for t in transactions {
        let mut bytes = [0u8; 16];
        for (pair, w) in bytes.chunks_exact_mut(2).zip(t) {
            pair.copy_from_slice(&w.to_be_bytes());
        }
        spi.write(&bytes[..2 * N])?;
    }
    Ok(())
}
