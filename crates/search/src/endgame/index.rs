//! Where a position lives in its table. Each group of like pieces (white men, white kings,
//! black men, black kings) is ranked as a combination of the squares it may stand on (men
//! never on their crowning row), and the four ranks make one mixed-radix index. Placements
//! where two groups share a square waste a slot; that costs a third more memory than a perfect
//! index but keeps ranking a handful of table lookups.

use draughts::VALID;
use draughts::{Color, Position};
use draughts::{RANK_1, RANK_8};

/// Counts of white men, white kings, black men and black kings, with White to move.
pub(super) type Sig = [u8; 4];

/// No group holds more than this many pieces, so a signature is a number in base `GROUP + 1`.
pub(super) const GROUP: usize = 5;
const BASE: usize = GROUP + 1;
/// How many signature slots there are.
pub(super) const SLOTS: usize = BASE * BASE * BASE * BASE;

/// The table slot of a signature; `None` if a group is too large for any table.
pub(super) fn slot(sig: Sig) -> Option<usize> {
    sig.iter()
        .all(|&c| usize::from(c) <= GROUP)
        .then(|| sig.iter().fold(0, |a, &c| a * BASE + usize::from(c)))
}

pub(super) fn sig_of_slot(s: usize) -> Sig {
    [
        s / (BASE * BASE * BASE),
        s / (BASE * BASE) % BASE,
        s / BASE % BASE,
        s % BASE,
    ]
    .map(|c| c as u8)
}

/// The signature and piece groups of a position with White to move.
pub(super) fn groups_of(pos: &Position) -> (Sig, [u64; 4]) {
    let groups = [
        pos.men(Color::White),
        pos.kings(Color::White),
        pos.men(Color::Black),
        pos.kings(Color::Black),
    ];
    (groups.map(|g| g.count_ones() as u8), groups)
}

pub(super) struct Indexer {
    /// Per group: the rank of each board bit among the squares the group may use (`NONE` if
    /// it may not stand there), and back.
    dense_of_bit: [[u8; 64]; 4],
    bit_of_dense: [[u64; 32]; 4],
    squares: [usize; 4],
    /// `binom[n][k]` = n choose k.
    binom: [[usize; GROUP + 1]; 33],
}

const NONE: u8 = u8::MAX;

impl Indexer {
    pub(super) fn new() -> Indexer {
        let allowed = [VALID & !RANK_8, VALID, VALID & !RANK_1, VALID];
        let mut dense_of_bit = [[NONE; 64]; 4];
        let mut bit_of_dense = [[0u64; 32]; 4];
        let mut squares = [0usize; 4];
        for g in 0..4 {
            let mut rest = allowed[g];
            while rest != 0 {
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                dense_of_bit[g][bit] = squares[g] as u8;
                bit_of_dense[g][squares[g]] = 1u64 << bit;
                squares[g] += 1;
            }
        }
        let mut binom = [[0usize; GROUP + 1]; 33];
        for n in 0..33 {
            binom[n][0] = 1;
            for k in 1..=GROUP.min(n) {
                binom[n][k] = binom[n - 1][k - 1] + binom[n - 1][k];
            }
        }
        Indexer {
            dense_of_bit,
            bit_of_dense,
            squares,
            binom,
        }
    }

    fn group_len(&self, g: usize, count: u8) -> usize {
        self.binom[self.squares[g]][usize::from(count)]
    }

    /// Slots in the table of `sig`.
    pub(super) fn table_len(&self, sig: Sig) -> usize {
        (0..4).map(|g| self.group_len(g, sig[g])).product()
    }

    /// The index of a placement; `None` if a man stands on its crowning row.
    pub(super) fn index(&self, sig: Sig, groups: &[u64; 4]) -> Option<usize> {
        let mut idx = 0usize;
        for (g, &board) in groups.iter().enumerate() {
            // Colex rank: the i-th smallest square (from 1) at dense position d adds C(d, i).
            let mut rank = 0usize;
            let mut b = board;
            let mut i = 1;
            while b != 0 {
                let d = self.dense_of_bit[g][b.trailing_zeros() as usize];
                if d == NONE {
                    return None;
                }
                rank += self.binom[usize::from(d)][i];
                i += 1;
                b &= b - 1;
            }
            idx = idx * self.group_len(g, sig[g]) + rank;
        }
        Some(idx)
    }

    /// The placement at `idx` in the table of `sig` (groups may overlap: see [`Self::position`]).
    pub(super) fn groups(&self, sig: Sig, mut idx: usize) -> [u64; 4] {
        let mut groups = [0u64; 4];
        for g in (0..4).rev() {
            let len = self.group_len(g, sig[g]);
            let mut rank = idx % len;
            idx /= len;
            for i in (1..=usize::from(sig[g])).rev() {
                let mut d = i - 1;
                while d + 1 < self.squares[g] && self.binom[d + 1][i] <= rank {
                    d += 1;
                }
                rank -= self.binom[d][i];
                groups[g] |= self.bit_of_dense[g][d];
            }
        }
        groups
    }

    /// The position at `idx` in the table of `sig`, White to move; `None` where two groups
    /// share a square.
    pub(super) fn position(&self, sig: Sig, idx: usize) -> Option<Position> {
        let groups = self.groups(sig, idx);
        let all = groups.iter().fold(0u64, |a, g| a | g);
        let total: u32 = groups.iter().map(|g| g.count_ones()).sum();
        (all.count_ones() == total).then(|| {
            Position::from_boards(
                groups[0] | groups[1],
                groups[2] | groups[3],
                groups[1] | groups[3],
                Color::White,
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranking_round_trips() {
        let ix = Indexer::new();
        for sig in [[2u8, 1, 1, 1], [0, 3, 0, 2], [1, 0, 0, 1], [3, 0, 2, 0]] {
            let len = ix.table_len(sig);
            let mut seen = 0;
            for idx in (0..len).step_by(97) {
                let groups = ix.groups(sig, idx);
                let counts = groups.map(|g| g.count_ones() as u8);
                assert_eq!(counts, sig);
                assert_eq!(ix.index(sig, &groups), Some(idx));
                seen += 1;
            }
            assert!(seen > 0);
        }
        // Men off their crowning rows only: 28 squares each, kings on all 32.
        assert_eq!(ix.table_len([1, 1, 1, 1]), 28 * 32 * 28 * 32);
        assert_eq!(ix.table_len([0, 2, 0, 0]), 496);
    }
}
