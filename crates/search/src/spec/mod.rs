//! Planner specs: `alphabeta:time=1s`, `mcts:sims=2000,threads=2`, `minimax:depth=6`,
//! `alphabeta:depth=12,time=500ms`, `random:seed=3`. An algorithm name, then optionally `:` and
//! comma-separated `key=value` settings. Durations take `ms`, `s` or `m`; a bare number is
//! seconds. Each planner has its own spec type ([`options`]) and one table of its keys.

mod build;
mod options;
mod values;

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

pub use options::{AlphaBetaSpec, MctsSpec, MinimaxSpec, SeedSpec, ZeroSpec};
pub use values::parse_duration;

use crate::planner::Limits;
use options::{Key, Options};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    Random,
    Heuristic,
    Minimax,
    AlphaBeta,
    Mcts,
    Zero,
}

impl Algorithm {
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Random,
        Algorithm::Heuristic,
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::Mcts,
        Algorithm::Zero,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Random => "random",
            Algorithm::Heuristic => "heuristic",
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Mcts => "mcts",
            Algorithm::Zero => "zero",
        }
    }

    /// The keys a spec of this algorithm takes, in the order its spec string shows them.
    pub fn keys(self) -> Vec<&'static str> {
        self.docs().into_iter().map(|(name, _, _)| name).collect()
    }

    /// Each key: its name in a spec, its parameter name, what it takes and does.
    pub fn docs(self) -> Vec<(&'static str, &'static str, &'static str)> {
        fn of<S: Options>() -> Vec<(&'static str, &'static str, &'static str)> {
            S::KEYS.iter().map(|k| (k.name, k.param, k.doc)).collect()
        }
        match self {
            Algorithm::Random | Algorithm::Heuristic => of::<SeedSpec>(),
            Algorithm::Minimax => of::<MinimaxSpec>(),
            Algorithm::AlphaBeta => of::<AlphaBetaSpec>(),
            Algorithm::Mcts => of::<MctsSpec>(),
            Algorithm::Zero => of::<ZeroSpec>(),
        }
    }

    /// Whether its planner takes a time for a move.
    pub fn takes_time(self) -> bool {
        self.keys().contains(&"time")
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == t || (t == "alpha-beta" && *a == Algorithm::AlphaBeta))
            .ok_or_else(|| SpecError::UnknownAlgorithm(s.trim().to_string()))
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SpecError {
    #[error("empty planner spec: expected e.g. `alphabeta:time=1s`")]
    Empty,
    #[error(
        "unknown planner `{0}`: expected one of random, heuristic, minimax, alphabeta, mcts, zero"
    )]
    UnknownAlgorithm(String),
    #[error("`{}` takes no `{key}`: it takes {}", algorithm.name(), algorithm.keys().join(", "))]
    UnknownKey { algorithm: Algorithm, key: String },
    #[error("`{0}` needs a value, as in `{0}=...`")]
    MissingValue(String),
    #[error("bad value `{value}` for `{key}`: {why}")]
    BadValue {
        key: String,
        value: String,
        why: &'static str,
    },
    #[error("`{0}` is given twice")]
    Repeated(String),
}

/// A planner and its settings, as named on the command line or in a difficulty file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlannerSpec {
    Random(SeedSpec),
    Heuristic(SeedSpec),
    Minimax(MinimaxSpec),
    AlphaBeta(AlphaBetaSpec),
    Mcts(MctsSpec),
    Zero(ZeroSpec),
}

/// `$body` with `$s` bound to the spec type of whichever planner `$spec` is.
macro_rules! each {
    ($spec:expr, $s:ident => $body:expr) => {
        match $spec {
            PlannerSpec::Random($s) | PlannerSpec::Heuristic($s) => $body,
            PlannerSpec::Minimax($s) => $body,
            PlannerSpec::AlphaBeta($s) => $body,
            PlannerSpec::Mcts($s) => $body,
            PlannerSpec::Zero($s) => $body,
        }
    };
}

impl PlannerSpec {
    /// The algorithm with every key at its default.
    pub fn new(algorithm: Algorithm) -> PlannerSpec {
        match algorithm {
            Algorithm::Random => PlannerSpec::Random(SeedSpec::default()),
            Algorithm::Heuristic => PlannerSpec::Heuristic(SeedSpec::default()),
            Algorithm::Minimax => PlannerSpec::Minimax(MinimaxSpec::default()),
            Algorithm::AlphaBeta => PlannerSpec::AlphaBeta(AlphaBetaSpec::default()),
            Algorithm::Mcts => PlannerSpec::Mcts(MctsSpec::default()),
            Algorithm::Zero => PlannerSpec::Zero(ZeroSpec::default()),
        }
    }

    pub fn algorithm(&self) -> Algorithm {
        match self {
            PlannerSpec::Random(_) => Algorithm::Random,
            PlannerSpec::Heuristic(_) => Algorithm::Heuristic,
            PlannerSpec::Minimax(_) => Algorithm::Minimax,
            PlannerSpec::AlphaBeta(_) => Algorithm::AlphaBeta,
            PlannerSpec::Mcts(_) => Algorithm::Mcts,
            PlannerSpec::Zero(_) => Algorithm::Zero,
        }
    }

    /// The limits a move is searched within, for [`crate::Planner::choose`].
    pub fn limits(&self) -> Limits {
        each!(self, s => s.limits())
    }

    pub fn seed(&self) -> u64 {
        each!(self, s => s.seed())
    }

    /// The same spec with another seed (the arena varies seeds per game).
    pub fn with_seed(mut self, seed: u64) -> PlannerSpec {
        each!(&mut self, s => *s.seed_mut() = seed);
        self
    }

    /// Sets the time for a move of a planner that takes one; `false` for one that does not.
    pub fn set_time(&mut self, time: Duration) -> bool {
        each!(self, s => s.time_mut().map(|t| *t = Some(time)).is_some())
    }

    /// Whether it plays from the opening book while the position is in it.
    pub fn book(&self) -> bool {
        match self {
            PlannerSpec::AlphaBeta(s) => s.book,
            PlannerSpec::Zero(s) => s.book,
            _ => false,
        }
    }

    /// Whether it thinks on the opponent's time ([`crate::Planner::ponder`]).
    pub fn ponder(&self) -> bool {
        match self {
            PlannerSpec::AlphaBeta(s) => s.ponder,
            PlannerSpec::Zero(s) => s.ponder,
            _ => false,
        }
    }

    /// The pieces of the endgame database it reads (0: none).
    pub fn endgame(&self) -> u32 {
        match self {
            PlannerSpec::AlphaBeta(s) => s.endgame,
            PlannerSpec::Zero(s) => s.endgame,
            _ => 0,
        }
    }

    /// The same spec without the endgame database.
    pub fn without_endgame(mut self) -> PlannerSpec {
        match &mut self {
            PlannerSpec::AlphaBeta(s) => s.endgame = 0,
            PlannerSpec::Zero(s) => s.endgame = 0,
            _ => {}
        }
        self
    }

    /// Sets one `key=value`, as in a spec string.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), SpecError> {
        self.set_by(key, value, false)
    }

    /// Sets one key by its parameter name, as a level file and the planner node name it
    /// (`endgame_pieces: 5` for `endgame=5`).
    pub fn set_param(&mut self, param: &str, value: &str) -> Result<(), SpecError> {
        self.set_by(param, value, true)
    }

    fn set_by(&mut self, key: &str, value: &str, by_param: bool) -> Result<(), SpecError> {
        fn set_in<S: Options>(
            s: &mut S,
            algorithm: Algorithm,
            key: String,
            value: &str,
            by_param: bool,
        ) -> Result<(), SpecError> {
            let found = S::KEYS
                .iter()
                .find(|k| key == if by_param { k.param } else { k.name });
            let Some(k) = found else {
                return Err(SpecError::UnknownKey { algorithm, key });
            };
            (k.set)(s, value).map_err(|why| SpecError::BadValue {
                key,
                value: value.to_string(),
                why,
            })
        }
        let algorithm = self.algorithm();
        let key = key.trim().to_ascii_lowercase();
        let value = value.trim();
        each!(self, s => set_in(s, algorithm, key, value, by_param))
    }

    /// `key=value` for each key away from its default, in the table's order.
    fn settings(&self) -> Vec<String> {
        fn shown<S: Options>(s: &S) -> Vec<String> {
            S::KEYS
                .iter()
                .filter_map(|k: &Key<S>| (k.get)(s).map(|v| format!("{}={v}", k.name)))
                .collect()
        }
        each!(self, s => shown(s))
    }
}

/// The keys of every planner as a Markdown table: the reference in docs/planners.md.
pub fn reference() -> String {
    let mut out = String::from(
        "| planner | key | parameter (level file, planner node) | takes |\n|---|---|---|---|\n",
    );
    for a in Algorithm::ALL {
        for (key, param, doc) in a.docs() {
            out.push_str(&format!("| `{a}` | `{key}` | `{param}` | {doc} |\n"));
        }
    }
    out
}

impl FromStr for PlannerSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s.is_empty() {
            return Err(SpecError::Empty);
        }
        let (name, rest) = s.split_once(':').unwrap_or((s, ""));
        let mut spec = PlannerSpec::new(name.parse()?);
        let mut seen: Vec<String> = Vec::new();
        for part in rest.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((k, v)) = part.split_once('=') else {
                return Err(SpecError::MissingValue(part.to_string()));
            };
            let k = k.trim().to_ascii_lowercase();
            if seen.contains(&k) {
                return Err(SpecError::Repeated(k));
            }
            spec.set(&k, v)?;
            seen.push(k);
        }
        Ok(spec)
    }
}

impl fmt::Display for PlannerSpec {
    /// The canonical spec string; parsing it gives the same spec.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let settings = self.settings();
        if settings.is_empty() {
            write!(f, "{}", self.algorithm())
        } else {
            write!(f, "{}:{}", self.algorithm(), settings.join(","))
        }
    }
}

#[cfg(test)]
mod tests;
