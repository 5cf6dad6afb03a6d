//! The transposition table: one entry per slot, replaced when the new result is at least as
//! deep or belongs to another position.

use std::sync::atomic::{AtomicU64, Ordering};

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

/// One slot: the key XOR the data, and the data (value, depth, bound, move packed in 48
/// bits). Threads read and write slots without locks; a slot torn by two writers fails the
/// key check and reads as a miss, so a probe never returns another position's data.
#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

fn pack(value: i16, depth: i8, bound: u8, mv: MoveKey) -> u64 {
    u64::from(value as u16)
        | u64::from(depth as u8) << 16
        | u64::from(bound) << 24
        | u64::from(mv.0) << 32
}

fn unpack(data: u64) -> (i16, i8, u8, MoveKey) {
    (
        data as u16 as i16,
        (data >> 16) as u8 as i8,
        (data >> 24) as u8,
        MoveKey((data >> 32) as u16),
    )
}

#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub value: i32,
    pub depth: i32,
    pub bound: Bound,
    pub mv: MoveKey,
}

/// Shared by every search thread of one planner (`&Table` is enough to store).
#[derive(Debug)]
pub struct Table {
    slots: Vec<Slot>,
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
            slots: (0..n).map(|_| Slot::default()).collect(),
            mask: n - 1,
        }
    }

    pub fn clear(&mut self) {
        for slot in &mut self.slots {
            *slot = Slot::default();
        }
    }

    /// The slot's data if it holds `key`.
    fn read(&self, key: u64) -> Option<u64> {
        let slot = &self.slots[key as usize & self.mask];
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        (check ^ data == key && data != 0).then_some(data)
    }

    pub fn probe(&self, key: u64, ply: u32) -> Option<Hit> {
        let (value, depth, bound, mv) = unpack(self.read(key)?);
        let bound = match bound {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        Some(Hit {
            value: from_table(i32::from(value), ply),
            depth: i32::from(depth),
            bound,
            mv,
        })
    }

    pub fn store(&self, key: u64, ply: u32, depth: i32, value: i32, bound: Bound, mv: MoveKey) {
        let old = self.read(key).map(unpack);
        if let Some((_, old_depth, _, old_mv)) = old {
            if i32::from(old_depth) > depth {
                return;
            }
            // A result without a move keeps the move this position had.
            if !mv.is_some() {
                return self.write(key, ply, depth, value, bound, old_mv);
            }
        }
        self.write(key, ply, depth, value, bound, mv);
    }

    fn write(&self, key: u64, ply: u32, depth: i32, value: i32, bound: Bound, mv: MoveKey) {
        let data = pack(
            to_table(value, ply).clamp(i16::MIN.into(), i16::MAX.into()) as i16,
            depth.clamp(-100, 100) as i8,
            match bound {
                Bound::Exact => 1,
                Bound::Lower => 2,
                Bound::Upper => 3,
            },
            mv,
        );
        let slot = &self.slots[key as usize & self.mask];
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_with_win_scores_relative_to_the_node() {
        let t = Table::new(10);
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

    #[test]
    fn packs_negative_values_and_depths() {
        let t = Table::new(4);
        let mv = MoveKey(0x1234);
        t.store(7, 0, -3, -2500, Bound::Upper, mv);
        let hit = t.probe(7, 0).expect("stored");
        assert_eq!(
            (hit.value, hit.depth, hit.bound, hit.mv),
            (-2500, -3, Bound::Upper, mv)
        );
        // A move-less result of the same position keeps the move.
        t.store(7, 0, 4, 10, Bound::Lower, MoveKey::NONE);
        assert_eq!(t.probe(7, 0).expect("stored").mv, mv);
        // Another key in the same slot replaces it, and the old key misses.
        t.store(7 + 16, 0, 1, 5, Bound::Exact, MoveKey::NONE);
        assert!(t.probe(7, 0).is_none());
    }
}
