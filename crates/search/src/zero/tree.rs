//! The PUCT tree of AlphaZero, with virtual loss so that leaves are evaluated in batches.
//!
//! A search repeats: [`Tree::gather`] walks from the root to a leaf by PUCT, marking the path
//! with a virtual loss so the next walk goes elsewhere, and hands back the leaf's encoded
//! position; the caller evaluates a batch of such leaves with the network and gives each its
//! logits and value through [`Tree::expand`]. Game ends are backed up at once.

use std::sync::Arc;

use draughts::{random_playout, Rng};
use draughts::{Color, Game, GameResult, Move};
use zero::encode::{encode_into, move_priors};

use crate::endgame::{EndgameDb, Outcome};
use crate::mcts::MAX_PLAYOUT_PLIES;

use super::gumbel::{improved_policy, ChildStats, Halving};

const NONE: u32 = u32::MAX;
/// An exact value above this is a win (a game end is 1, a database win at least 0.7).
const WON: f32 = 0.5;
/// The playouts' generator starts here in every tree, so that a search is repeatable.
const PLAYOUT_SEED: u64 = 0x5EED_0F2E_6000;

/// PUCT settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Puct {
    /// Weight of the prior against the mean value.
    pub c_puct: f32,
    /// An unvisited child counts as this much worse than its parent's mean value.
    pub fpu_reduction: f32,
    /// A walk goes on through up to this many forced moves (a position with one legal move,
    /// usually a capture) without asking the network, so that the leaf it evaluates is the
    /// position after the exchange. 0 evaluates every position reached.
    pub forced_plies: u8,
    /// The network's move logits are divided by this before the softmax that makes the
    /// priors: above 1 flattens them, so that a long search also looks at moves the policy
    /// head ranks low (Leela Chess Zero's policy softmax temperature).
    pub policy_temperature: f32,
    /// Game ends (and database values) are proven up the tree (MCTS-Solver, Winands et al.
    /// 2008): a position with a move that wins is won, one whose moves are all known is worth
    /// the best of them; the walk then stops at it, selection reads its exact value instead of
    /// the mean, and the root never plays a proven loss while another move is open.
    pub solver: bool,
    /// Each leaf's value is this share of one random playout's result from it (win 1, draw 0,
    /// loss -1) and the rest the network's value (AlphaGo's mixing, Silver et al. 2016). 0,
    /// the default, is AlphaZero's network alone.
    pub rollout: f32,
}

/// How far a walk follows forced moves when the spec does not say. Following them scored 0.645
/// over 100 games (Elo +104, 95% interval +49 to +155) against evaluating every position, both
/// with generation 8 at 400 visits a move (docs/zero.md).
pub const FORCED_PLIES: u8 = 12;

impl Default for Puct {
    fn default() -> Puct {
        Puct {
            c_puct: 1.5,
            fpu_reduction: 0.2,
            forced_plies: FORCED_PLIES,
            policy_temperature: 1.0,
            solver: false,
            rollout: 0.0,
        }
    }
}

#[derive(Clone, Debug)]
struct Node {
    /// The move that led here (none at the root).
    mv: Option<Move>,
    parent: u32,
    first_child: u32,
    children: u16,
    expanded: bool,
    /// A leaf handed out by `gather` and not yet expanded.
    pending: bool,
    /// The game is over here: the value for the side to move.
    terminal: Option<f32>,
    /// Proven from the nodes below by the solver ([`Puct::solver`]): the exact value for the
    /// side to move. Unlike `terminal`, the node keeps its children and can become a root.
    solved: Option<f32>,
    prior: f32,
    visits: u32,
    /// Sum of values from the point of view of the side that moved into this node.
    value_sum: f32,
}

impl Node {
    fn new(mv: Option<Move>, parent: u32, prior: f32) -> Node {
        Node {
            mv,
            parent,
            first_child: NONE,
            children: 0,
            expanded: false,
            pending: false,
            terminal: None,
            solved: None,
            prior,
            visits: 0,
            value_sum: 0.0,
        }
    }
}

/// A leaf waiting for the network.
#[derive(Clone, Debug)]
pub struct Leaf {
    node: u32,
    mover: Color,
    moves: Vec<Move>,
    /// The result of a random playout from the leaf, for the side to move there
    /// ([`Puct::rollout`]).
    playout: Option<f32>,
}

/// What one walk down the tree found.
#[derive(Debug)]
pub enum Gathered {
    /// A leaf to evaluate; its encoded position is in the caller's buffer.
    Leaf(Leaf),
    /// The walk ended in a finished game, already backed up.
    Terminal,
    /// The walk ended on a leaf already waiting for the network, or a Gumbel phase at the root
    /// is over while evaluations are out: evaluate the batch first.
    Busy,
}

/// A search tree over one game's future.
#[derive(Clone, Debug)]
pub struct Tree {
    nodes: Vec<Node>,
    game: Game,
    puct: Puct,
    /// Leaves handed out and not yet expanded.
    in_flight: u32,
    /// Gumbel root selection for this search: its budget and draws ([`Tree::use_gumbel`]);
    /// the schedule is made from them once the root is expanded.
    gumbel: Option<(u32, Vec<f32>)>,
    halving: Option<Halving>,
    /// Positions it knows are valued by it, exactly, instead of by the network.
    endgame: Option<Arc<EndgameDb>>,
    /// Draws the playouts of [`Puct::rollout`].
    rng: Rng,
}

fn terminal_value(game: &Game) -> Option<f32> {
    match game.result() {
        GameResult::Ongoing => None,
        GameResult::Draw(_) => Some(0.0),
        GameResult::Win { winner, .. } => Some(if winner == game.position().side_to_move() {
            1.0
        } else {
            -1.0
        }),
    }
}

/// The result of one random playout from `game`'s position for its side to move: 1 a win,
/// 0 a draw, -1 a loss.
fn playout_value(game: &Game, rng: &mut Rng) -> f32 {
    let pos = game.position();
    let playout = random_playout(pos, game.counters(), rng, MAX_PLAYOUT_PLIES);
    match playout.result {
        GameResult::Win { winner, .. } if winner == pos.side_to_move() => 1.0,
        GameResult::Win { .. } => -1.0,
        _ => 0.0,
    }
}

/// The database's value of `game`'s position for the side to move: a win or loss counts a
/// little less the longer it takes, so that the search prefers the quicker win.
fn database_value(db: Option<&EndgameDb>, game: &Game) -> Option<f32> {
    Some(match db?.probe(game.position())? {
        Outcome::Win(plies) => 1.0 - 0.001 * f32::from(plies),
        Outcome::Draw => 0.0,
        Outcome::Loss(plies) => -1.0 + 0.001 * f32::from(plies),
    })
}

impl Tree {
    /// A tree with only the root, the game's current position.
    pub fn new(game: Game, puct: Puct) -> Tree {
        Tree {
            nodes: vec![Node::new(None, NONE, 1.0)],
            game,
            puct,
            in_flight: 0,
            gumbel: None,
            halving: None,
            endgame: None,
            rng: Rng::new(PLAYOUT_SEED),
        }
    }

    /// The same tree valuing the positions below its root that `db` knows by `db`: they become
    /// leaves with the exact value, and the network is not asked.
    pub fn with_endgame(mut self, db: Option<Arc<EndgameDb>>) -> Tree {
        self.endgame = db;
        self
    }

    /// The value of the game at the end of a walk of `played` moves, if it needs no network:
    /// the game is over, or (below the root) the database knows the position.
    fn known_value(&self, played: usize) -> Option<f32> {
        terminal_value(&self.game).or_else(|| {
            (played > 0)
                .then(|| database_value(self.endgame.as_deref(), &self.game))
                .flatten()
        })
    }

    /// Chooses at the root by Gumbel sequential halving over the next `budget` simulations
    /// (`zero::gumbel`), with `draws` as the Gumbel noise of the root's moves in order
    /// (empty: none). Below the root the walk stays PUCT.
    pub fn use_gumbel(&mut self, budget: u32, draws: Vec<f32>) {
        self.gumbel = Some((budget, draws));
        self.halving = None;
    }

    fn child_stats(&self, c: u32) -> ChildStats {
        let n = &self.nodes[c as usize];
        ChildStats {
            visits: n.visits,
            q: (n.visits > 0).then(|| n.value_sum / n.visits as f32),
        }
    }

    /// The root's mean value for its side to move.
    fn root_q(&self) -> f32 {
        let root = &self.nodes[0];
        if root.visits > 0 {
            -root.value_sum / root.visits as f32
        } else {
            0.0
        }
    }

    /// The root child Gumbel selection plays, once its schedule has started.
    fn gumbel_choice(&self) -> Option<u32> {
        self.halving
            .as_ref()?
            .best(|c| self.child_stats(c), self.root_q())
    }

    /// The root child to walk into under Gumbel selection; `None` when the phase is over but
    /// evaluations are still out (the batch must be evaluated first).
    fn gumbel_child(&mut self) -> Option<u32> {
        if self.halving.is_none() {
            let (budget, draws) = self.gumbel.clone()?;
            let children: Vec<(u32, f32, u32)> = self
                .child_range(0)
                .map(|c| (c as u32, self.nodes[c].prior, self.nodes[c].visits))
                .collect();
            self.halving = Some(Halving::new(&children, &draws, budget));
        }
        let mut halving = self.halving.take()?;
        let mut out = None;
        if halving.phase_done(|c| self.child_stats(c)) {
            if self.in_flight == 0 {
                halving.halve(|c| self.child_stats(c), self.root_q());
                out = Some(halving.pick(|c| self.child_stats(c)));
            }
        } else {
            out = Some(halving.pick(|c| self.child_stats(c)));
        }
        self.halving = Some(halving);
        out
    }

    /// The game at the root.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Simulations that reached the root so far (reused ones included).
    pub fn visits(&self) -> u32 {
        self.nodes[0].visits
    }

    pub fn root_expanded(&self) -> bool {
        self.nodes[0].expanded
    }

    fn child_range(&self, n: u32) -> std::ops::Range<usize> {
        let node = &self.nodes[n as usize];
        if node.first_child == NONE {
            return 0..0;
        }
        node.first_child as usize..node.first_child as usize + node.children as usize
    }

    /// The exact value of `n` for its side to move: a game end, a database value, or proven.
    fn exact(&self, n: u32) -> Option<f32> {
        let node = &self.nodes[n as usize];
        node.terminal.or(node.solved)
    }

    /// After `n` got an exact value, proves what it decides above it: its parent is won when
    /// `n` is lost for its side to move, and worth its best child when every child is known.
    fn prove_up(&mut self, mut n: u32) {
        if !self.puct.solver {
            return;
        }
        loop {
            let p = self.nodes[n as usize].parent;
            if p == NONE || self.exact(p).is_some() {
                return;
            }
            let mut best = f32::NEG_INFINITY;
            let mut open = false;
            for c in self.child_range(p) {
                match self.exact(c as u32) {
                    Some(v) => best = best.max(-v),
                    None => open = true,
                }
            }
            // A win needs one winning move; anything less needs every move known.
            if open && best <= WON {
                return;
            }
            self.nodes[p as usize].solved = Some(best);
            n = p;
        }
    }

    fn select_child(&self, n: u32) -> u32 {
        let node = &self.nodes[n as usize];
        let sqrt_n = (node.visits.max(1) as f32).sqrt();
        // The parent's mean from the point of view of the side to move there.
        let parent_q = if node.visits > 0 {
            -node.value_sum / node.visits as f32
        } else {
            0.0
        };
        let fpu = parent_q - self.puct.fpu_reduction;
        let mut best = (f32::NEG_INFINITY, NONE);
        for c in self.child_range(n) {
            let child = &self.nodes[c];
            let q = match (self.puct.solver, self.exact(c as u32)) {
                (true, Some(v)) => -v,
                _ if child.visits > 0 => child.value_sum / child.visits as f32,
                _ => fpu,
            };
            let u = self.puct.c_puct * child.prior * sqrt_n / (1.0 + child.visits as f32);
            if q + u > best.0 {
                best = (q + u, c as u32);
            }
        }
        best.1
    }

    /// Walks to a leaf under a virtual loss. For a leaf to evaluate, writes its encoded position
    /// into `input` (`zero::encode::INPUT_LEN` floats).
    pub fn gather(&mut self, input: &mut [f32]) -> Gathered {
        let mut n = 0u32;
        let mut played = 0usize;
        let mut forced = 0u8;
        // Virtual loss: one visit that counts as a loss for whoever moved into each node.
        loop {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.value_sum -= 1.0;
            if node.terminal.is_some() || node.solved.is_some() {
                break;
            }
            if !node.expanded {
                if node.pending
                    || forced >= self.puct.forced_plies
                    || self.known_value(played).is_some()
                    || !self.expand_forced(n)
                {
                    break;
                }
                forced += 1;
            }
            n = if n == 0 && self.gumbel.is_some() {
                match self.gumbel_child() {
                    Some(c) => c,
                    None => {
                        // Undo this walk's virtual visit at the root: nothing was walked.
                        self.undo_virtual_loss(0);
                        return Gathered::Busy;
                    }
                }
            } else {
                self.select_child(n)
            };
            let Some(mv) = self.nodes[n as usize].mv else {
                break;
            };
            if self.game.play(&mv).is_err() {
                // Cannot happen: children are the engine's legal moves.
                break;
            }
            played += 1;
        }
        let outcome = if let Some(v) = self.exact(n) {
            self.backup(n, v);
            Gathered::Terminal
        } else if self.nodes[n as usize].pending {
            self.undo_virtual_loss(n);
            Gathered::Busy
        } else if let Some(v) = self.known_value(played) {
            self.nodes[n as usize].terminal = Some(v);
            self.nodes[n as usize].expanded = true;
            self.backup(n, v);
            self.prove_up(n);
            Gathered::Terminal
        } else {
            self.nodes[n as usize].pending = true;
            self.in_flight += 1;
            encode_into(&self.game, input);
            let playout =
                (self.puct.rollout > 0.0).then(|| playout_value(&self.game, &mut self.rng));
            Gathered::Leaf(Leaf {
                node: n,
                mover: self.game.position().side_to_move(),
                moves: self.game.legal_moves().to_vec(),
                playout,
            })
        };
        for _ in 0..played {
            self.game.undo();
        }
        outcome
    }

    /// Expands `n` with its only legal move, without the network; false when it has a choice.
    fn expand_forced(&mut self, n: u32) -> bool {
        let moves = self.game.legal_moves();
        let [only] = moves.as_slice() else {
            return false;
        };
        let first = self.nodes.len() as u32;
        self.nodes.push(Node::new(Some(*only), n, 1.0));
        let node = &mut self.nodes[n as usize];
        node.first_child = first;
        node.children = 1;
        node.expanded = true;
        true
    }

    /// Gives a gathered leaf its children (priors from the network's `logits`) and backs up the
    /// network's `value` for the side to move there (mixed with the leaf's playout, if any).
    pub fn expand(&mut self, leaf: Leaf, logits: &[f32], value: f32) {
        let value = match leaf.playout {
            Some(z) => (1.0 - self.puct.rollout) * value + self.puct.rollout * z,
            None => value,
        };
        let priors = if self.puct.policy_temperature == 1.0 {
            move_priors(leaf.mover, &leaf.moves, logits)
        } else {
            let t = self.puct.policy_temperature;
            let flattened: Vec<f32> = logits.iter().map(|l| l / t).collect();
            move_priors(leaf.mover, &leaf.moves, &flattened)
        };
        let first = self.nodes.len() as u32;
        for (mv, p) in leaf.moves.iter().zip(priors) {
            self.nodes.push(Node::new(Some(*mv), leaf.node, p));
        }
        let node = &mut self.nodes[leaf.node as usize];
        node.first_child = first;
        node.children = leaf.moves.len() as u16;
        node.expanded = true;
        debug_assert!(node.pending, "a leaf expanded twice");
        node.pending = false;
        self.in_flight = self.in_flight.saturating_sub(1);
        self.backup(leaf.node, value);
    }

    /// Replaces the virtual loss on the path from `n` up with the real value `v` (for the side
    /// to move at `n`).
    fn backup(&mut self, mut n: u32, mut v: f32) {
        while n != NONE {
            let node = &mut self.nodes[n as usize];
            // +1 takes back the virtual loss; the mover into this node gets -v.
            node.value_sum += 1.0 - v;
            v = -v;
            n = node.parent;
        }
    }

    fn undo_virtual_loss(&mut self, mut n: u32) {
        while n != NONE {
            let node = &mut self.nodes[n as usize];
            node.visits -= 1;
            node.value_sum += 1.0;
            n = node.parent;
        }
    }

    /// Mixes Dirichlet noise into the root's priors: `(1 - eps) p + eps noise`.
    pub fn add_root_noise(&mut self, noise: &[f32], eps: f32) {
        for (c, x) in self.child_range(0).zip(noise) {
            let p = &mut self.nodes[c].prior;
            *p = (1.0 - eps) * *p + eps * x;
        }
    }

    /// Number of the root's children (its legal moves once expanded).
    pub fn root_children(&self) -> usize {
        self.child_range(0).len()
    }

    /// Each root move with its prior.
    pub fn root_priors(&self) -> Vec<(Move, f32)> {
        self.child_range(0)
            .filter_map(|c| self.nodes[c].mv.map(|m| (m, self.nodes[c].prior)))
            .collect()
    }

    /// Each root move with its visit count and mean value for the side to move.
    pub fn root_stats(&self) -> Vec<(Move, u32, f32)> {
        self.child_range(0)
            .filter_map(|c| {
                let n = &self.nodes[c];
                let q = if n.visits > 0 {
                    n.value_sum / n.visits as f32
                } else {
                    0.0
                };
                n.mv.map(|m| (m, n.visits, q))
            })
            .collect()
    }

    /// Each root move with the improved policy's share of it (`gumbel::improved_policy`).
    pub fn improved_policy(&self) -> Vec<(Move, f32)> {
        let children: Vec<(f32, ChildStats)> = self
            .child_range(0)
            .map(|c| (self.nodes[c].prior, self.child_stats(c as u32)))
            .collect();
        let shares = improved_policy(&children, self.root_q());
        self.child_range(0)
            .zip(shares)
            .filter_map(|(c, p)| self.nodes[c].mv.map(|m| (m, p)))
            .collect()
    }

    /// The move to play and its mean value: under Gumbel selection the schedule's survivor,
    /// else the most visited root move (ties to the better mean).
    pub fn best(&self) -> Option<(Move, f32)> {
        if let Some(won) = self.proven_root_move(|v| v > WON) {
            return Some(won);
        }
        if self.halving.is_some() {
            let c = self.gumbel_choice()?;
            let q = self.child_stats(c).q.unwrap_or(0.0);
            return self.nodes[c as usize].mv.map(|m| (m, q));
        }
        // A proven loss is played only when every move is one (then the longest, by value).
        self.child_range(0)
            .filter(|&c| !self.puct.solver || self.exact(c as u32).is_none_or(|v| v <= WON))
            .filter_map(|c| {
                let s = self.child_stats(c as u32);
                Some((self.nodes[c].mv?, s.visits, s.q.unwrap_or(0.0)))
            })
            .max_by(|a, b| a.1.cmp(&b.1).then(a.2.total_cmp(&b.2)))
            .map(|(m, _, q)| (m, q))
            .or_else(|| self.proven_root_move(|_| true))
    }

    /// With the solver, the root move of the best exact value among those `keep` accepts
    /// (values for the root's side to move).
    fn proven_root_move(&self, keep: impl Fn(f32) -> bool) -> Option<(Move, f32)> {
        if !self.puct.solver {
            return None;
        }
        self.child_range(0)
            .filter_map(|c| {
                let v = -self.exact(c as u32)?;
                keep(v).then_some((self.nodes[c].mv?, v))
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// The root's exact value for its side to move, once the solver has proven it.
    pub fn root_solved(&self) -> Option<f32> {
        self.exact(0).filter(|_| self.puct.solver)
    }

    /// The principal variation: the move [`Tree::best`] plays, then the most visited child,
    /// down to `max` plies.
    pub fn pv(&self, max: usize) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut n = 0u32;
        if let Some(c) = self.gumbel_choice() {
            let Some(mv) = self.nodes[c as usize].mv else {
                return pv;
            };
            pv.push(mv);
            n = c;
        }
        while pv.len() < max {
            let Some(c) = self
                .child_range(n)
                .max_by_key(|&c| self.nodes[c].visits)
                .filter(|&c| self.nodes[c].visits > 0)
            else {
                break;
            };
            let Some(mv) = self.nodes[c].mv else { break };
            pv.push(mv);
            n = c as u32;
        }
        pv
    }

    /// Makes the child reached by `mv` the new root, keeping its subtree; false (and a fresh
    /// tree) when the move is not in the tree.
    pub fn advance(&mut self, mv: &Move) -> bool {
        let child = self.child_range(0).find(|&c| {
            self.nodes[c]
                .mv
                .is_some_and(|m| m == *mv && m.landings() == mv.landings())
        });
        let mut game = self.game.clone();
        if game.play(mv).is_err() {
            return false;
        }
        // A leaf the database valued has no children to keep, and as a root it must be
        // searched, not valued.
        let Some(child) =
            child.filter(|&c| !self.nodes[c].pending && self.nodes[c].terminal.is_none())
        else {
            *self = Tree::new(game, self.puct).with_endgame(self.endgame.clone());
            return false;
        };
        let mut nodes = Vec::with_capacity(self.nodes.len());
        let mut root = self.nodes[child].clone();
        root.parent = NONE;
        nodes.push(root);
        // Breadth-first copy: each node's children stay contiguous.
        let mut i = 0;
        while i < nodes.len() {
            if nodes[i].first_child != NONE {
                let old_first = nodes[i].first_child as usize;
                let count = nodes[i].children as usize;
                let new_first = nodes.len() as u32;
                for k in 0..count {
                    let mut c = self.nodes[old_first + k].clone();
                    c.parent = i as u32;
                    nodes.push(c);
                }
                nodes[i].first_child = new_first;
            }
            i += 1;
        }
        self.nodes = nodes;
        self.game = game;
        self.in_flight = self.nodes.iter().filter(|n| n.pending).count() as u32;
        self.gumbel = None;
        self.halving = None;
        true
    }
}
