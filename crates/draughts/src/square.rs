//! Squares and the bit layout of the board.
//!
//! Each dark square (file `f`, rank `r`, both 0-based, `f + r` even) lives at bit
//! `(f + 9 r) / 2` of a `u64`. This "ghost square" layout makes every diagonal step a
//! constant shift (+5 north-east, +4 north-west, -4 south-east, -5 south-west); the four
//! ghost bits 4, 13, 22 and 31 and everything above bit 35 catch the pieces that would
//! step off the board's left and right edges, so one mask keeps a shifted board legal.
//! Rotating the board by 180 degrees maps bit `b` to `35 - b`.

use std::fmt;
use std::str::FromStr;

use crate::error::ParseError;

/// All 32 playable bits.
pub const VALID: u64 = 0xF_7FBF_DFEF;

/// One of the 32 dark squares. Holds its bit index in the board layout.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at a 0-based file (a = 0) and rank (1 = 0); `None` for a light square or
    /// one off the board.
    pub const fn from_file_rank(file: u8, rank: u8) -> Option<Square> {
        if file > 7 || rank > 7 || !(file + rank).is_multiple_of(2) {
            return None;
        }
        Some(Square((file + 9 * rank) / 2))
    }

    /// The square with this bit index, if the bit is a playable one.
    pub const fn from_bit(bit: u8) -> Option<Square> {
        if bit < 64 && VALID & (1u64 << bit) != 0 {
            Some(Square(bit))
        } else {
            None
        }
    }

    /// The square of the PDN/FEN numbering (1 = b8 ... 32 = g1).
    pub const fn from_number(n: u8) -> Option<Square> {
        if n == 0 || n > 32 {
            return None;
        }
        let i = n - 1;
        let rank = 7 - i / 4;
        let col = i % 4;
        // Even ranks (0-based) start on file a, odd ranks on file b.
        let file = 2 * col + (rank % 2);
        Square::from_file_rank(file, rank)
    }

    /// The square at a bit known to be playable (move generation's inner loops).
    #[inline(always)]
    pub(crate) const fn from_bit_unchecked(bit: u8) -> Square {
        Square(bit)
    }

    pub const fn bit(self) -> u8 {
        self.0
    }

    pub const fn mask(self) -> u64 {
        1u64 << self.0
    }

    pub const fn rank(self) -> u8 {
        // bit = (f + 9r) / 2 and 0 <= f <= 7, so 2 * bit / 9 recovers r.
        (2 * self.0) / 9
    }

    pub const fn file(self) -> u8 {
        2 * self.0 - 9 * self.rank()
    }

    /// The PDN/FEN number of this square (1 = b8 ... 32 = g1).
    pub const fn number(self) -> u8 {
        (7 - self.rank()) * 4 + self.file() / 2 + 1
    }

    /// The square seen from the other side of the board (rotated 180 degrees).
    pub const fn mirror(self) -> Square {
        Square(35 - self.0)
    }

    /// Every square, in bit order (a1, c1, e1, g1, b2, ...).
    pub fn all() -> impl Iterator<Item = Square> {
        Squares(VALID)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Square {
    type Err = ParseError;

    /// Accepts algebraic (`c3`) and numeric (`22`) names.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || ParseError::Square(s.to_string());
        let t = s.trim();
        let bytes = t.as_bytes();
        if bytes.first().is_some_and(|b| b.is_ascii_digit()) {
            let n: u8 = t.parse().map_err(|_| bad())?;
            return Square::from_number(n).ok_or_else(bad);
        }
        if bytes.len() != 2 {
            return Err(bad());
        }
        let file = bytes[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = bytes[1].wrapping_sub(b'1');
        Square::from_file_rank(file, rank).ok_or_else(bad)
    }
}

/// Iterates the squares of a bitboard, lowest bit first.
#[derive(Clone, Copy, Debug)]
pub struct Squares(pub u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let b = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square(b))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_has_32_squares() {
        assert_eq!(VALID.count_ones(), 32);
        let ghosts = (1u64 << 4) | (1 << 13) | (1 << 22) | (1 << 31);
        assert_eq!(VALID | ghosts, (1u64 << 36) - 1);
        assert_eq!(Square::all().count(), 32);
    }

    #[test]
    fn numbering_matches_rules() {
        let expect = [
            (1, "b8"),
            (4, "h8"),
            (5, "a7"),
            (8, "g7"),
            (13, "a5"),
            (21, "a3"),
            (22, "c3"),
            (29, "a1"),
            (32, "g1"),
        ];
        for (n, name) in expect {
            let sq = Square::from_number(n).expect("valid number");
            assert_eq!(sq.to_string(), name);
            assert_eq!(sq.number(), n);
            assert_eq!(name.parse::<Square>().expect("parses"), sq);
        }
        for n in 1..=32 {
            let sq = Square::from_number(n).expect("valid");
            assert_eq!(sq.number(), n);
            assert_eq!(sq.to_string().parse::<Square>().expect("round trip"), sq);
        }
    }

    #[test]
    fn rejects_light_and_off_board_squares() {
        for s in ["a2", "b1", "i1", "a9", "", "33", "0", "c", "c33"] {
            assert!(s.parse::<Square>().is_err(), "{s}");
        }
    }

    #[test]
    fn mirror_rotates_the_board() {
        let a1: Square = "a1".parse().expect("a1");
        assert_eq!(a1.mirror().to_string(), "h8");
        for sq in Square::all() {
            assert_eq!(sq.mirror().file(), 7 - sq.file());
            assert_eq!(sq.mirror().rank(), 7 - sq.rank());
        }
    }
}
