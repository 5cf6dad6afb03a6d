//! The AlphaZero planner: PUCT search guided by a generation of the policy-value network
//! (`crates/zero`), with leaves evaluated in batches under virtual loss, the tree kept between
//! moves, and the value head's belief as the win probability.

pub mod gumbel;
pub mod noise;
pub mod tree;

use std::sync::Arc;
use std::time::{Duration, Instant};

use draughts::{Game, GameResult, Move};
use zero::encode::INPUT_LEN;
use zero::{Model, ModelError};

use crate::endgame::{EndgameDb, Outcome};
use crate::planner::{moves_to_plan, win_probability_to_value};
use crate::{Control, Decision, Limits, PlanError, Planner, Progress, SearchStats};
pub use tree::{Gathered, Leaf, Puct, Tree};

/// Simulations when the limits name neither simulations nor time.
pub const DEFAULT_SIMS: u64 = 800;
/// Leaves evaluated together: large enough for the network to use both cores, small enough
/// that virtual loss does not spread the search too thin.
pub const BATCH: usize = 16;
/// A ponder stops growing the tree here, so that its memory stays bounded however long the
/// opponent thinks.
const PONDER_MAX_VISITS: u32 = 1_000_000;
/// How often progress is reported.
const REPORT_EVERY: Duration = Duration::from_millis(100);

/// Runs simulations on `tree` until `done` says stop, evaluating leaves `batch` at a time.
pub fn run_search(
    tree: &mut Tree,
    model: &Model,
    batch: usize,
    mut done: impl FnMut(&Tree) -> bool,
) {
    let mut inputs = vec![0.0f32; batch * INPUT_LEN];
    let mut leaves: Vec<Leaf> = Vec::with_capacity(batch);
    while !done(tree) {
        leaves.clear();
        let mut busy = false;
        for _ in 0..batch {
            let slot = leaves.len() * INPUT_LEN;
            match tree.gather(&mut inputs[slot..slot + INPUT_LEN]) {
                Gathered::Leaf(leaf) => leaves.push(leaf),
                Gathered::Terminal => {}
                Gathered::Busy => {
                    busy = true;
                    break;
                }
            }
            // Before the root is expanded there is nothing else to walk to.
            if !tree.root_expanded() {
                break;
            }
        }
        if leaves.is_empty() {
            // Busy means a leaf of this batch is out; with none, nothing can change (a bug):
            // stop rather than spin.
            if busy {
                return;
            }
            continue;
        }
        let out = model.evaluate(&inputs, leaves.len());
        for (i, leaf) in leaves.drain(..).enumerate() {
            tree.expand(leaf, out.logits_of(i), out.values[i]);
        }
    }
}

/// The `zero` planner.
#[derive(Debug)]
pub struct ZeroPlanner {
    model: Arc<Model>,
    generation: u32,
    tree: Option<Tree>,
    puct: Puct,
    gumbel: bool,
    endgame: Option<Arc<EndgameDb>>,
}

impl ZeroPlanner {
    pub fn new(model: Arc<Model>, generation: u32) -> ZeroPlanner {
        ZeroPlanner {
            model,
            generation,
            tree: None,
            puct: Puct::default(),
            gumbel: false,
            endgame: None,
        }
    }

    /// The same planner with an endgame database: in a position it knows, the planner plays
    /// the database's best move; below the root, positions it knows are valued by it instead
    /// of by the network.
    pub fn with_endgame(mut self, db: Arc<EndgameDb>) -> ZeroPlanner {
        self.endgame = Some(db);
        self.tree = None;
        self
    }

    /// The same planner choosing at the root by Gumbel sequential halving when it searches a
    /// number of simulations (`sims=N`); a timed search stays PUCT, having no budget to halve.
    pub fn with_gumbel(mut self, on: bool) -> ZeroPlanner {
        self.gumbel = on;
        self
    }

    /// The same planner following up to `plies` forced moves past a leaf ([`Puct`]).
    pub fn with_forced_plies(mut self, plies: u8) -> ZeroPlanner {
        self.puct.forced_plies = plies;
        self.tree = None;
        self
    }

    /// The PUCT settings its searches use.
    pub fn puct(&self) -> Puct {
        self.puct
    }

    /// The same planner searching with other PUCT settings.
    pub fn with_puct(mut self, puct: Puct) -> ZeroPlanner {
        self.puct = puct;
        self.tree = None;
        self
    }

    /// The shipped generation `n` (`zero::models_dir()`).
    pub fn shipped(generation: u32) -> Result<ZeroPlanner, ModelError> {
        let dir = zero::models_dir();
        let model = zero::load_generation(&dir, generation)?;
        Ok(ZeroPlanner::new(Arc::new(model), generation))
    }

    /// The tree for `game`: the kept one moved down the moves played since, or a fresh one.
    fn tree_for(&mut self, game: &Game) -> Tree {
        if let Some(mut tree) = self.tree.take() {
            let done = tree.game().moves().len();
            let now = game.moves();
            if now.len() >= done
                && now[..done] == *tree.game().moves()
                && tree.game().start_position() == game.start_position()
                && now[done..].iter().all(|mv| tree.advance(mv))
                && tree.game().positions() == game.positions()
            {
                return tree;
            }
        }
        Tree::new(game.clone(), self.puct).with_endgame(self.endgame.clone())
    }
}

/// The database's best move in `game`, if it knows the position, with the side to move's
/// expected score: the quickest win, else a draw, else the longest loss.
fn database_move(db: &EndgameDb, game: &Game, moves: &[Move]) -> Option<(Move, f64)> {
    db.probe(game.position())?;
    let mut best: Option<((u8, i32), Move)> = None;
    for mv in moves {
        let mut after = game.clone();
        if after.play(mv).is_err() {
            continue;
        }
        // Ranked by outcome (2 win, 1 draw, 0 loss), then by length as that outcome prefers.
        let rank = match after.result() {
            GameResult::Win { .. } => (2, 0),
            GameResult::Draw(_) => (1, 0),
            GameResult::Ongoing => match db.probe(after.position()) {
                Some(Outcome::Loss(plies)) => (2, -i32::from(plies)),
                Some(Outcome::Draw) | None => (1, 0),
                Some(Outcome::Win(plies)) => (0, i32::from(plies)),
            },
        };
        if best.is_none_or(|(r, _)| rank > r) {
            best = Some((rank, *mv));
        }
    }
    let ((outcome, _), mv) = best?;
    Some((mv, f64::from(outcome) / 2.0))
}

impl Planner for ZeroPlanner {
    fn name(&self) -> String {
        format!("zero:gen={}", self.generation)
    }

    fn choose(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &Control,
    ) -> Result<Decision, PlanError> {
        let start = Instant::now();
        let moves = moves_to_plan(game)?;
        if let Some((best, win_probability)) = self
            .endgame
            .as_deref()
            .and_then(|db| database_move(db, game, &moves))
        {
            self.tree = None;
            return Ok(Decision {
                best,
                value: win_probability_to_value(win_probability),
                win_probability,
                stats: SearchStats {
                    depth: 1,
                    seldepth: 1,
                    nodes: moves.len() as u64,
                    elapsed: start.elapsed(),
                    pv: vec![best],
                    ..SearchStats::default()
                },
            });
        }
        let mut tree = self.tree_for(game);
        let reused = u64::from(tree.visits());
        let target = match (limits.sims, limits.time) {
            (Some(n), _) => n,
            (None, Some(_)) => u64::MAX,
            (None, None) => DEFAULT_SIMS,
        };
        if let (true, Some(n)) = (self.gumbel, limits.sims) {
            tree.use_gumbel(u32::try_from(n).unwrap_or(u32::MAX), Vec::new());
        }
        let deadline = limits.time.map(|t| start + t);
        let forced = moves.len() == 1;
        let mut last_report = start;
        let mut sims = 0u64;
        run_search(&mut tree, &self.model, BATCH, |t| {
            let now = Instant::now();
            let new = u64::from(t.visits()).saturating_sub(reused);
            // A forced move is played at once, after the one evaluation that gives its value.
            let stop = (forced && t.root_expanded())
                || t.root_solved().is_some()
                || control.cancelled()
                || new >= target
                || deadline.is_some_and(|d| now >= d);
            if !stop && now - last_report >= REPORT_EVERY {
                last_report = now;
                if let Some((best, q)) = t.best() {
                    control.report(&Progress {
                        depth: t.pv(64).len() as u32,
                        nodes: new,
                        sims: new,
                        best: Some(best),
                        value: win_probability_to_value(f64::from((q + 1.0) / 2.0)),
                        elapsed: now - start,
                    });
                }
            }
            sims = new;
            stop
        });
        let (best, q) = tree.best().unwrap_or((moves[0], 0.0));
        let win_probability = f64::from((q + 1.0) / 2.0).clamp(0.0, 1.0);
        let pv = tree.pv(32);
        let decision = Decision {
            best,
            value: win_probability_to_value(win_probability),
            win_probability,
            stats: SearchStats {
                depth: pv.len() as u32,
                seldepth: pv.len() as u32,
                nodes: sims,
                sims,
                tt_hits: 0,
                elapsed: start.elapsed(),
                pv,
            },
        };
        tree.advance(&best);
        self.tree = Some(tree);
        Ok(decision)
    }

    /// Grows the tree of the opponent's position until cancelled, without choosing: the
    /// opponent's actual move then moves the root down into the grown subtree.
    fn ponder(&mut self, game: &Game, control: &Control) {
        if game.result().is_over() {
            return;
        }
        let mut tree = self.tree_for(game);
        run_search(&mut tree, &self.model, BATCH, |t| {
            control.cancelled() || t.visits() >= PONDER_MAX_VISITS || t.root_solved().is_some()
        });
        self.tree = Some(tree);
    }

    fn new_game(&mut self) {
        self.tree = None;
    }
}

#[cfg(test)]
mod tests;
