//! The AlphaZero planner: PUCT search guided by a generation of the policy-value network
//! (`crates/zero`), with leaves evaluated in batches under virtual loss, the tree kept between
//! moves, and the value head's belief as the win probability.

pub mod gumbel;
pub mod noise;
pub mod tree;

use std::sync::Arc;
use std::time::{Duration, Instant};

use draughts::Game;
use zero::encode::INPUT_LEN;
use zero::{Model, ModelError};

use crate::planner::{moves_to_plan, win_probability_to_value};
use crate::{Control, Decision, Limits, PlanError, Planner, Progress, SearchStats};
pub use tree::{Gathered, Leaf, Puct, Tree, FORCED_PLIES};

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
}

impl ZeroPlanner {
    pub fn new(model: Arc<Model>, generation: u32) -> ZeroPlanner {
        ZeroPlanner {
            model,
            generation,
            tree: None,
            puct: Puct::default(),
            gumbel: false,
        }
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
        Tree::new(game.clone(), self.puct)
    }
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
            control.cancelled() || t.visits() >= PONDER_MAX_VISITS
        });
        self.tree = Some(tree);
    }

    fn new_game(&mut self) {
        self.tree = None;
    }
}

#[cfg(test)]
mod tests;
