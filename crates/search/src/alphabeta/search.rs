//! Negamax with alpha-beta: principal variation search, transposition table, hash move /
//! killer / history ordering, late-move reductions for quiet moves, captures searched to the
//! end (quiescence: captures are forced in draughts, so there is no stand-pat while one is
//! pending), and draws by repetition and by the counting rules.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use draughts::Counters;
use draughts::{Move, MoveList, Position};

use super::evaluator::Evaluator;
use super::net::Accumulator;
use super::tt::{Bound, MoveKey, Table};
use crate::endgame::{EndgameDb, Outcome};
use crate::planner::WIN_SCORE;

pub const MAX_PLY: usize = 128;
pub const INF: i32 = WIN_SCORE + 1;

/// Squares are bits 0..36 of the layout.
const BITS: usize = 36;

/// How much more boldly than the plain search to prune (spec key `prune`: the switches' names
/// joined by `+`, as `prune=futility+log`): the plain search reduces late quiet moves by one ply
/// in null-window nodes and prunes nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pruning {
    /// `deeper`: late quiet moves reduced by two plies in deep null-window nodes, and by one in
    /// principal-variation nodes.
    pub deeper_reductions: bool,
    /// `futility`: quiet moves after the first skipped one and two plies from the horizon, in
    /// null-window nodes whose static value is this far below alpha.
    pub futility: bool,
    /// `log`: reductions that grow with the logarithms of the depth and of the move's place in
    /// the order (in place of the fixed one or two plies).
    pub log_reductions: bool,
    /// `malus`: a quiet move that fails to cut where a later quiet move does loses as much
    /// history as the cutting move gains.
    pub history_malus: bool,
}

impl Pruning {
    /// The switches by their names in a spec, in the order a spec shows them.
    pub const SWITCHES: [&'static str; 4] = ["deeper", "futility", "log", "malus"];

    fn switch(&mut self, name: &str) -> Option<&mut bool> {
        match name {
            "deeper" => Some(&mut self.deeper_reductions),
            "futility" => Some(&mut self.futility),
            "log" => Some(&mut self.log_reductions),
            "malus" => Some(&mut self.history_malus),
            _ => None,
        }
    }

    fn on(&self) -> Vec<&'static str> {
        let flags = [
            self.deeper_reductions,
            self.futility,
            self.log_reductions,
            self.history_malus,
        ];
        Pruning::SWITCHES
            .into_iter()
            .zip(flags)
            .filter_map(|(name, on)| on.then_some(name))
            .collect()
    }
}

impl std::str::FromStr for Pruning {
    type Err = &'static str;

    /// `none`, or switch names joined by `+` (`futility+log+malus`), each at most once.
    fn from_str(text: &str) -> Result<Pruning, Self::Err> {
        const WHY: &str = "expected none, or some of deeper, futility, log and malus joined by +";
        let text = text.trim().to_ascii_lowercase();
        let mut p = Pruning::default();
        if text == "none" {
            return Ok(p);
        }
        for name in text.split('+').map(str::trim) {
            let flag = p.switch(name).ok_or(WHY)?;
            if *flag {
                return Err("a switch is named twice");
            }
            *flag = true;
        }
        Ok(p)
    }
}

impl std::fmt::Display for Pruning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let on = self.on();
        if on.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&on.join("+"))
        }
    }
}

/// The logarithmic reduction of the `i`-th move (from 0) at `depth`, for a quiet move at
/// depth 3 or more: at least one ply from the fourth move on in null-window nodes, one less in
/// principal-variation nodes, and never down into quiescence.
fn log_reduction(depth: i32, i: usize, pv_node: bool) -> i32 {
    if i < 3 {
        return 0;
    }
    let r = match REDUCTIONS.get(depth as usize).and_then(|row| row.get(i)) {
        Some(&r) => i32::from(r),
        None => raw_log_reduction(depth, i),
    };
    let r = if pv_node { r - 1 } else { r.max(1) };
    r.clamp(0, depth - 2)
}

fn raw_log_reduction(depth: i32, i: usize) -> i32 {
    ((depth as f32).ln() * ((i + 1) as f32).ln() / 1.6) as i32
}

/// [`raw_log_reduction`] for the depths and move numbers most nodes have: two logarithms a
/// node came to more than a percent of the search's time.
static REDUCTIONS: std::sync::LazyLock<Vec<[u8; 64]>> = std::sync::LazyLock::new(|| {
    (0..64)
        .map(|depth| std::array::from_fn(|i| raw_log_reduction(depth.max(1), i) as u8))
        .collect()
});

/// Futility margin per ply of depth left, in hundredths of a man.
const FUTILITY_MARGIN: i32 = 90;

/// History counters of one search thread: what survives from one search to the next beside
/// the shared table.
#[derive(Clone, Debug)]
pub struct History(Vec<[i32; BITS]>);

impl Default for History {
    fn default() -> Self {
        History(vec![[0; BITS]; BITS])
    }
}

/// History counters stay within this either side of zero: a move that often failed to cut
/// can still win its place back, and one that often cut can still lose it.
const HISTORY_MAX: i32 = 1 << 20;

impl History {
    pub fn clear(&mut self) {
        for row in self.0.iter_mut() {
            row.fill(0);
        }
    }

    /// Halves the counters so old searches weigh less than the current one.
    pub fn age(&mut self) {
        for row in self.0.iter_mut() {
            for h in row.iter_mut() {
                *h /= 2;
            }
        }
    }

    fn get(&self, mv: &Move) -> i32 {
        self.0[mv.from().bit() as usize][mv.to().bit() as usize]
    }

    fn reward(&mut self, mv: &Move, depth: i32) {
        self.add(mv, depth.max(0) * depth.max(0));
    }

    fn penalize(&mut self, mv: &Move, depth: i32) {
        self.add(mv, -(depth.max(0) * depth.max(0)));
    }

    fn add(&mut self, mv: &Move, amount: i32) {
        let h = &mut self.0[mv.from().bit() as usize][mv.to().bit() as usize];
        *h = (*h + amount).clamp(-HISTORY_MAX, HISTORY_MAX);
    }
}

#[derive(Debug)]
pub struct Search<'a> {
    pub tt: &'a Table,
    pub history: &'a mut History,
    pub eval: &'a Evaluator,
    pub cancel: &'a AtomicBool,
    pub deadline: Option<Instant>,
    pub node_limit: Option<u64>,
    pub endgame: Option<&'a EndgameDb>,
    pub nodes: u64,
    pub seldepth: u32,
    pub tt_hits: u64,
    pub stopped: bool,
    pub pruning: Pruning,
    /// A draw by repetition or by the counting rules is worth this many hundredths of a man
    /// less than equal to the side to move at the root, and as much more to its opponent: a
    /// stronger side plays on rather than take a draw it need not take. (The endgame
    /// database's draws keep their own small value, [`Search::probe`].)
    pub contempt: i32,
    killers: Vec<[MoveKey; 2]>,
    /// Hashes of the positions before the current one: the game's, then the search path's.
    path: Vec<u64>,
    /// Best root move of the iteration in progress, once its first move has been searched.
    pub root_best: Option<(Move, i32)>,
    /// The principal variation from each ply (triangular table).
    pub pv: Vec<Vec<Move>>,
    /// Ordering scores per ply, kept to avoid allocating at every node.
    score_stack: Vec<Vec<i32>>,
    /// The search path's positions by ply, with their network sums once a leaf below needed
    /// them; empty unless the network runs incrementally.
    net_path: Vec<NetSlot>,
}

/// A position of the search path and its network sums ([`Accumulator`]).
#[derive(Clone, Debug, Default)]
struct NetSlot {
    pos: Position,
    acc: Accumulator,
    ready: bool,
}

/// How far up the path a leaf looks for sums to update from: a ply's update touches two to
/// four rows for each colour, summing afresh one row per piece for each.
const NET_WALK: usize = 4;

impl<'a> Search<'a> {
    pub fn new(
        tt: &'a Table,
        history: &'a mut History,
        eval: &'a Evaluator,
        cancel: &'a AtomicBool,
        game_path: Vec<u64>,
    ) -> Search<'a> {
        Search {
            tt,
            history,
            eval,
            cancel,
            deadline: None,
            node_limit: None,
            endgame: None,
            nodes: 0,
            seldepth: 0,
            tt_hits: 0,
            stopped: false,
            pruning: Pruning::default(),
            contempt: 0,
            killers: vec![[MoveKey::NONE; 2]; MAX_PLY + 1],
            path: game_path,
            root_best: None,
            pv: vec![Vec::new(); MAX_PLY + 2],
            score_stack: vec![Vec::new(); MAX_PLY + 1],
            net_path: if eval.net.as_ref().is_some_and(|n| n.incremental()) {
                vec![NetSlot::default(); MAX_PLY + 1]
            } else {
                Vec::new()
            },
        }
    }

    /// Evaluates every leaf from scratch, as a search without the path's sums would.
    #[cfg(test)]
    pub(crate) fn without_kept_sums(&mut self) {
        self.net_path.clear();
    }

    /// The evaluation of `pos`, the path's position at `ply`: where the network runs
    /// incrementally, from the sums of the nearest position up the path that has them.
    fn evaluate(&mut self, pos: &Position, ply: u32) -> i32 {
        let eval = self.eval;
        let p = ply as usize;
        let Some(net) = eval.net_for(pos).filter(|_| p < self.net_path.len()) else {
            return eval.evaluate(pos);
        };
        let mut from = p;
        while !self.net_path[from].ready && from > 0 && p - from < NET_WALK {
            from -= 1;
        }
        if !self.net_path[from].ready {
            // Summed afresh as far up as the walk went, so that the leaves around this one
            // find sums near them.
            let slot = &mut self.net_path[from];
            net.refresh(&slot.pos, &mut slot.acc);
            slot.ready = true;
        }
        for k in from + 1..=p {
            let (up, down) = self.net_path.split_at_mut(k);
            let (parent, slot) = (&up[k - 1], &mut down[0]);
            net.update(&parent.pos, &parent.acc, &slot.pos, &mut slot.acc);
            slot.ready = true;
        }
        let correction = net.output_from(&self.net_path[p].acc, pos.side_to_move());
        eval.base(pos) + correction.round() as i32
    }

    fn check_limits(&mut self) {
        if self.cancel.load(Ordering::Relaxed)
            || self.node_limit.is_some_and(|n| self.nodes >= n)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.stopped = true;
        }
    }

    /// Whether `hash` occurred since the last irreversible move with the same side to move.
    fn repeated(&self, hash: u64, reversible: u16) -> bool {
        let n = self.path.len();
        let window = (reversible as usize).min(n);
        // path[n - 1] is the position one ply back (other side to move); same side is 2 back.
        let mut back = 2;
        while back <= window {
            if self.path[n - back] == hash {
                return true;
            }
            back += 2;
        }
        false
    }

    /// Ordering scores for `list`, in the same order.
    fn scores(
        &self,
        list: &MoveList,
        pos: &Position,
        hash_move: MoveKey,
        ply: usize,
        out: &mut Vec<i32>,
    ) {
        let killers = self.killers[ply];
        let kings = pos.all_kings();
        out.clear();
        out.extend(list.iter().map(|m| {
            let key = MoveKey::of(m);
            if key == hash_move && hash_move.is_some() {
                1 << 30
            } else if m.is_capture() {
                (1 << 24)
                    + 100 * m.captured().count_ones() as i32
                    + 150 * (m.captured() & kings).count_ones() as i32
                    + if m.promotes() { 50 } else { 0 }
            } else if m.promotes() {
                1 << 23
            } else if key == killers[0] {
                (1 << 22) + 1
            } else if key == killers[1] {
                1 << 22
            } else {
                self.history.get(m).min((1 << 21) - 1)
            }
        }));
    }

    /// The endgame database's value of `pos`, if it has one the counting rules let stand: a
    /// win that takes longer than they allow is left to the search. A draw keeps an eighth of
    /// the evaluation.
    fn probe(&self, pos: &Position, counters: Counters, ply: u32) -> Option<i32> {
        let outcome = self.endgame?.probe(pos)?;
        let in_time = |d: u8| u16::from(d) <= counters.plies_to_counting_draw(pos);
        let mate = |d: u8| WIN_SCORE - ply as i32 - i32::from(d);
        match outcome {
            // Not 0: among drawn endings the one with more material still gives a fallible
            // opponent more ways to go wrong. Not more than an eighth: a quarter made a drawn
            // three against a lone king look as good as pressing on (docs/planners.md).
            Outcome::Draw => Some(self.eval.evaluate(pos) / 8),
            Outcome::Win(d) if in_time(d) => Some(mate(d)),
            Outcome::Loss(d) if in_time(d) => Some(-mate(d)),
            _ => None,
        }
    }

    /// The negamax value of `pos` for the side to move.
    pub fn negamax(
        &mut self,
        pos: &Position,
        counters: Counters,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        self.pv[ply as usize].clear();
        if let Some(slot) = self.net_path.get_mut(ply as usize) {
            slot.pos = *pos;
            slot.ready = false;
        }
        let hash = pos.hash();
        let pv_node = beta - alpha > 1;
        if ply > 0 {
            if self.repeated(hash, counters.reversible_plies) || counters.draw(pos).is_some() {
                return if ply.is_multiple_of(2) {
                    -self.contempt
                } else {
                    self.contempt
                };
            }
            // No line from here can beat a win already found nearer the root.
            let alpha_m = alpha.max(-(WIN_SCORE - ply as i32));
            let beta_m = beta.min(WIN_SCORE - ply as i32 - 1);
            if alpha_m >= beta_m {
                return alpha_m;
            }
            if let Some(value) = self.probe(pos, counters, ply) {
                return value;
            }
        }
        let mut list = MoveList::new();
        pos.generate_into(&mut list);
        if list.is_empty() {
            return -(WIN_SCORE - ply as i32);
        }
        let capture = list[0].is_capture();
        if ply as usize >= MAX_PLY - 1 || (depth <= 0 && !capture) {
            return self.evaluate(pos, ply);
        }

        let mut hash_move = MoveKey::NONE;
        if let Some(hit) = self.tt.probe(hash, ply) {
            self.tt_hits += 1;
            hash_move = hit.mv;
            if !pv_node && ply > 0 && hit.depth >= depth {
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.value >= beta,
                    Bound::Upper => hit.value <= alpha,
                };
                if cut {
                    return hit.value;
                }
            }
        }

        // No one-reply extension: measured, it multiplied the nodes of a depth-12 search from
        // the start by five, for lines that quiescence already follows through the captures.
        let next_depth = depth - 1;
        // The static value is read only where it could prune: near the horizon, away from
        // decided scores.
        let futile = self.pruning.futility
            && !pv_node
            && !capture
            && ply > 0
            && depth <= 2
            && alpha.abs() < WIN_SCORE / 2
            && self.evaluate(pos, ply) + FUTILITY_MARGIN * depth <= alpha;
        let mut scores = std::mem::take(&mut self.score_stack[ply as usize]);
        self.scores(&list, pos, hash_move, ply as usize, &mut scores);
        let alpha_orig = alpha;
        let mut best = -INF;
        let mut best_move = MoveKey::NONE;
        for i in 0..list.len() {
            // Selection sort, one step per move: a cutoff usually comes before the list is
            // sorted. Ties keep the generator's order, so the search stays deterministic.
            let mut pick = i;
            for j in i + 1..list.len() {
                if scores[j] > scores[pick] {
                    pick = j;
                }
            }
            list.swap(i, pick);
            scores.swap(i, pick);
            let mv = &list[i];
            let quiet = !mv.is_capture() && !mv.promotes();
            if futile && i > 0 && quiet {
                continue;
            }
            let child = pos.after(mv);
            let child_counters = counters.after(pos, mv);
            self.path.push(hash);
            let score = if i == 0 {
                -self.negamax(&child, child_counters, next_depth, -beta, -alpha, ply + 1)
            } else {
                let deeper = self.pruning.deeper_reductions;
                let reduce = if !quiet || depth < 3 {
                    0
                } else if self.pruning.log_reductions {
                    log_reduction(depth, i, pv_node)
                } else if !pv_node && i >= 3 {
                    if deeper && depth >= 5 && i >= 6 {
                        2
                    } else {
                        1
                    }
                } else if deeper && pv_node && i >= 5 {
                    1
                } else {
                    0
                };
                let mut s = -self.negamax(
                    &child,
                    child_counters,
                    next_depth - reduce,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                );
                if s > alpha && (reduce > 0 || s < beta) {
                    s = -self.negamax(&child, child_counters, next_depth, -beta, -alpha, ply + 1);
                }
                s
            };
            self.path.pop();
            if self.stopped {
                self.score_stack[ply as usize] = scores;
                return 0;
            }
            if score > best {
                best = score;
                best_move = MoveKey::of(mv);
                if score > alpha {
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply as usize + 1);
                        let line = &mut head[ply as usize];
                        line.clear();
                        line.push(*mv);
                        line.extend_from_slice(&tail[0]);
                    }
                    if ply == 0 {
                        // Only a move proven better than the window's floor may replace the
                        // previous iteration's choice if the search stops early.
                        self.root_best = Some((*mv, score));
                    }
                    alpha = score;
                    if alpha >= beta {
                        if quiet {
                            let k = &mut self.killers[ply as usize];
                            if k[0] != best_move {
                                k[1] = k[0];
                                k[0] = best_move;
                            }
                            self.history.reward(mv, depth);
                            if self.pruning.history_malus {
                                for tried in &list[..i] {
                                    if !tried.is_capture() && !tried.promotes() {
                                        self.history.penalize(tried, depth);
                                    }
                                }
                            }
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(hash, ply, depth, best, bound, best_move);
        self.score_stack[ply as usize] = scores;
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_counters_stay_within_their_bounds_either_side_of_zero() {
        let moves = Position::start().legal_moves();
        let (mv, other) = (&moves[0], &moves[1]);
        let mut history = History::default();
        history.reward(mv, 4);
        assert_eq!(history.get(mv), 16);
        history.penalize(mv, 5);
        assert_eq!(history.get(mv), -9);
        for _ in 0..1000 {
            history.penalize(mv, 60);
        }
        assert_eq!(history.get(mv), -HISTORY_MAX);
        assert_eq!(history.get(other), 0);
        history.age();
        assert_eq!(history.get(mv), -HISTORY_MAX / 2);
        for _ in 0..1000 {
            history.reward(other, 60);
        }
        assert_eq!(history.get(other), HISTORY_MAX);
    }

    #[test]
    fn the_reduction_table_gives_the_formula_s_reductions() {
        for depth in 3..90 {
            for i in 0..100 {
                for pv_node in [false, true] {
                    let expected = if i < 3 {
                        0
                    } else {
                        let r = raw_log_reduction(depth, i);
                        let r = if pv_node { r - 1 } else { r.max(1) };
                        r.clamp(0, depth - 2)
                    };
                    assert_eq!(log_reduction(depth, i, pv_node), expected, "{depth} {i}");
                }
            }
        }
    }
}
