//! What the network sees and what it answers in.
//!
//! **Input**: [`PLANES`] planes of 8x8, always from the side to move's point of view: a position
//! with Black to move is first turned 180 degrees with its colours swapped
//! ([`Position::mirror`]), so the mover always plays up the board. For the current position and
//! the [`HISTORY`] positions before it: the mover's men, the mover's kings, the opponent's men,
//! the opponent's kings (an earlier position that does not exist is all zeros). The last plane
//! is constant: how close the counting draw rules are (0 far, 1 drawn at the next quiet king
//! move), which decides many king endings and cannot be seen on the board.
//!
//! **Policy**: the paper's 280 actions, one per (from square, direction, distance): every ordered
//! pair of squares on one diagonal. A move is the action of its first leg: from its start to its
//! first landing square. The tree searches whole moves as the rules engine makes them, so a
//! multiple capture is one move and needs no planes for a capture in progress. Two captures that
//! share their first leg share its action; the search splits that action's prior between them.

use std::sync::OnceLock;

use draughts::{Color, Game, Move, Position, Square};

/// Earlier positions the network sees besides the current one.
pub const HISTORY: usize = 2;
/// Planes per position: own men, own kings, opponent's men, opponent's kings.
pub const PIECE_PLANES: usize = 4;
/// All input planes: the pieces of the current and [`HISTORY`] earlier positions, and the
/// counting-draw plane.
pub const PLANES: usize = PIECE_PLANES * (HISTORY + 1) + 1;
/// Floats in one encoded position.
pub const INPUT_LEN: usize = PLANES * 64;
/// Policy outputs: every (from, to) pair on one diagonal.
pub const ACTIONS: usize = 280;
/// Plies of quiet king moves over which the counting-draw plane rises from 0 to 1.
const DRAW_HORIZON: f32 = 30.0;

/// The four diagonal steps as (file, rank) deltas.
const DIRECTIONS: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

struct ActionTable {
    /// Action index by (from bit, to bit); `u16::MAX` where the two are not on one diagonal.
    index: Vec<u16>,
    /// (from, to) of each action.
    pairs: Vec<(Square, Square)>,
}

fn table() -> &'static ActionTable {
    static TABLE: OnceLock<ActionTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut index = vec![u16::MAX; 64 * 64];
        let mut pairs = Vec::with_capacity(ACTIONS);
        for from in Square::all() {
            for (df, dr) in DIRECTIONS {
                let (mut f, mut r) = (from.file() as i8, from.rank() as i8);
                loop {
                    f += df;
                    r += dr;
                    if !(0..8).contains(&f) || !(0..8).contains(&r) {
                        break;
                    }
                    let Some(to) = Square::from_file_rank(f as u8, r as u8) else {
                        break;
                    };
                    index[from.bit() as usize * 64 + to.bit() as usize] = pairs.len() as u16;
                    pairs.push((from, to));
                }
            }
        }
        ActionTable { index, pairs }
    })
}

/// The action of a move in a position with White to move (the network's frame).
pub fn action_of(mv: &Move) -> usize {
    let first = mv.landings().first().copied().unwrap_or(mv.to());
    let i = table().index[mv.from().bit() as usize * 64 + first.bit() as usize];
    debug_assert!(i != u16::MAX, "a move's first leg lies on a diagonal");
    i as usize
}

/// The (from, to) squares of an action, in the network's frame.
pub fn action_squares(action: usize) -> Option<(Square, Square)> {
    table().pairs.get(action).copied()
}

/// The action of a move played by `mover`, seen in the network's frame.
pub fn action_for(mover: Color, mv: &Move) -> usize {
    match mover {
        Color::White => action_of(mv),
        Color::Black => action_of(&mv.mirror()),
    }
}

/// A position in the network's frame: White to move.
pub fn oriented(pos: &Position, mover: Color) -> Position {
    match mover {
        Color::White => *pos,
        Color::Black => pos.mirror(),
    }
}

fn put_pieces(out: &mut [f32], pos: &Position) {
    let boards = [
        pos.men(Color::White),
        pos.kings(Color::White),
        pos.men(Color::Black),
        pos.kings(Color::Black),
    ];
    for (plane, board) in boards.into_iter().enumerate() {
        for sq in Square::all().filter(|s| board & s.mask() != 0) {
            out[plane * 64 + sq.rank() as usize * 8 + sq.file() as usize] = 1.0;
        }
    }
}

/// Encodes the game's current position, with its history, into `out` ([`INPUT_LEN`] floats).
pub fn encode_into(game: &Game, out: &mut [f32]) {
    out[..INPUT_LEN].fill(0.0);
    let positions = game.positions();
    let mover = game.position().side_to_move();
    for back in 0..=HISTORY {
        let Some(pos) = positions.len().checked_sub(1 + back).map(|i| positions[i]) else {
            break;
        };
        put_pieces(
            &mut out[back * PIECE_PLANES * 64..(back + 1) * PIECE_PLANES * 64],
            &oriented(&pos, mover),
        );
    }
    let left = game.counters().plies_to_counting_draw(game.position()) as f32;
    let pressure = 1.0 - (left / DRAW_HORIZON).min(1.0);
    out[(PLANES - 1) * 64..PLANES * 64].fill(pressure);
}

/// The encoded current position of `game`.
pub fn encode(game: &Game) -> Vec<f32> {
    let mut v = vec![0.0; INPUT_LEN];
    encode_into(game, &mut v);
    v
}

/// Reads the current position back from encoded planes (the first four), as `mover` to move.
pub fn decode_position(planes: &[f32], mover: Color) -> Position {
    let mut boards = [0u64; 4];
    for (plane, board) in boards.iter_mut().enumerate() {
        for sq in Square::all() {
            if planes[plane * 64 + sq.rank() as usize * 8 + sq.file() as usize] > 0.5 {
                *board |= sq.mask();
            }
        }
    }
    let [wm, wk, bm, bk] = boards;
    let white_frame = Position::from_boards(wm | wk, bm | bk, wk | bk, Color::White);
    oriented(&white_frame, mover)
}

/// Priors over the legal moves from the network's action logits: a softmax over the distinct
/// actions of the legal moves, each action's share split evenly between the moves that begin
/// with it.
pub fn move_priors(mover: Color, moves: &[Move], logits: &[f32]) -> Vec<f32> {
    let actions: Vec<usize> = moves.iter().map(|m| action_for(mover, m)).collect();
    let mut distinct = actions.clone();
    distinct.sort_unstable();
    distinct.dedup();
    let max = distinct
        .iter()
        .map(|&a| logits[a])
        .fold(f32::NEG_INFINITY, f32::max);
    let total: f32 = distinct.iter().map(|&a| (logits[a] - max).exp()).sum();
    actions
        .iter()
        .map(|&a| {
            let sharing = actions.iter().filter(|&&b| b == a).count() as f32;
            (logits[a] - max).exp() / total / sharing
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_280_actions_and_each_is_a_diagonal_pair() {
        assert_eq!(table().pairs.len(), ACTIONS);
        for (i, &(from, to)) in table().pairs.iter().enumerate() {
            let df = to.file() as i8 - from.file() as i8;
            let dr = to.rank() as i8 - from.rank() as i8;
            assert!(df.abs() == dr.abs() && df != 0, "action {i}: {from}-{to}");
            assert_eq!(
                table().index[from.bit() as usize * 64 + to.bit() as usize],
                i as u16
            );
        }
    }
}
