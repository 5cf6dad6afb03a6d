//! Plain depth-limited minimax with the evaluation of `seeds/minimax-checkers-bot.txt`:
//! `10 x (pieces taken by us - taken by them) + 7 x (our kings - theirs) + position(us) -
//! position(them)`, where a man's position score grows with every row it has advanced and a
//! king scores only on the four centre rows. The seed gives no numbers for the position
//! scores; here a man scores 1 per row advanced and a king 2 on ranks 3-6. No pruning, no
//! tables: the baseline the other planners are measured against. Ties between equally valued
//! moves are broken by the seeded random stream so games vary.

use std::time::Instant;

use draughts::Counters;
use draughts::Rng;
use draughts::{Color, Game, Move, MoveList, Position};

use crate::bits;
use crate::planner::{
    moves_to_plan, value_to_win_probability, Control, Decision, Limits, PlanError, Planner,
    SearchStats,
};

pub const DEFAULT_DEPTH: u32 = 4;
/// Seed units (a piece is 10) to hundredths of a man, so values compare across planners.
const UNIT: i32 = 10;
const WIN: i32 = 1_000_000;

/// The seed's score of `pos` for `side`.
pub fn seed_score(pos: &Position, side: Color) -> i32 {
    let other = side.opponent();
    // Pieces taken by a side = 12 - pieces the opponent has left.
    let taken_by_us = 12 - pos.pieces(other).count_ones() as i32;
    let taken_by_them = 12 - pos.pieces(side).count_ones() as i32;
    let kings = pos.kings(side).count_ones() as i32 - pos.kings(other).count_ones() as i32;
    10 * (taken_by_us - taken_by_them) + 7 * kings + position_score(pos, side)
        - position_score(pos, other)
}

fn position_score(pos: &Position, side: Color) -> i32 {
    let mut s = 0;
    for r in 0..8u8 {
        let advanced = match side {
            Color::White => i32::from(r),
            Color::Black => i32::from(7 - r),
        };
        s += advanced * (pos.men(side) & bits::rank(r)).count_ones() as i32;
    }
    let centre_rows = bits::rank(2) | bits::rank(3) | bits::rank(4) | bits::rank(5);
    s + 2 * (pos.kings(side) & centre_rows).count_ones() as i32
}

#[derive(Debug, Clone)]
pub struct Minimax {
    seed: u64,
    rng: Rng,
}

impl Minimax {
    pub fn new(seed: u64) -> Minimax {
        Minimax {
            seed,
            rng: Rng::new(seed),
        }
    }
}

struct Walk {
    nodes: u64,
    seldepth: u32,
}

impl Walk {
    /// Minimax value for `me` (the root's side): `me` maximises, the opponent minimises.
    fn value(
        &mut self,
        pos: &Position,
        counters: Counters,
        depth: u32,
        ply: u32,
        me: Color,
    ) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let mut list = MoveList::new();
        pos.generate_into(&mut list);
        let mover = pos.side_to_move();
        if list.is_empty() {
            let ply = ply as i32;
            return if mover == me { -WIN + ply } else { WIN - ply };
        }
        if counters.draw(pos).is_some() {
            return 0;
        }
        if depth == 0 {
            return seed_score(pos, me);
        }
        let values = list.iter().map(|m| {
            self.value(
                &pos.after(m),
                counters.after(pos, m),
                depth - 1,
                ply + 1,
                me,
            )
        });
        if mover == me {
            values.max().unwrap_or(0)
        } else {
            values.min().unwrap_or(0)
        }
    }
}

impl Planner for Minimax {
    fn name(&self) -> String {
        format!("minimax:seed={}", self.seed)
    }

    fn choose(&mut self, game: &Game, limits: &Limits, _: &Control) -> Result<Decision, PlanError> {
        let started = Instant::now();
        let moves = moves_to_plan(game)?;
        let depth = limits.depth.unwrap_or(DEFAULT_DEPTH).max(1);
        let pos = *game.position();
        let me = pos.side_to_move();
        let counters = game.counters();
        let mut walk = Walk {
            nodes: 0,
            seldepth: 0,
        };
        let scored: Vec<(i32, Move)> = moves
            .iter()
            .map(|m| {
                let v = walk.value(&pos.after(m), counters.after(&pos, m), depth - 1, 1, me);
                (v, *m)
            })
            .collect();
        let top = scored.iter().map(|s| s.0).max().unwrap_or(0);
        let ties: Vec<Move> = scored.iter().filter(|s| s.0 == top).map(|s| s.1).collect();
        let best = ties[self.rng.below(ties.len())];
        let value = if top.abs() >= WIN - 1000 {
            top.signum() * (crate::WIN_SCORE - (WIN - top.abs()))
        } else {
            top * UNIT
        };
        Ok(Decision {
            best,
            value,
            win_probability: value_to_win_probability(value),
            stats: SearchStats {
                depth,
                seldepth: walk.seldepth,
                nodes: walk.nodes,
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
    use draughts::parse_fen;

    #[test]
    fn seed_score_counts_pieces_kings_and_rows() {
        assert_eq!(seed_score(&Position::start(), Color::White), 0);
        // White: a man on c3 (2 rows) and a king on d4 (centre); Black: a man on b8 (0 rows).
        let p = parse_fen("W:Wc3,Kd4:Bb8").expect("fen");
        // taken: White took 11, Black took 10 -> 10; kings +7; position 2 + 2 - 0.
        assert_eq!(seed_score(&p, Color::White), 10 + 7 + 4);
        assert_eq!(seed_score(&p, Color::Black), -(10 + 7 + 4));
    }

    #[test]
    fn visits_the_whole_tree_and_finds_the_win() {
        let game = Game::from_fen("W:Wc3:Bd4").expect("fen");
        let d = Minimax::new(1)
            .choose(
                &game,
                &Limits {
                    depth: Some(3),
                    ..Limits::default()
                },
                &Control::default(),
            )
            .expect("move");
        assert_eq!(d.best.text(), "c3:e5");
        assert_eq!(d.value, crate::WIN_SCORE - 1);
        // From the start, a depth-3 minimax visits every node of the perft tree.
        let d = Minimax::new(1)
            .choose(
                &Game::new(),
                &Limits {
                    depth: Some(3),
                    ..Limits::default()
                },
                &Control::default(),
            )
            .expect("move");
        assert_eq!(d.stats.nodes, 7 + 49 + 302);
    }
}
