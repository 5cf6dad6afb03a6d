//! Masks of the engine's bit layout for the evaluations: a square at file `f`, rank `r` (0-based)
//! is bit `(f + 9 r) / 2`, a diagonal step is a shift by 4 or 5 (see `draughts::square`).

use draughts::VALID;

pub const fn square(file: u8, rank: u8) -> u64 {
    1u64 << ((file as u32 + 9 * rank as u32) / 2)
}

/// The dark squares of one rank (0-based).
pub const fn rank(r: u8) -> u64 {
    let mut m = 0;
    let mut f = r % 2;
    while f < 8 {
        m |= square(f, r);
        f += 2;
    }
    m
}

/// The dark squares of one file (0-based).
pub const fn file(f: u8) -> u64 {
    let mut m = 0;
    let mut r = f % 2;
    while r < 8 {
        m |= square(f, r);
        r += 2;
    }
    m
}

/// d4, f4, c5, e5: the squares the opening fights for.
pub const CENTRE: u64 = square(3, 3) | square(5, 3) | square(2, 4) | square(4, 4);
/// The 8 squares of files c-f on ranks 3-6.
pub const BIG_CENTRE: u64 =
    (rank(2) | rank(3) | rank(4) | rank(5)) & !(file(0) | file(1) | file(6) | file(7));
pub const EDGES: u64 = file(0) | file(7);

pub const NE: u32 = 5;
pub const NW: u32 = 4;
pub const SE: u32 = 4;
pub const SW: u32 = 5;

#[inline(always)]
pub fn north(bb: u64, by: u32) -> u64 {
    (bb << by) & VALID
}

#[inline(always)]
pub fn south(bb: u64, by: u32) -> u64 {
    (bb >> by) & VALID
}

/// Squares a king on `sq` reaches sliding over empty squares, all four ways.
#[inline]
pub fn king_reach(sq: u64, empty: u64) -> u32 {
    let mut n = 0;
    for (up, by) in [(true, NE), (true, NW), (false, SE), (false, SW)] {
        let mut t = if up { north(sq, by) } else { south(sq, by) } & empty;
        while t != 0 {
            n += 1;
            t = if up { north(t, by) } else { south(t, by) } & empty;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use draughts::Square;

    fn named(names: &[&str]) -> u64 {
        names
            .iter()
            .map(|n| n.parse::<Square>().expect("square").mask())
            .fold(0, |a, b| a | b)
    }

    #[test]
    fn masks_name_the_right_squares() {
        assert_eq!(rank(0), named(&["a1", "c1", "e1", "g1"]));
        assert_eq!(rank(7), named(&["b8", "d8", "f8", "h8"]));
        assert_eq!(file(0), named(&["a1", "a3", "a5", "a7"]));
        assert_eq!(CENTRE, named(&["d4", "f4", "c5", "e5"]));
        assert_eq!(BIG_CENTRE.count_ones(), 8);
        assert_eq!((0..8).map(rank).fold(0, |a, b| a | b), VALID);
    }

    #[test]
    fn king_reach_counts_empty_squares_on_its_diagonals() {
        let a1 = named(&["a1"]);
        assert_eq!(king_reach(a1, VALID & !a1), 7);
        let blocked = named(&["c3"]);
        assert_eq!(king_reach(a1, VALID & !a1 & !blocked), 1);
    }
}
