//! One UCT search tree: selection by UCB1, one expansion per visit of a visited leaf, a random
//! playout by the engine, rewards backed up for the side that made each move.

use draughts::Counters;
use draughts::{random_playout, Rng};
use draughts::{Color, GameResult, Move, MoveList, Position};

/// Playouts longer than this are called a draw (random games average under 50 plies).
pub(crate) const MAX_PLAYOUT_PLIES: u32 = 400;
/// The exploration constant of UCB1 for rewards in [0, 1].
pub const EXPLORATION: f64 = 0.7;
/// Above this many nodes the tree stops growing and keeps sampling from its leaves.
const MAX_NODES: usize = 4_000_000;

#[derive(Clone, Debug)]
pub struct Node {
    /// The move into this node (`None` at the root).
    pub mv: Option<Move>,
    pub first_child: u32,
    pub n_children: u16,
    pub expanded: bool,
    pub visits: u32,
    /// Sum of rewards for the side that played `mv` (win 1, draw 1/2, loss 0).
    pub reward: f64,
}

impl Node {
    fn new(mv: Option<Move>) -> Node {
        Node {
            mv,
            first_child: 0,
            n_children: 0,
            expanded: false,
            visits: 0,
            reward: 0.0,
        }
    }

    pub fn children(&self) -> std::ops::Range<usize> {
        let f = self.first_child as usize;
        f..f + self.n_children as usize
    }
}

#[derive(Debug)]
pub struct Tree {
    pub nodes: Vec<Node>,
    pub root_pos: Position,
    pub root_counters: Counters,
    pub rng: Rng,
    pub max_depth: u32,
}

fn reward_for(result: GameResult, mover: Color) -> f64 {
    match result {
        GameResult::Win { winner, .. } if winner == mover => 1.0,
        GameResult::Win { .. } => 0.0,
        _ => 0.5,
    }
}

impl Tree {
    pub fn new(pos: Position, counters: Counters, rng: Rng) -> Tree {
        Tree {
            nodes: vec![Node::new(None)],
            root_pos: pos,
            root_counters: counters,
            rng,
            max_depth: 0,
        }
    }

    /// Starts a fresh tree at `pos`, keeping the random stream.
    pub fn reset(&mut self, pos: Position, counters: Counters) {
        self.nodes.clear();
        self.nodes.push(Node::new(None));
        self.root_pos = pos;
        self.root_counters = counters;
        self.max_depth = 0;
    }

    fn expand(&mut self, at: usize, pos: &Position) {
        let mut list = MoveList::new();
        pos.generate_into(&mut list);
        let first = self.nodes.len() as u32;
        self.nodes.extend(list.iter().map(|m| Node::new(Some(*m))));
        let n = &mut self.nodes[at];
        n.first_child = first;
        n.n_children = list.len() as u16;
        n.expanded = true;
    }

    fn select(&self, at: usize) -> usize {
        let parent = &self.nodes[at];
        let ln_n = f64::from(parent.visits.max(1)).ln();
        let mut best = parent.first_child as usize;
        let mut best_u = f64::NEG_INFINITY;
        for c in parent.children() {
            let n = &self.nodes[c];
            // Unvisited children first, in the generator's order.
            let u = if n.visits == 0 {
                f64::INFINITY
            } else {
                let v = f64::from(n.visits);
                n.reward / v + EXPLORATION * (ln_n / v).sqrt()
            };
            if u > best_u {
                best_u = u;
                best = c;
                if u == f64::INFINITY {
                    break;
                }
            }
        }
        best
    }

    /// One simulation: select, expand, play out, back up.
    pub fn iterate(&mut self) {
        let mut pos = self.root_pos;
        let mut counters = self.root_counters;
        let mut path = vec![0usize];
        let mut at = 0usize;
        loop {
            let node = &self.nodes[at];
            if !node.expanded {
                let grow = (node.visits > 0 || at == 0) && self.nodes.len() < MAX_NODES;
                if !grow || counters.draw(&pos).is_some() {
                    break;
                }
                self.expand(at, &pos);
            }
            if self.nodes[at].n_children == 0 {
                break;
            }
            let child = self.select(at);
            let mv = self.nodes[child]
                .mv
                .expect("every node below the root holds its move");
            counters = counters.after(&pos, &mv);
            pos.play(&mv);
            at = child;
            path.push(at);
            if self.nodes[at].visits == 0 {
                break;
            }
        }
        self.max_depth = self.max_depth.max(path.len() as u32 - 1);
        let result = random_playout(&pos, counters, &mut self.rng, MAX_PLAYOUT_PLIES).result;
        // path[i] was entered by the side to move at path[i - 1]; sides alternate from the root.
        let mut mover = self.root_pos.side_to_move();
        self.nodes[0].visits += 1;
        for &i in &path[1..] {
            let n = &mut self.nodes[i];
            n.visits += 1;
            n.reward += reward_for(result, mover);
            mover = mover.opponent();
        }
    }

    /// The node reached from the root by `moves`, if the tree holds it.
    pub(crate) fn find(&self, moves: &[Move]) -> Option<usize> {
        let mut at = 0;
        for mv in moves {
            let node = &self.nodes[at];
            if !node.expanded {
                return None;
            }
            at = node
                .children()
                .find(|&c| self.nodes[c].mv.as_ref() == Some(mv))?;
        }
        Some(at)
    }

    /// Keeps only the subtree below `moves` (played since the last search), as the new root.
    /// Returns whether anything was kept.
    pub fn reroot(&mut self, moves: &[Move], pos: Position, counters: Counters) -> bool {
        let Some(keep) = self.find(moves) else {
            self.reset(pos, counters);
            return false;
        };
        let mut fresh = Vec::with_capacity(self.nodes.len() / 4);
        let mut root = self.nodes[keep].clone();
        root.mv = None;
        fresh.push(root);
        // Breadth-first copy: children stay contiguous, indices are rewritten as they land.
        let mut next = 0;
        while next < fresh.len() {
            let old = fresh[next].clone();
            if old.expanded {
                let first = fresh.len() as u32;
                fresh.extend(old.children().map(|c| self.nodes[c].clone()));
                fresh[next].first_child = first;
            }
            next += 1;
        }
        self.nodes = fresh;
        self.root_pos = pos;
        self.root_counters = counters;
        self.max_depth = 0;
        true
    }
}
