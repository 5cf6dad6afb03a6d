//! The human's move from presence alone. After confirm, the move is the legal move whose
//! resulting occupancy equals the reading. The sensors see no colours and no kings, so two
//! legal moves can leave the same occupancy with different positions (a man that passed the
//! last row during a capture or not): then the human must say which.

use draughts::{Move, Position};

#[derive(Debug, Clone, PartialEq)]
pub enum Inference {
    /// Exactly one position fits: this is the move.
    Move(Move),
    /// The board is as before the move: confirm was pressed with nothing moved.
    NothingMoved,
    /// No legal move leaves this occupancy. `wrong_squares` (1..32, ascending) are the squares
    /// that differ from every legal result nearest to the reading; `nearest` are those moves.
    Illegal {
        wrong_squares: Vec<u8>,
        nearest: Vec<Move>,
    },
    /// Several legal moves leave this occupancy and different positions.
    Ambiguous(Vec<Move>),
    /// The side to move has no legal move: the game is over, there is nothing to infer.
    NoLegalMove,
}

/// Squares (1..32, ascending) set in a PDN-numbered mask.
pub fn squares_of(mask: u32) -> Vec<u8> {
    (1..=32u8).filter(|n| mask & (1 << (n - 1)) != 0).collect()
}

/// Judges `reading` (bit n-1 = square n occupied) against the legal moves of `position`.
pub fn infer(position: &Position, reading: u32) -> Inference {
    let moves = position.legal_moves();
    if moves.is_empty() {
        return Inference::NoLegalMove;
    }
    if reading == position.occupancy_mask() {
        return Inference::NothingMoved;
    }
    let results: Vec<(Move, Position)> = moves.iter().map(|m| (*m, position.after(m))).collect();
    let fitting: Vec<&(Move, Position)> = results
        .iter()
        .filter(|(_, after)| after.occupancy_mask() == reading)
        .collect();
    match fitting.as_slice() {
        [] => illegal(&results, reading),
        [(m, _)] => Inference::Move(*m),
        [(first, first_after), rest @ ..] => {
            // Moves that leave the very same position are one move as far as the game goes.
            if rest
                .iter()
                .all(|(_, after)| same_position(after, first_after))
            {
                Inference::Move(*first)
            } else {
                let mut distinct: Vec<Move> = Vec::new();
                let mut seen: Vec<&Position> = Vec::new();
                for (m, after) in &fitting {
                    if !seen.iter().any(|p| same_position(p, after)) {
                        seen.push(after);
                        distinct.push(*m);
                    }
                }
                Inference::Ambiguous(distinct)
            }
        }
    }
}

fn same_position(a: &Position, b: &Position) -> bool {
    a == b
}

fn illegal(results: &[(Move, Position)], reading: u32) -> Inference {
    let distance = |after: &Position| (after.occupancy_mask() ^ reading).count_ones();
    let best = results
        .iter()
        .map(|(_, after)| distance(after))
        .min()
        .unwrap_or(0);
    let nearest: Vec<&(Move, Position)> = results
        .iter()
        .filter(|(_, after)| distance(after) == best)
        .collect();
    // Squares wrong whichever of the nearest moves was meant; if they share none, the first
    // one's differences (still a concrete list to check).
    let mut common = u32::MAX;
    for (_, after) in &nearest {
        common &= after.occupancy_mask() ^ reading;
    }
    let wrong = if common != 0 {
        common
    } else {
        nearest
            .first()
            .map_or(0, |(_, after)| after.occupancy_mask() ^ reading)
    };
    Inference::Illegal {
        wrong_squares: squares_of(wrong),
        nearest: nearest.iter().map(|(m, _)| *m).collect(),
    }
}
