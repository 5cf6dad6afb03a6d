//! Gumbel root selection with sequential halving (Danihelka, Guez, Schrittwieser and Silver,
//! "Policy improvement by planning with Gumbel", ICLR 2022), for searches of few simulations.
//!
//! PUCT with a few dozen visits spends them on the moves the prior likes and may never look at
//! the one that refutes them. Here the root instead considers the `m` moves of highest
//! `g + logit` (g: Gumbel noise, zero when the planner plays rather than trains; `m` at most
//! [`CONSIDERED`] and at most the budget), visits the ones still in the running equally, and
//! after each of `ceil(log2 m)` phases keeps the better half by `g + logit + sigma(q)`. The
//! move played is the survivor. Below the root the walk is PUCT.

/// Moves considered at the root at most.
pub const CONSIDERED: usize = 16;
/// `sigma(q) = (C_VISIT + max visits) * C_SCALE * q`, q mapped to [0, 1]: the paper's
/// monotone transform with its constants, so that q weighs more as the counts grow.
const C_VISIT: f32 = 50.0;
const C_SCALE: f32 = 0.1;

/// A root move in the running.
#[derive(Clone, Debug)]
struct Candidate {
    /// The root child's index in the tree.
    child: u32,
    /// `g + logit`.
    score: f32,
    /// The child's visits when the schedule started (a reused tree has some already).
    start: u32,
}

/// What the schedule needs to know of a root child.
#[derive(Clone, Copy, Debug)]
pub struct ChildStats {
    pub visits: u32,
    /// Mean value for the side to move at the root, in [-1, 1]; `None` unvisited.
    pub q: Option<f32>,
}

/// The sequential-halving schedule of one search at the root.
#[derive(Clone, Debug)]
pub struct Halving {
    /// Sorted so that the moves still in the running are the first `remaining`.
    candidates: Vec<Candidate>,
    remaining: usize,
    /// Visits each move in the running reaches (above its start) by the end of this phase.
    target: u32,
    /// Simulations each phase may spend.
    per_phase: u32,
}

/// `ln p`, kept finite for a zero prior.
fn logit(prior: f32) -> f32 {
    prior.max(1e-12).ln()
}

impl Halving {
    /// The schedule for `budget` simulations over the root's children, given as (child index,
    /// prior, visits so far), each with its Gumbel draw in `gumbel` (zeros for a deterministic
    /// choice).
    pub fn new(children: &[(u32, f32, u32)], gumbel: &[f32], budget: u32) -> Halving {
        let mut candidates: Vec<Candidate> = children
            .iter()
            .zip(gumbel.iter().chain(std::iter::repeat(&0.0)))
            .map(|(&(child, prior, visits), g)| Candidate {
                child,
                score: g + logit(prior),
                start: visits,
            })
            .collect();
        candidates.sort_by(|a, b| b.score.total_cmp(&a.score));
        // Each move considered needs a visit in the first phase.
        candidates.truncate(CONSIDERED.min(budget.max(1) as usize));
        let m = candidates.len().max(1);
        let phases = (m as f32).log2().ceil().max(1.0) as u32;
        let per_phase = (budget / phases).max(1);
        let mut h = Halving {
            candidates,
            remaining: m,
            target: 0,
            per_phase,
        };
        h.target = h.allotment();
        h
    }

    /// Visits each move in the running gets in a phase.
    fn allotment(&self) -> u32 {
        (self.per_phase / self.remaining.max(1) as u32).max(1)
    }

    /// `g + logit + sigma(q)`, an unvisited move's q taken as the root's.
    fn key(c: &Candidate, s: ChildStats, root_q: f32, max_visits: u32) -> f32 {
        let q = s.q.unwrap_or(root_q);
        c.score + (C_VISIT + max_visits as f32) * C_SCALE * (q + 1.0) / 2.0
    }

    /// The move in the running with the fewest visits this search (ties to the one ranked
    /// first: by `g + logit` before the first halving, by the halving's key after).
    /// `stats(child)` gives a root child's visits, virtual ones included.
    pub fn pick(&self, stats: impl Fn(u32) -> ChildStats) -> u32 {
        self.candidates[..self.remaining]
            .iter()
            .min_by_key(|c| stats(c.child).visits.saturating_sub(c.start))
            .map_or(u32::MAX, |c| c.child)
    }

    /// True when every move in the running has had this phase's visits.
    pub fn phase_done(&self, stats: impl Fn(u32) -> ChildStats) -> bool {
        self.remaining > 1
            && self.candidates[..self.remaining]
                .iter()
                .all(|c| stats(c.child).visits.saturating_sub(c.start) >= self.target)
    }

    /// Ends the phase: the better half by `g + logit + sigma(q)` goes on. Call with no
    /// evaluation pending, so the values are real ones.
    pub fn halve(&mut self, stats: impl Fn(u32) -> ChildStats, root_q: f32) {
        let max_visits = self.max_visits(&stats);
        let key = |c: &Candidate| Self::key(c, stats(c.child), root_q, max_visits);
        let running = &mut self.candidates[..self.remaining];
        running.sort_by(|a, b| key(b).total_cmp(&key(a)));
        self.remaining = self.remaining.div_ceil(2);
        self.target += self.allotment();
    }

    fn max_visits(&self, stats: &impl Fn(u32) -> ChildStats) -> u32 {
        self.candidates
            .iter()
            .map(|c| stats(c.child).visits)
            .max()
            .unwrap_or(0)
    }

    /// The move to play: the best in the running by `g + logit + sigma(q)`.
    pub fn best(&self, stats: impl Fn(u32) -> ChildStats, root_q: f32) -> Option<u32> {
        let max_visits = self.max_visits(&stats);
        self.candidates[..self.remaining]
            .iter()
            .map(|c| (Self::key(c, stats(c.child), root_q, max_visits), c.child))
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, child)| child)
    }

    /// Moves still in the running.
    #[cfg(test)]
    pub fn remaining(&self) -> usize {
        self.remaining
    }
}

/// The improved policy the paper trains on: `softmax(logit + sigma(completed q))` over all the
/// root's moves, where an unvisited move's q is completed with the root's value. Unlike visit
/// shares, it is a sound target even when only a few moves were searched.
pub fn improved_policy(children: &[(f32, ChildStats)], root_q: f32) -> Vec<f32> {
    let max_visits = children.iter().map(|c| c.1.visits).max().unwrap_or(0);
    let scale = (C_VISIT + max_visits as f32) * C_SCALE;
    let scores: Vec<f32> = children
        .iter()
        .map(|(prior, s)| logit(*prior) + scale * (s.q.unwrap_or(root_q) + 1.0) / 2.0)
        .collect();
    let top = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let exp: Vec<f32> = scores.iter().map(|x| (x - top).exp()).collect();
    let sum: f32 = exp.iter().sum();
    exp.iter().map(|e| e / sum.max(f32::MIN_POSITIVE)).collect()
}

/// A draw of the standard Gumbel distribution from `u`, uniform in (0, 1).
pub fn gumbel_draw(u: f32) -> f32 {
    -(-(u.clamp(1e-9, 1.0 - 1e-7)).ln()).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats_of(table: &[(u32, Option<f32>)]) -> impl Fn(u32) -> ChildStats + '_ {
        move |c| ChildStats {
            visits: table[c as usize].0,
            q: table[c as usize].1,
        }
    }

    #[test]
    fn the_top_priors_are_considered_and_visited_evenly() {
        let children: Vec<(u32, f32, u32)> =
            (0..20).map(|i| (i, 1.0 / (1.0 + i as f32), 0)).collect();
        let h = Halving::new(&children, &[], 64);
        assert_eq!(h.remaining(), CONSIDERED);
        // Child 0 has the highest prior; with equal visits the tie goes to it.
        let table = vec![(0, None); 20];
        assert_eq!(h.pick(stats_of(&table)), 0);
        let mut table = table;
        table[0].0 = 1;
        assert_eq!(h.pick(stats_of(&table)), 1);
        // The low-prior moves past the first 16 are never picked.
        for row in table.iter_mut().take(16) {
            row.0 = 1;
        }
        let picked = h.pick(stats_of(&table));
        assert!(picked < 16, "{picked}");
    }

    #[test]
    fn halving_keeps_the_better_values_and_ends_on_one() {
        // Four moves, equal priors: two phases of 8 simulations.
        let children: Vec<(u32, f32, u32)> = (0..4).map(|i| (i, 0.25, 0)).collect();
        let mut h = Halving::new(&children, &[], 16);
        let table = vec![
            (2, Some(-0.5)),
            (2, Some(0.9)),
            (2, Some(0.1)),
            (2, Some(-0.9)),
        ];
        assert!(h.phase_done(stats_of(&table)));
        h.halve(stats_of(&table), 0.0);
        assert_eq!(h.remaining(), 2);
        let table = vec![
            (2, Some(-0.5)),
            (6, Some(0.2)),
            (6, Some(0.6)),
            (2, Some(-0.9)),
        ];
        assert!(h.phase_done(stats_of(&table)));
        h.halve(stats_of(&table), 0.0);
        assert_eq!(h.remaining(), 1);
        assert!(!h.phase_done(stats_of(&table)));
        assert_eq!(h.best(stats_of(&table), 0.0), Some(2));
    }

    #[test]
    fn gumbel_noise_changes_which_moves_are_considered() {
        let children: Vec<(u32, f32, u32)> =
            (0..20).map(|i| (i, 1.0 / (1.0 + i as f32), 0)).collect();
        let mut g = vec![0.0; 20];
        g[19] = 100.0;
        let h = Halving::new(&children, &g, 64);
        let table = vec![(0, None); 20];
        assert_eq!(h.pick(stats_of(&table)), 19);
    }

    #[test]
    fn a_reused_subtree_counts_only_this_searchs_visits() {
        let children = [(0, 0.9, 30), (1, 0.1, 0)];
        let h = Halving::new(&children, &[], 8);
        let table = vec![(30, Some(0.1)), (0, None)];
        // Child 0 has no visits of this search yet either; it goes first on its score.
        assert_eq!(h.pick(stats_of(&table)), 0);
        let table = vec![(31, Some(0.1)), (0, None)];
        assert_eq!(h.pick(stats_of(&table)), 1);
    }

    #[test]
    fn the_improved_policy_moves_weight_to_the_better_values() {
        let s = |visits, q| ChildStats { visits, q };
        // Equal priors; the move found better takes most of the weight, the unvisited one
        // sits between them at the root's value.
        let p = improved_policy(
            &[
                (0.5, s(8, Some(0.8))),
                (0.3, s(8, Some(-0.8))),
                (0.2, s(0, None)),
            ],
            0.0,
        );
        assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert!(p[0] > 0.9, "{p:?}");
        assert!(p[2] > p[1], "{p:?}");
        // With no visits it is the prior.
        let p = improved_policy(&[(0.75, s(0, None)), (0.25, s(0, None))], 0.3);
        assert!((p[0] - 0.75).abs() < 1e-5, "{p:?}");
    }

    #[test]
    fn gumbel_draws_are_finite_at_the_ends() {
        assert!(gumbel_draw(0.0).is_finite());
        assert!(gumbel_draw(1.0).is_finite());
        assert!(gumbel_draw(0.2) < gumbel_draw(0.8));
    }
}
