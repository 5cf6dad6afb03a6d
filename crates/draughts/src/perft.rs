//! Perft: the number of legal move sequences of a given length, the standard check of a move
//! generator against published figures.

use crate::moves::Move;
use crate::position::Position;

/// Leaf count at `depth`, with bulk counting at the last ply.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal() as u64,
        _ => perft_from_2(pos, depth),
    }
}

fn perft_from_2(pos: &Position, depth: u32) -> u64 {
    let mut n = 0;
    pos.for_each_child(|child| {
        n += match depth {
            2 => child.count_legal() as u64,
            _ => perft_from_2(child, depth - 1),
        }
    });
    n
}

/// Leaf counts below each legal move, in move-text order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut out: Vec<(Move, u64)> = pos
        .legal_moves()
        .iter()
        .map(|m| (*m, perft(&pos.after(m), depth.saturating_sub(1))))
        .collect();
    out.sort_by_key(|(m, _)| m.text());
    out
}
