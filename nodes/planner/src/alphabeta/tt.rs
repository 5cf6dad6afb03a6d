//! The transposition table: one entry per slot, replaced when the new result is at least as
//! deep or belongs to another position.

use draughts::Move;

use crate::planner::WIN_SCORE;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The value is at least this (a beta cutoff).
    Lower,
    /// The value is at most this (no move raised alpha).
    Upper,
}

/// A move as the table and the killer slots keep it: from and to bits. Two captures with the
/// same ends but different pieces taken share a key; the key only orders moves, so that costs
/// at most a worse ordering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MoveKey(u16);

impl MoveKey {
    pub const NONE: MoveKey = MoveKey(0);

    pub fn of(mv: &Move) -> MoveKey {
        MoveKey(1 | u16::from(mv.from().bit()) << 1 | u16::from(mv.to().bit()) << 8)
    }

    pub fn is_some(self) -> bool {
        self.0 != 0
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    value: i16,
    depth: i8,
    bound: u8,
    mv: MoveKey,
}

#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub value: i32,
    pub depth: i32,
    pub bound: Bound,
    pub mv: MoveKey,
}

#[derive(Debug)]
pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

/// Win scores are stored relative to the node, not the root, so they stay true wherever the
/// position recurs.
fn to_table(value: i32, ply: u32) -> i32 {
    let ply = ply as i32;
    if value > WIN_SCORE - 1000 {
        value + ply
    } else if value < -(WIN_SCORE - 1000) {
        value - ply
    } else {
        value
    }
}

fn from_table(value: i32, ply: u32) -> i32 {
    let ply = ply as i32;
    if value > WIN_SCORE - 1000 {
        value - ply
    } else if value < -(WIN_SCORE - 1000) {
        value + ply
    } else {
        value
    }
}

impl Table {
    /// A table of `2^bits` entries (16 bytes each).
    pub fn new(bits: u32) -> Table {
        let n = 1usize << bits;
        Table {
            entries: vec![Entry::default(); n],
            mask: n - 1,
        }
    }

    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    pub fn probe(&self, key: u64, ply: u32) -> Option<Hit> {
        let e = &self.entries[key as usize & self.mask];
        if e.key != key || e.bound == 0 {
            return None;
        }
        let bound = match e.bound {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit {
            value: from_table(i32::from(e.value), ply),
            depth: i32::from(e.depth),
            bound,
            mv: e.mv,
        })
    }

    pub fn store(&mut self, key: u64, ply: u32, depth: i32, value: i32, bound: Bound, mv: MoveKey) {
        let e = &mut self.entries[key as usize & self.mask];
        if e.key == key && i32::from(e.depth) > depth && e.bound != 0 {
            return;
        }
        let mv = if mv.is_some() || e.key != key {
            mv
        } else {
            e.mv
        };
        *e = Entry {
            key,
            value: to_table(value, ply).clamp(i16::MIN.into(), i16::MAX.into()) as i16,
            depth: depth.clamp(-100, 100) as i8,
            bound: match bound {
                Bound::Exact => 1,
                Bound::Lower => 2,
                Bound::Upper => 3,
            },
            mv,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_with_win_scores_relative_to_the_node() {
        let mut t = Table::new(10);
        let win_in_5_from_root = WIN_SCORE - 5;
        t.store(42, 2, 6, win_in_5_from_root, Bound::Exact, MoveKey::NONE);
        let hit = t.probe(42, 4).expect("stored");
        assert_eq!(hit.value, WIN_SCORE - 7);
        assert_eq!(hit.bound, Bound::Exact);
        assert!(t.probe(43, 0).is_none());
        // A shallower result does not replace a deeper one of the same position.
        t.store(42, 0, 2, 10, Bound::Lower, MoveKey::NONE);
        assert_eq!(t.probe(42, 0).expect("kept").depth, 6);
    }
}
