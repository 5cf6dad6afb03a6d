//! The transposition table: buckets of four entries, one cache line each. A result for a
//! position already in its bucket replaces it when at least as deep; another position takes
//! the bucket's least valuable entry, the shallowest after counting each search since it was
//! written as eight plies less. A table of one entry per slot, always replaced, lost the deep
//! entries of a long search (or of a ponder, `docs/planners.md`) to the leaves of later ones.

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

/// One slot: the key XOR the data, and the data (value, depth, bound, move and the search's
/// generation packed in 56 bits). Threads read and write slots without locks; a slot torn by
/// two writers fails the key check and reads as a miss, so a probe never returns another
/// position's data.
#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The slot's data if it holds `key`.
    fn holding(&self, key: u64) -> Option<u64> {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        (check ^ data == key && data != 0).then_some(data)
    }
}

const WAYS: usize = 4;

#[derive(Debug, Default)]
#[repr(align(64))]
struct Bucket([Slot; WAYS]);

/// How many plies of depth one search of age costs an entry when a victim is chosen.
const AGE_PLIES: i32 = 8;

fn pack(value: i16, depth: i8, bound: u8, mv: MoveKey, generation: u8) -> u64 {
    u64::from(value as u16)
        | u64::from(depth as u8) << 16
        | u64::from(bound) << 24
        | u64::from(mv.0) << 32
        | u64::from(generation) << 48
}

fn unpack(data: u64) -> (i16, i8, u8, MoveKey) {
    (
        data as u16 as i16,
        (data >> 16) as u8 as i8,
        (data >> 24) as u8,
        MoveKey((data >> 32) as u16),
    )
}

fn generation_of(data: u64) -> u8 {
    (data >> 48) as u8
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
    buckets: Vec<Bucket>,
    mask: usize,
    /// Which search is writing: older entries give way first.
    generation: u8,
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
    /// A table of `2^bits` entries (16 bytes each; at least one bucket).
    pub fn new(bits: u32) -> Table {
        let n = ((1usize << bits) / WAYS).max(1);
        Table {
            buckets: (0..n).map(|_| Bucket::default()).collect(),
            mask: n - 1,
            generation: 0,
        }
    }

    pub fn clear(&mut self) {
        for bucket in &mut self.buckets {
            *bucket = Bucket::default();
        }
        self.generation = 0;
    }

    /// Marks what is written from now on as newer than all that is in the table.
    pub fn next_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        // The low bits choose the bucket; the whole key is checked.
        &self.buckets[key as usize & self.mask]
    }

    pub fn probe(&self, key: u64, ply: u32) -> Option<Hit> {
        let data = self.bucket(key).0.iter().find_map(|s| s.holding(key))?;
        let (value, depth, bound, mv) = unpack(data);
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
        let bucket = self.bucket(key);
        let own = bucket
            .0
            .iter()
            .find_map(|s| s.holding(key).map(|data| (s, data)));
        if let Some((slot, old)) = own {
            let (old_value, old_depth, old_bound, old_mv) = unpack(old);
            if i32::from(old_depth) > depth {
                // Kept, and marked as used by this search so that it is not the next victim.
                if generation_of(old) != self.generation {
                    let data = pack(old_value, old_depth, old_bound, old_mv, self.generation);
                    write(slot, key, data);
                }
                return;
            }
            // A result without a move keeps the move this position had.
            let mv = if mv.is_some() { mv } else { old_mv };
            return write(slot, key, self.packed(ply, depth, value, bound, mv));
        }
        let victim = bucket
            .0
            .iter()
            .min_by_key(|s| {
                let data = s.data.load(Ordering::Relaxed);
                if data == 0 {
                    return i32::MIN;
                }
                let age = i32::from(self.generation.wrapping_sub(generation_of(data)));
                i32::from(unpack(data).1) - AGE_PLIES * age
            })
            .unwrap_or(&bucket.0[0]);
        write(victim, key, self.packed(ply, depth, value, bound, mv));
    }

    fn packed(&self, ply: u32, depth: i32, value: i32, bound: Bound, mv: MoveKey) -> u64 {
        pack(
            to_table(value, ply).clamp(i16::MIN.into(), i16::MAX.into()) as i16,
            depth.clamp(-100, 100) as i8,
            match bound {
                Bound::Exact => 1,
                Bound::Lower => 2,
                Bound::Upper => 3,
            },
            mv,
            self.generation,
        )
    }
}

fn write(slot: &Slot, key: u64, data: u64) {
    slot.data.store(data, Ordering::Relaxed);
    slot.check.store(key ^ data, Ordering::Relaxed);
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
    }

    #[test]
    fn a_full_bucket_gives_up_its_shallowest_entry_counting_age() {
        // 16 entries: 4 buckets of 4, chosen by the key's two low bits.
        let mut t = Table::new(4);
        for (i, depth) in [9, 3, 7, 5].into_iter().enumerate() {
            t.store(2 + 16 * i as u64, 0, depth, 0, Bound::Exact, MoveKey::NONE);
        }
        // A fifth position takes the depth-3 entry's place.
        t.store(2 + 16 * 4, 0, 1, 0, Bound::Exact, MoveKey::NONE);
        assert!(t.probe(2 + 16, 0).is_none());
        for i in [0, 2, 3, 4] {
            assert!(t.probe(2 + 16 * i, 0).is_some(), "entry {i} kept");
        }
        // A search later, the old entries count eight plies less: the depth-5 one (now -3)
        // gives way before the depth-1 entry, which a shallower result of this search kept
        // and marked as used now.
        t.next_generation();
        t.store(2 + 16 * 4, 0, 0, 0, Bound::Lower, MoveKey::NONE);
        t.store(2 + 16 * 5, 0, 2, 0, Bound::Exact, MoveKey::NONE);
        assert!(
            t.probe(2 + 16 * 3, 0).is_none(),
            "the old depth-5 entry gave way"
        );
        assert_eq!(t.probe(2 + 16 * 4, 0).map(|h| h.depth), Some(1));
        for i in [0, 2, 5] {
            assert!(t.probe(2 + 16 * i, 0).is_some(), "entry {i} kept");
        }
        // Other buckets are untouched.
        assert!(t.probe(3, 0).is_none());
    }
}
