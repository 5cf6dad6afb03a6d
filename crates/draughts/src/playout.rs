//! Fast random playouts, for Monte Carlo search and for measuring the move generator.

use crate::game::{Counters, Game, GameResult, WinReason};
use crate::movegen::MoveList;
use crate::position::Position;

/// A small, fast, seedable generator (wyrand). Kept here rather than taken from a crate so a
/// seed gives the same games on every version and platform.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0xA076_1D64_78BD_642F);
        let t = u128::from(self.0) * u128::from(self.0 ^ 0xE703_7ED1_A0B4_28DB);
        ((t >> 64) ^ t) as u64
    }

    /// Uniform in `0..n` (n > 0).
    #[inline(always)]
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A game from the start with `rng.below(up_to)` uniformly random legal moves, fewer where the
/// game ends first: positions from every stage of a game, for tests and samples.
pub fn random_game(rng: &mut Rng, up_to: usize) -> Game {
    let mut game = Game::new();
    for _ in 0..rng.below(up_to) {
        let moves = game.legal_moves();
        if moves.is_empty() || game.result().is_over() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        if game.play(&mv).is_err() {
            break;
        }
    }
    game
}

/// How a playout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Playout {
    pub result: GameResult,
    pub plies: u32,
}

/// Plays uniformly random legal moves from `pos` until the rules end the game or `max_plies`
/// pass (then a draw by agreement). The draw rules are those of [`Counters`]; repetition is not
/// tracked (random play almost never repeats, and the king-move rule ends king shuffles).
pub fn random_playout(
    pos: &Position,
    counters: Counters,
    rng: &mut Rng,
    max_plies: u32,
) -> Playout {
    let mut pos = *pos;
    let mut counters = counters;
    let mut list = MoveList::new();
    for ply in 0..max_plies {
        pos.generate_into(&mut list);
        if list.is_empty() {
            return Playout {
                result: GameResult::Win {
                    winner: pos.side_to_move().opponent(),
                    reason: WinReason::NoMoves,
                },
                plies: ply,
            };
        }
        if let Some(reason) = counters.draw(&pos) {
            return Playout {
                result: GameResult::Draw(reason),
                plies: ply,
            };
        }
        let mv = &list[rng.below(list.len())];
        counters = counters.after(&pos, mv);
        pos.play(mv);
    }
    Playout {
        result: GameResult::Draw(crate::game::DrawReason::Agreement),
        plies: max_plies,
    }
}
