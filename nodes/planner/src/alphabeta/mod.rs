//! The strong planner: iterative-deepening alpha-beta ([`search`]) over a tuned evaluation
//! ([`eval`]), with aspiration windows and a time manager that stops within a millisecond or
//! two of its budget.

pub mod eval;
pub mod search;
pub mod tt;

use std::time::{Duration, Instant};

use draughts::{Game, Move, Position};

use crate::planner::{
    moves_to_plan, value_to_win_probability, Control, Decision, Limits, PlanError, Planner,
    Progress, SearchStats, WIN_SCORE,
};
use eval::{Weights, WEIGHTS};
use search::{Memory, Search, INF, MAX_PLY};
use tt::MoveKey;

/// Depth used when no limit at all is given.
pub const DEFAULT_DEPTH: u32 = 10;
/// Table size: 2^20 entries of 16 bytes.
const TT_BITS: u32 = 20;

#[derive(Debug)]
pub struct AlphaBeta {
    mem: Memory,
    weights: Weights,
}

impl Default for AlphaBeta {
    fn default() -> Self {
        AlphaBeta::new()
    }
}

/// When to stop: a hard deadline a little before the budget runs out (the last check comes
/// at most ~1000 nodes, well under a millisecond, after it), and a soft one past which a new
/// iteration is not started because it would most likely not finish.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    pub hard: Instant,
    pub soft: Instant,
}

impl TimeManager {
    pub fn new(start: Instant, budget: Duration) -> TimeManager {
        let margin = (budget / 50).min(Duration::from_millis(3));
        TimeManager {
            hard: start + budget.saturating_sub(margin),
            soft: start + budget.mul_f64(0.45),
        }
    }
}

impl AlphaBeta {
    pub fn new() -> AlphaBeta {
        AlphaBeta::with_weights(WEIGHTS)
    }

    pub fn with_weights(weights: Weights) -> AlphaBeta {
        AlphaBeta {
            mem: Memory::new(TT_BITS),
            weights,
        }
    }

    /// The principal variation as the table remembers it, from `pos` after `first`.
    fn pv(&self, pos: &Position, first: Move, max: usize) -> Vec<Move> {
        let mut line = vec![first];
        let mut p = pos.after(&first);
        let mut seen = vec![pos.hash(), p.hash()];
        while line.len() < max {
            let Some(hit) = self.mem.tt.probe(p.hash(), 0) else {
                break;
            };
            let Some(mv) = p
                .legal_moves()
                .into_iter()
                .find(|m| hit.mv.is_some() && MoveKey::of(m) == hit.mv)
            else {
                break;
            };
            line.push(mv);
            p = p.after(&mv);
            if seen.contains(&p.hash()) {
                break;
            }
            seen.push(p.hash());
        }
        line
    }
}

impl Planner for AlphaBeta {
    fn name(&self) -> String {
        "alphabeta".to_string()
    }

    fn choose(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &Control,
    ) -> Result<Decision, PlanError> {
        let started = Instant::now();
        let moves = moves_to_plan(game)?;
        let pos = *game.position();
        let counters = game.counters();
        let max_depth = limits
            .depth
            .unwrap_or(if limits.is_unlimited() {
                DEFAULT_DEPTH
            } else {
                MAX_PLY as u32 - 8
            })
            .clamp(1, MAX_PLY as u32 - 8);
        let time = limits.time.map(|t| TimeManager::new(started, t));
        self.mem.age();

        // The game's positions since the last irreversible move, for repetitions.
        let positions = game.positions();
        let keep = (counters.reversible_plies as usize + 1).min(positions.len());
        let history: Vec<u64> = positions[positions.len() - keep..positions.len() - 1]
            .iter()
            .map(|p| p.hash())
            .collect();

        let weights = self.weights;
        let mut best = moves[0];
        let mut value = 0;
        let mut completed = 0;
        let mut stats = SearchStats::default();
        let mut line: Vec<Move> = Vec::new();

        // With a clock running, a forced move is played at once.
        if moves.len() == 1 && time.is_some() {
            value = eval::evaluate(&pos, &weights);
        } else {
            let mut search = Search::new(&mut self.mem, &weights, &control.cancel, history);
            search.deadline = time.map(|t| t.hard);
            search.node_limit = limits.nodes;
            let mut prev = 0;
            for depth in 1..=max_depth as i32 {
                search.root_best = None;
                let mut delta = 35;
                let (mut alpha, mut beta) = if depth >= 5 {
                    (prev - delta, prev + delta)
                } else {
                    (-INF, INF)
                };
                let score = loop {
                    let s = search.negamax(&pos, counters, depth, alpha, beta, 0);
                    if search.stopped {
                        break s;
                    }
                    if s <= alpha {
                        alpha = (alpha - delta).max(-INF);
                        delta *= 3;
                    } else if s >= beta {
                        beta = (beta + delta).min(INF);
                        delta *= 3;
                    } else {
                        break s;
                    }
                    if delta > 1000 {
                        alpha = -INF;
                        beta = INF;
                    }
                };
                if search.stopped {
                    // A move proven better during the unfinished iteration is still better.
                    if let Some((mv, s)) = search.root_best {
                        best = mv;
                        value = s;
                        line = search.pv[0].clone();
                    }
                    break;
                }
                completed = depth as u32;
                prev = score;
                value = score;
                if let Some((mv, _)) = search.root_best {
                    best = mv;
                }
                line = search.pv[0].clone();
                control.report(&Progress {
                    depth: completed,
                    nodes: search.nodes,
                    sims: 0,
                    best: Some(best),
                    value,
                    elapsed: started.elapsed(),
                });
                let decided = value.abs() >= WIN_SCORE - depth;
                if decided || time.is_some_and(|t| Instant::now() >= t.soft) {
                    break;
                }
            }
            stats.nodes = search.nodes;
            stats.seldepth = search.seldepth;
            stats.tt_hits = search.tt_hits;
        }
        stats.depth = completed;
        stats.elapsed = started.elapsed();
        stats.pv = if line.first() == Some(&best) {
            line
        } else {
            self.pv(&pos, best, completed.max(1) as usize)
        };
        Ok(Decision {
            best,
            value,
            win_probability: value_to_win_probability(value),
            stats,
        })
    }

    fn new_game(&mut self) {
        self.mem.clear();
    }
}

#[cfg(test)]
mod tests;
