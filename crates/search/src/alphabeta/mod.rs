//! The strong planner: iterative-deepening alpha-beta ([`search`]) over a tuned evaluation
//! ([`eval`]), with aspiration windows and a time manager that stops within a millisecond or
//! two of its budget. With `threads > 1` it is a lazy SMP search: every thread deepens on its
//! own and they share the transposition table, so each profits from what the others proved.

pub mod eval;
pub mod evaluator;
pub mod net;
pub mod patterns;
pub mod search;
pub mod tt;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use draughts::{Game, Move, Position};

use crate::endgame::EndgameDb;
use crate::planner::{
    moves_to_plan, value_to_win_probability, Control, Decision, Limits, PlanError, Planner,
    Progress, SearchStats, WIN_SCORE,
};
use eval::{Weights, WEIGHTS};
use evaluator::Evaluator;
use net::EvalNet;
use search::{History, Pruning, Search, INF, MAX_PLY};
use tt::{MoveKey, Table};

/// Depth used when no limit at all is given.
pub const DEFAULT_DEPTH: u32 = 10;
/// A ponder ranks the opponent's replies with a search this deep...
const PONDER_RANKING_DEPTH: u32 = 6;
/// ...and searches the positions after the best of them: at most this many, within this much
/// win probability of the best...
const PONDER_REPLIES: usize = 3;
const PONDER_REPLY_MARGIN: f64 = 0.10;
/// ...this many plies less deep than the position after the reply it expects: with an
/// effective branching factor near 2, the expected reply gets about two thirds of the time.
const PONDER_LAG: u32 = 2;
/// Table size: 2^20 entries of 16 bytes.
const TT_BITS: u32 = 20;

#[derive(Debug)]
pub struct AlphaBeta {
    tt: Table,
    /// One per search thread.
    histories: Vec<History>,
    eval: Evaluator,
    endgame: Option<Arc<EndgameDb>>,
    pruning: Pruning,
    contempt: i32,
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
            tt: Table::new(TT_BITS),
            histories: vec![History::default()],
            eval: Evaluator::linear(weights),
            endgame: None,
            pruning: Pruning::default(),
            contempt: 0,
        }
    }

    /// Reads `db` at every node with few enough pieces.
    pub fn with_endgame(mut self, db: Arc<EndgameDb>) -> AlphaBeta {
        self.endgame = Some(db);
        self
    }

    /// Adds the learned correction `net` to the linear evaluation.
    pub fn with_net(mut self, net: Arc<EvalNet>) -> AlphaBeta {
        self.eval.net = Some(net);
        self
    }

    /// Evaluates with the pattern evaluation `patterns` instead of the linear one (and its
    /// correction).
    pub fn with_patterns(mut self, patterns: Arc<patterns::Patterns>) -> AlphaBeta {
        self.eval.patterns = Some(patterns);
        self
    }

    /// Prunes more boldly than the plain search ([`Pruning`]).
    pub fn with_pruning(mut self, pruning: Pruning) -> AlphaBeta {
        self.pruning = pruning;
        self
    }

    /// Scores a draw by the rules `contempt` hundredths of a man below equal for the side to
    /// move at the root (`Search::contempt`).
    pub fn with_contempt(mut self, contempt: i32) -> AlphaBeta {
        self.contempt = contempt;
        self
    }

    /// A lazy SMP searcher on `threads` threads (1 is the deterministic single-thread search).
    pub fn with_threads(threads: usize) -> AlphaBeta {
        let mut ab = AlphaBeta::new();
        ab.histories = vec![History::default(); threads.max(1)];
        ab
    }

    /// The legal move the table remembers as best in `pos`, if any.
    fn table_move(&self, pos: &Position) -> Option<Move> {
        let hit = self.tt.probe(pos.hash(), 0).filter(|h| h.mv.is_some())?;
        pos.legal_moves()
            .into_iter()
            .find(|m| MoveKey::of(m) == hit.mv)
    }

    /// The principal variation as the table remembers it, from `pos` after `first`.
    fn pv(&self, pos: &Position, first: Move, max: usize) -> Vec<Move> {
        let mut line = vec![first];
        let mut p = pos.after(&first);
        let mut seen = vec![pos.hash(), p.hash()];
        while line.len() < max {
            let Some(mv) = self.table_move(&p) else {
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

impl AlphaBeta {
    /// [`Planner::choose`] without starting a new generation of the table: a ponder's searches
    /// are all one generation, so that the robot's own search, the next, finds them all equally
    /// fresh.
    fn search_game(
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
        for h in &mut self.histories {
            h.age();
        }

        // The game's positions since the last irreversible move, for repetitions.
        let positions = game.positions();
        let keep = (counters.reversible_plies as usize + 1).min(positions.len());
        let game_path: Vec<u64> = positions[positions.len() - keep..positions.len() - 1]
            .iter()
            .map(|p| p.hash())
            .collect();

        let evaluator = self.eval.clone();
        let mut outcome = Outcome::forced(moves[0], evaluator.evaluate(&pos));
        let mut stats = SearchStats::default();

        // With a clock running, a forced move is played at once.
        if moves.len() > 1 || time.is_none() {
            let job = Job {
                pos: &pos,
                fallback: moves[0],
                counters,
                max_depth: max_depth as i32,
                deadline: time.map(|t| t.hard),
                node_limit: limits.nodes,
                eval: &evaluator,
                game_path: &game_path,
                endgame: self.endgame.as_deref(),
                pruning: self.pruning,
                contempt: self.contempt,
            };
            let tt = &self.tt;
            let (main, helpers) = self.histories.split_at_mut(1);
            // Helpers stop when the main thread does, whatever stopped it.
            let helpers_stop = AtomicBool::new(false);
            let mut results: Vec<Outcome> = std::thread::scope(|scope| {
                let running: Vec<_> = helpers
                    .iter_mut()
                    .enumerate()
                    .map(|(i, history)| {
                        let job = &job;
                        let stop = &helpers_stop;
                        // Odd helpers start one ply deeper, so the threads spread over depths.
                        let first = 1 + (i as i32 % 2);
                        scope.spawn(move || job.deepen(tt, history, stop, first, |_| false))
                    })
                    .collect();
                let main_outcome = job.deepen(tt, &mut main[0], &control.cancel, 1, |o| {
                    control.report(&Progress {
                        depth: o.completed,
                        nodes: o.nodes,
                        sims: 0,
                        best: Some(o.best),
                        value: o.value,
                        elapsed: started.elapsed(),
                    });
                    let decided = o.value.abs() >= WIN_SCORE - o.completed as i32;
                    decided || time.is_some_and(|t| Instant::now() >= t.soft)
                });
                helpers_stop.store(true, Ordering::Relaxed);
                let mut all = vec![main_outcome];
                // A helper that panicked only loses its own result.
                all.extend(running.into_iter().filter_map(|h| h.join().ok()));
                all
            });
            stats.nodes = results.iter().map(|o| o.nodes).sum();
            stats.seldepth = results.iter().map(|o| o.seldepth).max().unwrap_or(0);
            stats.tt_hits = results.iter().map(|o| o.tt_hits).sum();
            // The deepest finished iteration decides; on a tie the main thread's.
            let mut chosen = 0;
            for (i, o) in results.iter().enumerate() {
                if o.completed > results[chosen].completed {
                    chosen = i;
                }
            }
            outcome = results.swap_remove(chosen);
        }
        let Outcome {
            best,
            value,
            completed,
            line,
            ..
        } = outcome;
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
        self.tt.next_generation();
        self.search_game(game, limits, control)
    }

    /// Searches the positions after the opponent's likely replies, as if it were already the
    /// robot's turn there, one ply deeper each round, until cancelled. When the opponent plays
    /// one of them, the next search finds its first iterations in the table. The reply this
    /// planner's own last search expected (the table's move in the opponent's position) comes
    /// first and is searched `PONDER_LAG` plies deeper than the others, which a shallow
    /// search ranks. (Searching the opponent's position itself was measured to help little:
    /// its table entries are mostly bounds from reduced, null-window searches of the replies
    /// that were not played.)
    fn ponder(&mut self, game: &Game, control: &Control) {
        let quiet = Control {
            cancel: Arc::clone(&control.cancel),
            progress: None,
        };
        let expected = self.table_move(game.position());
        let Ok(mut replies) = crate::planner::score_moves(game, self, PONDER_RANKING_DEPTH, &quiet)
        else {
            return;
        };
        replies.sort_by(|a, b| b.score.total_cmp(&a.score));
        let best = replies.first().map_or(0.0, |r| r.score);
        let ranked = replies
            .iter()
            .filter(|r| best - r.score <= PONDER_REPLY_MARGIN)
            .map(|r| r.mv)
            .filter(|mv| Some(*mv) != expected);
        let likely: Vec<Game> = expected
            .into_iter()
            .chain(ranked)
            .take(PONDER_REPLIES)
            .filter_map(|mv| {
                let mut after = game.clone();
                (after.play(&mv).is_ok() && !after.result().is_over()).then_some(after)
            })
            .collect();
        for depth in PONDER_RANKING_DEPTH..MAX_PLY as u32 - 8 {
            for (i, after) in likely.iter().enumerate() {
                if control.cancelled() {
                    return;
                }
                let lag = if i == 0 && expected.is_some() {
                    0
                } else {
                    PONDER_LAG
                };
                let limits = Limits {
                    depth: Some(depth.saturating_sub(lag).max(1)),
                    ..Limits::default()
                };
                let _ = self.search_game(after, &limits, &quiet);
            }
        }
    }

    fn new_game(&mut self) {
        self.tt.clear();
        for h in &mut self.histories {
            h.clear();
        }
    }
}

/// What every search thread is given.
struct Job<'a> {
    pos: &'a Position,
    /// Played if not even the first iteration finishes.
    fallback: Move,
    counters: draughts::Counters,
    max_depth: i32,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    eval: &'a Evaluator,
    game_path: &'a [u64],
    endgame: Option<&'a EndgameDb>,
    pruning: Pruning,
    contempt: i32,
}

/// What one thread's iterative deepening found.
#[derive(Debug)]
struct Outcome {
    best: Move,
    value: i32,
    /// The deepest finished iteration (0: none).
    completed: u32,
    line: Vec<Move>,
    nodes: u64,
    seldepth: u32,
    tt_hits: u64,
}

impl Outcome {
    fn forced(best: Move, value: i32) -> Outcome {
        Outcome {
            best,
            value,
            completed: 0,
            line: Vec::new(),
            nodes: 0,
            seldepth: 0,
            tt_hits: 0,
        }
    }
}

impl Job<'_> {
    /// Iterative deepening from `first` with aspiration windows, until the deadline, `stop`,
    /// the depth limit, or `enough` (called after each finished iteration) says so.
    fn deepen(
        &self,
        tt: &Table,
        history: &mut History,
        stop: &AtomicBool,
        first: i32,
        mut enough: impl FnMut(&Outcome) -> bool,
    ) -> Outcome {
        let mut search = Search::new(tt, history, self.eval, stop, self.game_path.to_vec());
        search.deadline = self.deadline;
        search.node_limit = self.node_limit;
        search.endgame = self.endgame;
        search.pruning = self.pruning;
        search.contempt = self.contempt;
        let mut out = Outcome::forced(self.fallback, 0);
        let mut prev = 0;
        for depth in first.min(self.max_depth)..=self.max_depth {
            search.root_best = None;
            let mut delta = 35;
            let (mut alpha, mut beta) = if depth >= 5 {
                (prev - delta, prev + delta)
            } else {
                (-INF, INF)
            };
            let score = loop {
                let s = search.negamax(self.pos, self.counters, depth, alpha, beta, 0);
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
                    out.best = mv;
                    out.value = s;
                    out.line = search.pv[0].clone();
                }
                break;
            }
            out.completed = depth as u32;
            prev = score;
            out.value = score;
            if let Some((mv, _)) = search.root_best {
                out.best = mv;
            }
            out.line = search.pv[0].clone();
            out.nodes = search.nodes;
            if enough(&out) {
                break;
            }
        }
        out.nodes = search.nodes;
        out.seldepth = search.seldepth;
        out.tt_hits = search.tt_hits;
        out
    }
}

#[cfg(test)]
mod tests;
