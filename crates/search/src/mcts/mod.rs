//! Monte Carlo tree search (UCT) with the engine's random playouts, after
//! `seeds/mcts-connect-four-robot-arm-thesis.txt`: UCB1 selection, robust-max-child final
//! choice (most visits), time or simulation limits with a minimum simulation count, and the
//! tree kept between moves when the game went down a line it holds.
//!
//! Both cores: root parallelism. Each thread grows its own tree from its own random stream;
//! the root children's visits and rewards are summed before the choice. With a `sims` limit
//! each thread runs a fixed share, so a given seed, sims limit and thread count always give
//! the same move; with a `time` limit the result depends on the machine's speed.

mod tree;

pub(crate) use tree::MAX_PLAYOUT_PLIES;

use std::time::{Duration, Instant};

use draughts::Rng;
use draughts::{Game, Move, Position};

use crate::planner::{
    moves_to_plan, win_probability_to_value, Control, Decision, Limits, PlanError, Planner,
    Progress, SearchStats,
};
use tree::Tree;

/// Simulations per move when no limit is given.
pub const DEFAULT_SIMS: u64 = 10_000;
/// Even when time runs out, at least this many simulations run (unless cancelled), so the
/// choice is never a blind one.
pub const MIN_SIMS: u64 = 200;

#[derive(Debug)]
pub struct Mcts {
    seed: u64,
    threads: usize,
    trees: Vec<Tree>,
    /// The game as it stood at the last search, to find what was played since.
    last: Option<Game>,
}

impl Mcts {
    pub fn new(seed: u64, threads: usize) -> Mcts {
        let threads = threads.max(1);
        let start = Position::start();
        let counters = draughts::Counters::new(&start);
        let trees = (0..threads)
            .map(|t| {
                let s = seed ^ (t as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                Tree::new(start, counters, Rng::new(s))
            })
            .collect();
        Mcts {
            seed,
            threads,
            trees,
            last: None,
        }
    }

    /// The moves played since the last search, if the game continues that one.
    fn played_since(&self, game: &Game) -> Option<Vec<Move>> {
        let last = self.last.as_ref()?;
        let n = last.ply_count();
        if game.ply_count() < n
            || game.start_position() != last.start_position()
            || game.moves()[..n] != last.moves()[..]
        {
            return None;
        }
        Some(game.moves()[n..].to_vec())
    }
}

struct Budget {
    deadline: Option<Instant>,
    sims: u64,
    min_sims: u64,
}

fn run_thread(
    tree: &mut Tree,
    budget: &Budget,
    control: &Control,
    reporter: bool,
    threads: u64,
) -> u64 {
    let started = Instant::now();
    let mut done = 0u64;
    while done < budget.sims {
        if control.cancelled() {
            break;
        }
        if done >= budget.min_sims
            && done.is_multiple_of(16)
            && budget.deadline.is_some_and(|d| Instant::now() >= d)
        {
            break;
        }
        tree.iterate();
        done += 1;
        if reporter && done.is_multiple_of(8192) {
            let root = &tree.nodes[0];
            let best = root
                .children()
                .max_by_key(|&c| tree.nodes[c].visits)
                .and_then(|c| tree.nodes[c].mv);
            control.report(&Progress {
                depth: tree.max_depth,
                nodes: tree.nodes.len() as u64 * threads,
                sims: done * threads,
                best,
                value: 0,
                elapsed: started.elapsed(),
            });
        }
    }
    done
}

impl Planner for Mcts {
    fn name(&self) -> String {
        format!("mcts:threads={},seed={}", self.threads, self.seed)
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
        let since = self.played_since(game);
        for tree in self.trees.iter_mut() {
            match &since {
                Some(played) => {
                    tree.reroot(played, pos, counters);
                }
                None => tree.reset(pos, counters),
            }
        }
        self.last = Some(game.clone());

        let total_sims = match (limits.sims, limits.time) {
            (Some(n), _) => n,
            (None, Some(_)) => u64::MAX,
            (None, None) => DEFAULT_SIMS,
        };
        let threads = self.threads as u64;
        // A forced move needs no search when a clock is running.
        let forced = moves.len() == 1 && limits.time.is_some();
        let budgets: Vec<Budget> = (0..threads)
            .map(|t| {
                let share = if total_sims == u64::MAX {
                    u64::MAX
                } else {
                    total_sims / threads + u64::from(t < total_sims % threads)
                };
                Budget {
                    deadline: limits
                        .time
                        .map(|d| started + d.saturating_sub(Duration::from_millis(1))),
                    sims: if forced { 0 } else { share },
                    min_sims: if forced {
                        0
                    } else {
                        (MIN_SIMS / threads).min(share)
                    },
                }
            })
            .collect();
        let done: Vec<u64> = std::thread::scope(|s| {
            let handles: Vec<_> = self
                .trees
                .iter_mut()
                .zip(budgets.iter())
                .enumerate()
                .map(|(i, (tree, budget))| {
                    s.spawn(move || run_thread(tree, budget, control, i == 0, threads))
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or(0)).collect()
        });

        // Robust max child over all trees: the move with the most visits in total.
        let mut totals: Vec<(Move, u64, f64)> = moves.iter().map(|m| (*m, 0, 0.0)).collect();
        for tree in &self.trees {
            let root = &tree.nodes[0];
            if !root.expanded {
                continue;
            }
            for c in root.children() {
                let n = &tree.nodes[c];
                if let Some(t) = totals.iter_mut().find(|t| Some(t.0) == n.mv) {
                    t.1 += u64::from(n.visits);
                    t.2 += n.reward;
                }
            }
        }
        let mut best = totals[0];
        for t in &totals[1..] {
            if t.1 > best.1 {
                best = *t;
            }
        }
        let p = if best.1 > 0 {
            best.2 / best.1 as f64
        } else {
            0.5
        };
        let mut pv = vec![best.0];
        if let Some(tree) = self.trees.first() {
            let mut at = tree.nodes[0]
                .children()
                .find(|&c| tree.nodes[c].mv == Some(best.0));
            while let Some(i) = at {
                let next = tree.nodes[i]
                    .children()
                    .filter(|&c| tree.nodes[c].visits > 0)
                    .max_by_key(|&c| tree.nodes[c].visits);
                match next.and_then(|c| tree.nodes[c].mv.map(|m| (c, m))) {
                    Some((c, m)) if pv.len() < 30 => {
                        pv.push(m);
                        at = Some(c);
                    }
                    _ => break,
                }
            }
        }
        let stats = SearchStats {
            depth: self.trees.iter().map(|t| t.max_depth).max().unwrap_or(0),
            seldepth: self.trees.iter().map(|t| t.max_depth).max().unwrap_or(0),
            nodes: self.trees.iter().map(|t| t.nodes.len() as u64).sum(),
            sims: done.iter().sum(),
            tt_hits: 0,
            elapsed: started.elapsed(),
            pv,
        };
        Ok(Decision {
            best: best.0,
            value: win_probability_to_value(p),
            win_probability: p,
            stats,
        })
    }

    fn new_game(&mut self) {
        *self = Mcts::new(self.seed, self.threads);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sims(n: u64) -> Limits {
        Limits {
            sims: Some(n),
            ..Limits::default()
        }
    }

    #[test]
    fn same_seed_and_sims_same_choice_with_two_threads() {
        let game = Game::new();
        let a = Mcts::new(5, 2)
            .choose(&game, &sims(3000), &Control::default())
            .expect("move");
        let b = Mcts::new(5, 2)
            .choose(&game, &sims(3000), &Control::default())
            .expect("move");
        assert_eq!(a.best, b.best);
        assert_eq!(a.stats.sims, 3000);
        assert_eq!(b.stats.sims, 3000);
        assert_eq!(a.win_probability, b.win_probability);
    }

    #[test]
    fn takes_the_winning_capture() {
        let game = Game::from_fen("W:Wc3,Kh2:Bd4").expect("fen");
        let d = Mcts::new(1, 2)
            .choose(&game, &sims(500), &Control::default())
            .expect("move");
        assert_eq!(d.best.text(), "c3:e5");
        assert!(d.win_probability > 0.99);
    }

    #[test]
    fn reuses_the_subtree_of_the_line_played() {
        let mut game = Game::new();
        let mut m = Mcts::new(3, 1);
        let first = m
            .choose(&game, &sims(4000), &Control::default())
            .expect("move");
        game.play(&first.best).expect("legal");
        let reply = first
            .stats
            .pv
            .get(1)
            .copied()
            .unwrap_or(game.legal_moves()[0]);
        game.play(&reply).expect("legal");
        let kept_before = {
            let played = m.played_since(&game).expect("same game");
            assert_eq!(played.len(), 2);
            m.trees[0].find(&played).map(|i| m.trees[0].nodes[i].visits)
        };
        let second = m
            .choose(&game, &sims(10), &Control::default())
            .expect("move");
        let kept = kept_before.expect("the expected line is in the tree");
        assert!(kept > 10);
        // The root's visits carry over: more than the 10 new simulations.
        assert!(m.trees[0].nodes[0].visits as u64 > 10, "{kept}");
        assert!(game.legal_moves().contains(&second.best));
    }

    #[test]
    fn cancelled_search_still_answers() {
        let control = Control::default();
        control
            .cancel
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let game = Game::new();
        let d = Mcts::new(1, 2)
            .choose(&game, &sims(1_000_000), &control)
            .expect("move");
        assert!(game.legal_moves().contains(&d.best));
        assert_eq!(d.stats.sims, 0);
    }
}
