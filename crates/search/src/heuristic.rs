//! The reward-and-punishment rule of Winnicka (IVUS 2020, `seeds/reward-punishment-checkers.txt`),
//! adapted to Russian draughts: it scores only the legal moves the engine gives (captures are
//! forced, so when there is a capture it chooses among captures), with
//! `s = d(x, m) + f(m, n) - k(m, n) + r`:
//! - `d(x, m) = |sin(x pi / 16)| / m`: the reward for nearing the crowning row, `x` the rows
//!   from the own edge (0..7) and `m` the own pieces. The paper's `sin(x)` with `x` in 0..8 is
//!   not increasing there; scaling `x` to `[0, pi/2]` keeps the stated intent (grows with `x`,
//!   larger when few pieces are left);
//! - `f(m, n) = c / (m n)`: the reward for taking, `c` the pieces taken (a king counts two);
//! - `k(m, n) = 1 / (m n)`: the punishment when the opponent can take the moved piece next;
//! - `r` in `(0, 1 / (m n))`: the paper's random tie-breaker, from the seeded stream.

use std::time::Instant;

use draughts::Rng;
use draughts::{Color, Game, Move, Position};

use crate::planner::{moves_to_plan, Control, Decision, Limits, PlanError, Planner, SearchStats};

#[derive(Debug, Clone)]
pub struct HeuristicPlanner {
    seed: u64,
    rng: Rng,
}

impl HeuristicPlanner {
    pub fn new(seed: u64) -> HeuristicPlanner {
        HeuristicPlanner {
            seed,
            rng: Rng::new(seed),
        }
    }
}

/// Rows between the side's own edge and `rank` (0-based).
fn rows_from_own_edge(side: Color, rank: u8) -> u8 {
    match side {
        Color::White => rank,
        Color::Black => 7 - rank,
    }
}

/// The paper's `s` without its random term.
pub fn reward(pos: &Position, mv: &Move) -> f64 {
    let side = pos.side_to_move();
    let m = f64::from(pos.pieces(side).count_ones().max(1));
    let n = f64::from(pos.pieces(side.opponent()).count_ones().max(1));
    let x = f64::from(rows_from_own_edge(side, mv.to().rank()));
    let d = (x * std::f64::consts::PI / 16.0).sin().abs() / m;
    let taken = mv.captured();
    let weight =
        (taken & !pos.all_kings()).count_ones() + 2 * (taken & pos.all_kings()).count_ones();
    let f = f64::from(weight) / (m * n);
    let after = pos.after(mv);
    let exposed = after.has_capture()
        && after
            .legal_moves()
            .iter()
            .any(|reply| reply.captured() & mv.to().mask() != 0);
    let k = if exposed { 1.0 / (m * n) } else { 0.0 };
    d + f - k
}

impl Planner for HeuristicPlanner {
    fn name(&self) -> String {
        format!("heuristic:seed={}", self.seed)
    }

    fn choose(&mut self, game: &Game, _: &Limits, _: &Control) -> Result<Decision, PlanError> {
        let started = Instant::now();
        let moves = moves_to_plan(game)?;
        let pos = game.position();
        let side = pos.side_to_move();
        let mn = f64::from(pos.pieces(side).count_ones().max(1))
            * f64::from(pos.pieces(side.opponent()).count_ones().max(1));
        let mut best = moves[0];
        let mut best_s = f64::NEG_INFINITY;
        for mv in moves.iter() {
            let s = reward(pos, mv) + self.rng.unit() / mn;
            if s > best_s {
                best_s = s;
                best = *mv;
            }
        }
        Ok(Decision {
            best,
            value: 0,
            win_probability: 0.5,
            stats: SearchStats {
                depth: 1,
                seldepth: 2,
                nodes: moves.len() as u64,
                elapsed: started.elapsed(),
                pv: vec![best],
                ..SearchStats::default()
            },
        })
    }

    fn new_game(&mut self) {
        self.rng = Rng::new(self.seed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choose(fen: &str) -> String {
        let game = Game::from_fen(fen).expect("fen");
        HeuristicPlanner::new(1)
            .choose(&game, &Limits::default(), &Control::default())
            .expect("move")
            .best
            .text()
    }

    #[test]
    fn prefers_the_capture_that_takes_more() {
        // Two captures: c3 takes d4 alone, a3 takes b4 and then d4.
        let fen = "W:Wa3,c3:Bb4,d4,h8";
        let game = Game::from_fen(fen).expect("fen");
        let most = game
            .legal_moves()
            .iter()
            .map(|m| m.captured().count_ones())
            .max()
            .expect("moves");
        assert_eq!(most, 2);
        let chosen = game.position().parse_move(&choose(fen)).expect("legal");
        assert_eq!(chosen.captured().count_ones(), most);
    }

    #[test]
    fn avoids_a_move_that_hangs_the_piece() {
        // White's e3-d4 would be taken by c5; e3-f4 is safe.
        assert_eq!(choose("W:We3:Bc5,h8"), "e3-f4");
    }
}
