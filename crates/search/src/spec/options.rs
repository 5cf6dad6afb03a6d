//! One spec type per planner, each with its own typed options and one table of its keys: the
//! table is what parsing, the spec string, the error text, the documentation
//! ([`super::reference`]) and the planner node's parameters read.

use std::time::Duration;

use super::values::{
    count, count_in, depth, endgame, format_duration, hundredths, parse_duration, shown_hundredths,
    shown_switch, switch, threads, Why,
};
use crate::alphabeta::search::Pruning;
use crate::planner::Limits;

/// One key of a spec: its name, what it takes, how a value sets it and how it reads back.
#[derive(Debug)]
pub struct Key<S: 'static> {
    pub name: &'static str,
    /// Its name as a planner node's parameter and in a level file, where it is longer
    /// (`endgame_pieces` for `endgame`).
    pub param: &'static str,
    /// Its values and what it does: the documentation's line and the error's hint.
    pub doc: &'static str,
    pub set: fn(&mut S, &str) -> Result<(), Why>,
    /// The value a spec string shows, `None` at the default (left out).
    pub get: fn(&S) -> Option<String>,
}

/// What every planner's spec type has.
pub trait Options: Default + 'static {
    /// Its keys, in the order a spec string shows them.
    const KEYS: &'static [Key<Self>];
    fn limits(&self) -> Limits;
    fn seed(&self) -> u64;
    fn seed_mut(&mut self) -> &mut u64;
    /// Its time limit, for the planners that take one.
    fn time_mut(&mut self) -> Option<&mut Option<Duration>> {
        None
    }
}

/// The keys several planners take, each written once; the spec type it is used for needs the
/// field of the same name.
macro_rules! key {
    (switch $field:ident, $name:literal, $param:literal, $doc:literal) => {
        Key {
            name: $name,
            param: $param,
            doc: $doc,
            set: |s, v| {
                s.$field = switch(v)?;
                Ok(())
            },
            get: |s| shown_switch(s.$field),
        }
    };
    (hundredths $field:ident, $name:literal, $lo:literal, $hi:literal, $why:literal, $doc:literal) => {
        Key {
            name: $name,
            param: $name,
            doc: $doc,
            set: |s, v| {
                s.$field = Some(hundredths(v, $lo, $hi, $why)?);
                Ok(())
            },
            get: |s| shown_hundredths(s.$field),
        }
    };
    (depth) => {
        Key {
            name: "depth",
            param: "depth",
            doc: "1 to 100 plies: the depth to search to",
            set: |s, v| {
                s.depth = Some(depth(v)?);
                Ok(())
            },
            get: |s| s.depth.map(|d| d.to_string()),
        }
    };
    (time) => {
        Key {
            name: "time",
            param: "time",
            doc: "a duration (`500ms`, `1s`, `0.5`): the time for a move",
            set: |s, v| {
                s.time = Some(parse_duration(v)?);
                Ok(())
            },
            get: |s| s.time.map(format_duration),
        }
    };
    (sims) => {
        Key {
            name: "sims",
            param: "sims",
            doc: "a whole number above 0: simulations a move",
            set: |s, v| {
                s.sims = Some(sims(v)?);
                Ok(())
            },
            get: |s| s.sims.map(|n| n.to_string()),
        }
    };
    (threads) => {
        Key {
            name: "threads",
            param: "threads",
            doc: "1 to 64: search threads",
            set: |s, v| {
                s.threads = Some(threads(v)?);
                Ok(())
            },
            get: |s| s.threads.map(|n| n.to_string()),
        }
    };
    (endgame) => {
        Key {
            name: "endgame",
            param: "endgame_pieces",
            doc: "0 (none) to 5 pieces: the endgame database to read",
            set: |s, v| {
                s.endgame = endgame(v)?;
                Ok(())
            },
            get: |s| (s.endgame != 0).then(|| s.endgame.to_string()),
        }
    };
    (book) => {
        key!(switch book, "book", "book", "1 or 0: plays from the opening book while the position is in it")
    };
    (ponder) => {
        key!(switch ponder, "ponder", "ponder", "1 or 0: thinks on the opponent's time where the caller lets it")
    };
    (seed) => {
        Key {
            name: "seed",
            param: "seed",
            doc: "a whole number: the random choices (default 1)",
            set: |s, v| {
                s.seed = seed_of(v)?;
                Ok(())
            },
            get: |s| (s.seed != 1).then(|| s.seed.to_string()),
        }
    };
}

fn sims(v: &str) -> Result<u64, Why> {
    count_in(v, 1, u64::MAX, "at least one simulation")
}

fn seed_of(v: &str) -> Result<u64, Why> {
    count(v)
}

/// `random` and `heuristic`: a seed only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeedSpec {
    pub seed: u64,
}

impl Default for SeedSpec {
    fn default() -> Self {
        SeedSpec { seed: 1 }
    }
}

impl Options for SeedSpec {
    const KEYS: &'static [Key<Self>] = &[key!(seed)];
    fn limits(&self) -> Limits {
        Limits::default()
    }
    fn seed(&self) -> u64 {
        self.seed
    }
    fn seed_mut(&mut self) -> &mut u64 {
        &mut self.seed
    }
}

/// `minimax`: plain minimax to a depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MinimaxSpec {
    pub depth: Option<u32>,
    pub seed: u64,
}

impl Default for MinimaxSpec {
    fn default() -> Self {
        MinimaxSpec {
            depth: None,
            seed: 1,
        }
    }
}

impl Options for MinimaxSpec {
    const KEYS: &'static [Key<Self>] = &[key!(depth), key!(seed)];
    fn limits(&self) -> Limits {
        Limits {
            depth: self.depth,
            ..Limits::default()
        }
    }
    fn seed(&self) -> u64 {
        self.seed
    }
    fn seed_mut(&mut self) -> &mut u64 {
        &mut self.seed
    }
}

/// `alphabeta`: the alpha-beta search ([`AlphaBeta`](crate::AlphaBeta)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlphaBetaSpec {
    pub depth: Option<u32>,
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
    /// Lazy SMP threads; `None` for one.
    pub threads: Option<usize>,
    /// The endgame database's pieces (0: none).
    pub endgame: u32,
    /// Adds the learned correction ([`EvalNet`](crate::EvalNet)) to the evaluation.
    pub net: bool,
    /// Evaluates with the pattern evaluation ([`Patterns`](crate::Patterns)).
    pub patterns: bool,
    pub pruning: Pruning,
    /// Scores a draw by the rules this many hundredths of a man below equal for the side it
    /// plays ([`AlphaBeta::with_contempt`](crate::AlphaBeta::with_contempt)).
    pub contempt: u8,
    pub book: bool,
    pub ponder: bool,
    pub seed: u64,
}

impl Default for AlphaBetaSpec {
    fn default() -> Self {
        AlphaBetaSpec {
            depth: None,
            time: None,
            nodes: None,
            threads: None,
            endgame: 0,
            net: false,
            patterns: false,
            pruning: Pruning::default(),
            contempt: 0,
            book: false,
            ponder: false,
            seed: 1,
        }
    }
}

impl Options for AlphaBetaSpec {
    const KEYS: &'static [Key<Self>] = &[
        key!(depth),
        key!(time),
        Key {
            name: "nodes",
            param: "nodes",
            doc: "a whole number: the nodes to search a move",
            set: |s, v| {
                s.nodes = Some(count(v)?.max(1));
                Ok(())
            },
            get: |s| s.nodes.map(|n| n.to_string()),
        },
        key!(threads),
        key!(endgame),
        key!(switch net, "net", "eval_net", "1 or 0: adds the learned correction to the evaluation"),
        key!(switch patterns, "patterns", "eval_patterns", "1 or 0: evaluates with the pattern evaluation"),
        Key {
            name: "prune",
            param: "prune",
            doc: "`none`, or some of `deeper`, `futility`, `log` and `malus` joined by `+`: \
                  bolder pruning (docs/planners.md)",
            set: |s, v| {
                s.pruning = v.parse()?;
                Ok(())
            },
            get: |s| (s.pruning != Pruning::default()).then(|| s.pruning.to_string()),
        },
        Key {
            name: "contempt",
            param: "contempt",
            doc: "0 to 100 hundredths of a man: a draw's score below equal",
            set: |s, v| {
                let why = "contempt must be 0 to 100 hundredths of a man";
                s.contempt = count_in(v, 0, 100, why)? as u8;
                Ok(())
            },
            get: |s| (s.contempt != 0).then(|| s.contempt.to_string()),
        },
        key!(book),
        key!(ponder),
        key!(seed),
    ];
    fn limits(&self) -> Limits {
        Limits {
            time: self.time,
            depth: self.depth,
            nodes: self.nodes,
            sims: None,
        }
    }
    fn seed(&self) -> u64 {
        self.seed
    }
    fn seed_mut(&mut self) -> &mut u64 {
        &mut self.seed
    }
    fn time_mut(&mut self) -> Option<&mut Option<Duration>> {
        Some(&mut self.time)
    }
}

/// `mcts`: Monte Carlo tree search with random playouts ([`Mcts`](crate::Mcts)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MctsSpec {
    pub time: Option<Duration>,
    pub sims: Option<u64>,
    /// Root-parallel threads; `None` for two.
    pub threads: Option<usize>,
    pub seed: u64,
}

impl Default for MctsSpec {
    fn default() -> Self {
        MctsSpec {
            time: None,
            sims: None,
            threads: None,
            seed: 1,
        }
    }
}

impl Options for MctsSpec {
    const KEYS: &'static [Key<Self>] = &[key!(time), key!(sims), key!(threads), key!(seed)];
    fn limits(&self) -> Limits {
        Limits {
            time: self.time,
            sims: self.sims,
            ..Limits::default()
        }
    }
    fn seed(&self) -> u64 {
        self.seed
    }
    fn seed_mut(&mut self) -> &mut u64 {
        &mut self.seed
    }
    fn time_mut(&mut self) -> Option<&mut Option<Duration>> {
        Some(&mut self.time)
    }
}

/// `zero`: the AlphaZero network's search ([`ZeroPlanner`](crate::ZeroPlanner),
/// [`Puct`](crate::Puct)). The PUCT settings are in hundredths; `None` keeps the generation's
/// own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZeroSpec {
    /// The network generation (`models/gen<N>.bpk`).
    pub generation: u32,
    pub time: Option<Duration>,
    pub sims: Option<u64>,
    pub endgame: u32,
    pub book: bool,
    pub ponder: bool,
    /// Forced moves followed past a leaf.
    pub forced: Option<u8>,
    /// Chooses at the root by Gumbel sequential halving (`zero::gumbel`).
    pub gumbel: bool,
    /// Proves wins, losses and draws up the tree (`Puct::solver`).
    pub solve: bool,
    pub cpuct: Option<u16>,
    pub fpu: Option<u16>,
    pub pst: Option<u16>,
    /// The share of a random playout in each leaf's value (`Puct::rollout`).
    pub rollout: Option<u16>,
    pub seed: u64,
}

impl Default for ZeroSpec {
    fn default() -> Self {
        ZeroSpec {
            generation: 1,
            time: None,
            sims: None,
            endgame: 0,
            book: false,
            ponder: false,
            forced: None,
            gumbel: false,
            solve: false,
            cpuct: None,
            fpu: None,
            pst: None,
            rollout: None,
            seed: 1,
        }
    }
}

impl Options for ZeroSpec {
    const KEYS: &'static [Key<Self>] = &[
        Key {
            name: "gen",
            param: "generation",
            doc: "0 (the untrained network) to 999: the network generation, `models/gen<N>.bpk`",
            set: |s, v| {
                let why = "gen must be a generation from 0 (the untrained network) to 999";
                s.generation = count_in(v, 0, 999, why)? as u32;
                Ok(())
            },
            get: |s| Some(s.generation.to_string()),
        },
        key!(time),
        key!(sims),
        key!(endgame),
        key!(book),
        key!(ponder),
        Key {
            name: "forced",
            param: "forced",
            doc: "0 (off) to 64 plies: forced moves followed past a leaf",
            set: |s, v| {
                let why = "forced must be 0 (off) to 64 plies";
                s.forced = Some(count_in(v, 0, 64, why)? as u8);
                Ok(())
            },
            get: |s| s.forced.map(|n| n.to_string()),
        },
        key!(switch gumbel, "gumbel", "gumbel", "1 or 0: chooses at the root by Gumbel sequential halving (with `sims` only)"),
        key!(switch solve, "solve", "solve", "1 or 0: proves wins, losses and draws up the tree"),
        key!(hundredths cpuct, "cpuct", 1, 1000, "cpuct must be a decimal from 0.01 to 10", "a decimal from 0.01 to 10: PUCT's exploration constant"),
        key!(hundredths fpu, "fpu", 0, 200, "fpu must be a decimal from 0 to 2", "a decimal from 0 to 2: the first-play reduction"),
        key!(hundredths pst, "pst", 10, 1000, "pst must be a decimal from 0.1 to 10", "a decimal from 0.1 to 10: the policy's softmax temperature"),
        key!(hundredths rollout, "rollout", 0, 100, "rollout must be a decimal from 0 to 1", "a decimal from 0 to 1: the share of a random playout in a leaf's value"),
        key!(seed),
    ];
    fn limits(&self) -> Limits {
        Limits {
            time: self.time,
            sims: self.sims,
            ..Limits::default()
        }
    }
    fn seed(&self) -> u64 {
        self.seed
    }
    fn seed_mut(&mut self) -> &mut u64 {
        &mut self.seed
    }
    fn time_mut(&mut self) -> Option<&mut Option<Duration>> {
        Some(&mut self.time)
    }
}
