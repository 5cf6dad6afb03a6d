//! Planner specs: `alphabeta:time=1s`, `mcts:sims=2000,threads=2`, `minimax:depth=6`,
//! `alphabeta:depth=12,time=500ms`, `random:seed=3`. An algorithm name, then optionally `:` and
//! comma-separated `key=value` limits. Durations take `ms`, `s` or `m`; a bare number is seconds.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::alphabeta::search::Pruning;
use crate::alphabeta::AlphaBeta;
use crate::alphabeta::{net, patterns};
use crate::book::{self, BookPlanner};
use crate::endgame;
use crate::heuristic::HeuristicPlanner;
use crate::mcts::Mcts;
use crate::minimax::Minimax;
use crate::planner::{Limits, Planner};
use crate::random::RandomPlanner;
use crate::zero::ZeroPlanner;

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

    /// The keys a spec of this algorithm may set.
    pub fn keys(self) -> &'static [&'static str] {
        match self {
            Algorithm::Random | Algorithm::Heuristic => &["seed"],
            Algorithm::Minimax => &["depth", "seed"],
            Algorithm::AlphaBeta => &[
                "time", "depth", "nodes", "seed", "threads", "endgame", "net", "patterns", "book",
                "ponder", "prune", "contempt",
            ],
            Algorithm::Mcts => &["time", "sims", "seed", "threads"],
            Algorithm::Zero => &[
                "gen", "time", "sims", "seed", "book", "ponder", "forced", "gumbel", "endgame",
                "cpuct", "fpu", "pst", "solve", "rollout",
            ],
        }
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

/// A planner and its limits, as named on the command line or in a difficulty file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlannerSpec {
    pub algorithm: Algorithm,
    pub limits: Limits,
    pub seed: u64,
    /// Search threads (MCTS root parallelism, alpha-beta lazy SMP); `None` for the planner's
    /// default (MCTS 2, alpha-beta 1).
    pub threads: Option<usize>,
    /// Alpha-beta and the AlphaZero planner read an endgame database of up to this many pieces
    /// (0: none).
    pub endgame: u32,
    /// Alpha-beta adds the learned correction (`alphabeta::net`) to its evaluation.
    pub net: bool,
    /// Alpha-beta evaluates with the pattern evaluation (`alphabeta::patterns`) instead.
    pub patterns: bool,
    /// Alpha-beta's bolder pruning, a bit set (`alphabeta::search::Pruning::from_bits`).
    pub prune: u8,
    /// Alpha-beta scores a draw by the rules this many hundredths of a man below equal for
    /// the side it plays (`alphabeta::search::Search::contempt`).
    pub contempt: u8,
    /// The AlphaZero planner's network generation (`models/gen<N>.bpk`).
    pub generation: u32,
    /// Plays from the opening book while the position is in it (`crate::book`).
    pub book: bool,
    /// Thinks on the opponent's time where the caller lets it ([`Planner::ponder`]).
    pub ponder: bool,
    /// The AlphaZero search follows up to this many forced moves past a leaf (`Puct`);
    /// `None` for its default.
    pub forced: Option<u8>,
    /// The AlphaZero search chooses at the root by Gumbel sequential halving (with a
    /// simulation budget only; `zero::gumbel`).
    pub gumbel: bool,
    /// The AlphaZero search proves wins, losses and draws up its tree (`Puct::solver`).
    pub solve: bool,
    /// The AlphaZero search's PUCT settings in hundredths (`Puct`: `c_puct`, the first-play
    /// reduction, the policy softmax temperature); `None` for the defaults. Hundredths keep
    /// the spec `Eq` and its string exact.
    pub cpuct: Option<u16>,
    pub fpu: Option<u16>,
    pub pst: Option<u16>,
    /// The share of a random playout in each leaf's value (`Puct::rollout`), in hundredths.
    pub rollout: Option<u16>,
}

impl PlannerSpec {
    pub fn new(algorithm: Algorithm) -> PlannerSpec {
        PlannerSpec {
            algorithm,
            limits: Limits::default(),
            seed: 1,
            threads: None,
            endgame: 0,
            net: false,
            patterns: false,
            prune: 0,
            contempt: 0,
            generation: 1,
            book: false,
            ponder: false,
            forced: None,
            gumbel: false,
            solve: false,
            cpuct: None,
            fpu: None,
            pst: None,
            rollout: None,
        }
    }

    /// A fresh planner of this spec.
    pub fn build(&self) -> Box<dyn Planner> {
        let planner = self.build_searcher();
        if self.book {
            Box::new(BookPlanner::new(planner, book::built_in(), self.seed))
        } else {
            planner
        }
    }

    /// The planner without its opening book.
    fn build_searcher(&self) -> Box<dyn Planner> {
        match self.algorithm {
            Algorithm::Random => Box::new(RandomPlanner::new(self.seed)),
            Algorithm::Heuristic => Box::new(HeuristicPlanner::new(self.seed)),
            Algorithm::Minimax => Box::new(Minimax::new(self.seed)),
            Algorithm::AlphaBeta => {
                let mut ab = AlphaBeta::with_threads(self.threads.unwrap_or(1))
                    .with_pruning(Pruning::from_bits(self.prune))
                    .with_contempt(self.contempt.into());
                if self.net {
                    // Each evaluation has its own network, fitted to correct it.
                    let shipped = if self.patterns {
                        net::built_in_over_patterns()
                    } else {
                        net::built_in()
                    };
                    match shipped {
                        Ok(net) => ab = ab.with_net(net),
                        Err(e) => tracing::error!("the evaluation network is not used: {e}"),
                    }
                }
                if self.patterns {
                    match patterns::built_in() {
                        Ok(p) => ab = ab.with_patterns(p),
                        Err(e) => tracing::error!("the pattern evaluation is not used: {e}"),
                    }
                }
                Box::new(match self.endgame {
                    0 => ab,
                    pieces => {
                        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
                        ab.with_endgame(endgame::shared(pieces, cores))
                    }
                })
            }
            Algorithm::Mcts => Box::new(Mcts::new(self.seed, self.threads.unwrap_or(2))),
            Algorithm::Zero => match ZeroPlanner::shipped(self.generation) {
                Ok(p) => {
                    let mut puct = p.puct();
                    if let Some(plies) = self.forced {
                        puct.forced_plies = plies;
                    }
                    let from_hundredths = |h: u16| f32::from(h) / 100.0;
                    if let Some(h) = self.cpuct {
                        puct.c_puct = from_hundredths(h);
                    }
                    if let Some(h) = self.fpu {
                        puct.fpu_reduction = from_hundredths(h);
                    }
                    if let Some(h) = self.pst {
                        puct.policy_temperature = from_hundredths(h);
                    }
                    if let Some(h) = self.rollout {
                        puct.rollout = from_hundredths(h);
                    }
                    puct.solver |= self.solve;
                    let p = p.with_puct(puct);
                    let p = match self.endgame {
                        0 => p,
                        pieces => {
                            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
                            p.with_endgame(endgame::shared(pieces, cores))
                        }
                    };
                    Box::new(p.with_gumbel(self.gumbel))
                }
                Err(e) => {
                    let fallback = PlannerSpec::new(Algorithm::AlphaBeta);
                    tracing::warn!("{self} cannot run ({e}): playing {fallback} instead");
                    fallback.build()
                }
            },
        }
    }

    /// The same spec with another seed (the arena varies seeds per game).
    pub fn with_seed(mut self, seed: u64) -> PlannerSpec {
        self.seed = seed;
        self
    }

    /// Sets one `key=value`, as in a spec string or a difficulty file.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), SpecError> {
        let key = key.trim().to_ascii_lowercase();
        let value = value.trim();
        if !self.algorithm.keys().contains(&key.as_str()) {
            return Err(SpecError::UnknownKey {
                algorithm: self.algorithm,
                key,
            });
        }
        let bad = |why: &'static str| SpecError::BadValue {
            key: key.clone(),
            value: value.to_string(),
            why,
        };
        let count = |v: &str| -> Result<u64, SpecError> {
            v.replace('_', "")
                .parse::<u64>()
                .map_err(|_| bad("expected a whole number"))
        };
        match key.as_str() {
            "time" => self.limits.time = Some(parse_duration(value).map_err(bad)?),
            "depth" => {
                let d = count(value)?;
                if !(1..=100).contains(&d) {
                    return Err(bad("depth must be 1 to 100 plies"));
                }
                self.limits.depth = Some(d as u32);
            }
            "nodes" => self.limits.nodes = Some(count(value)?.max(1)),
            "sims" => {
                let n = count(value)?;
                if n == 0 {
                    return Err(bad("at least one simulation"));
                }
                self.limits.sims = Some(n);
            }
            "seed" => self.seed = count(value)?,
            "gen" => {
                let n = count(value)?;
                if !(0..=999).contains(&n) {
                    return Err(bad(
                        "gen must be a generation from 0 (the untrained network) to 999",
                    ));
                }
                self.generation = n as u32;
            }
            "threads" => {
                let n = count(value)?;
                if !(1..=64).contains(&n) {
                    return Err(bad("threads must be 1 to 64"));
                }
                self.threads = Some(n as usize);
            }
            "endgame" => {
                let n = count(value)?;
                if n > u64::from(endgame::MAX_PIECES) {
                    return Err(bad("endgame must be 0 (none) to 5 pieces"));
                }
                self.endgame = n as u32;
            }
            "net" => {
                self.net =
                    parse_switch(value).ok_or_else(|| bad("net must be 1 (on) or 0 (off)"))?
            }
            "patterns" => {
                self.patterns =
                    parse_switch(value).ok_or_else(|| bad("patterns must be 1 (on) or 0 (off)"))?
            }
            "prune" => {
                let n = count(value)?;
                if n > 15 {
                    return Err(bad(
                        "prune must be 0 to 15, a sum of 1 deeper reductions, 2 futility, 4 logarithmic reductions, 8 history malus",
                    ));
                }
                self.prune = n as u8;
            }
            "contempt" => {
                let n = count(value)?;
                if n > 100 {
                    return Err(bad("contempt must be 0 to 100 hundredths of a man"));
                }
                self.contempt = n as u8;
            }
            "book" => {
                self.book =
                    parse_switch(value).ok_or_else(|| bad("book must be 1 (on) or 0 (off)"))?
            }
            "ponder" => {
                self.ponder =
                    parse_switch(value).ok_or_else(|| bad("ponder must be 1 (on) or 0 (off)"))?
            }
            "forced" => {
                let n = count(value)?;
                if n > 64 {
                    return Err(bad("forced must be 0 (off) to 64 plies"));
                }
                self.forced = Some(n as u8);
            }
            "gumbel" => {
                self.gumbel =
                    parse_switch(value).ok_or_else(|| bad("gumbel must be 1 (on) or 0 (off)"))?
            }
            "solve" => {
                self.solve =
                    parse_switch(value).ok_or_else(|| bad("solve must be 1 (on) or 0 (off)"))?
            }
            "cpuct" => {
                self.cpuct = Some(
                    hundredths(value, 1, 1000)
                        .ok_or_else(|| bad("cpuct must be a decimal from 0.01 to 10"))?,
                )
            }
            "fpu" => {
                self.fpu = Some(
                    hundredths(value, 0, 200)
                        .ok_or_else(|| bad("fpu must be a decimal from 0 to 2"))?,
                )
            }
            "pst" => {
                self.pst = Some(
                    hundredths(value, 10, 1000)
                        .ok_or_else(|| bad("pst must be a decimal from 0.1 to 10"))?,
                )
            }
            "rollout" => {
                self.rollout = Some(
                    hundredths(value, 0, 100)
                        .ok_or_else(|| bad("rollout must be a decimal from 0 to 1"))?,
                )
            }
            _ => unreachable!("keys() lists every key matched here"),
        }
        Ok(())
    }
}

/// `1`, `true`, `on`, `yes` or `0`, `false`, `off`, `no`.
fn parse_switch(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "1" | "true" | "on" | "yes" => Some(true),
        "0" | "false" | "off" | "no" => Some(false),
        _ => None,
    }
}

/// A decimal such as `1.5` as a whole number of hundredths, from `lo` to `hi` of them.
fn hundredths(value: &str, lo: u16, hi: u16) -> Option<u16> {
    let h = (value.parse::<f64>().ok()? * 100.0).round();
    (h.is_finite() && h >= f64::from(lo) && h <= f64::from(hi)).then_some(h as u16)
}

/// `1s`, `500ms`, `0.25s`, `2m`, `1.5` (seconds).
pub fn parse_duration(text: &str) -> Result<Duration, &'static str> {
    let t = text.trim();
    let (num, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else {
        (t, 1.0)
    };
    let v: f64 = num
        .trim()
        .parse()
        .map_err(|_| "expected a duration such as 500ms, 1s or 0.5")?;
    if !v.is_finite() || v <= 0.0 || v * scale > 86_400.0 {
        return Err("a duration must be above zero and at most a day");
    }
    Ok(Duration::from_secs_f64(v * scale))
}

fn format_duration(d: Duration) -> String {
    if d < Duration::from_secs(1) && d.subsec_nanos().is_multiple_of(1_000_000) {
        format!("{}ms", d.as_millis())
    } else {
        format!("{}s", d.as_secs_f64())
    }
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
        let mut parts = Vec::new();
        let l = &self.limits;
        if let Some(d) = l.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(t) = l.time {
            parts.push(format!("time={}", format_duration(t)));
        }
        if let Some(n) = l.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(n) = l.sims {
            parts.push(format!("sims={n}"));
        }
        if let Some(n) = self.threads {
            parts.push(format!("threads={n}"));
        }
        if self.endgame != 0 {
            parts.push(format!("endgame={}", self.endgame));
        }
        if self.net {
            parts.push("net=1".to_string());
        }
        if self.patterns {
            parts.push("patterns=1".to_string());
        }
        if self.prune != 0 {
            parts.push(format!("prune={}", self.prune));
        }
        if self.contempt != 0 {
            parts.push(format!("contempt={}", self.contempt));
        }
        if self.book {
            parts.push("book=1".to_string());
        }
        if self.ponder {
            parts.push("ponder=1".to_string());
        }
        if let Some(n) = self.forced {
            parts.push(format!("forced={n}"));
        }
        if self.gumbel {
            parts.push("gumbel=1".to_string());
        }
        if self.solve {
            parts.push("solve=1".to_string());
        }
        for (key, h) in [
            ("cpuct", self.cpuct),
            ("fpu", self.fpu),
            ("pst", self.pst),
            ("rollout", self.rollout),
        ] {
            if let Some(h) = h {
                parts.push(format!("{key}={}", f64::from(h) / 100.0));
            }
        }
        if self.algorithm == Algorithm::Zero {
            parts.insert(0, format!("gen={}", self.generation));
        }
        if self.seed != 1 {
            parts.push(format!("seed={}", self.seed));
        }
        if parts.is_empty() {
            write!(f, "{}", self.algorithm)
        } else {
            write!(f, "{}:{}", self.algorithm, parts.join(","))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(s: &str) -> PlannerSpec {
        s.parse().expect("valid spec")
    }

    #[test]
    fn parses_the_documented_examples() {
        let a = spec("alphabeta:time=1s");
        assert_eq!(a.algorithm, Algorithm::AlphaBeta);
        assert_eq!(a.limits.time, Some(Duration::from_secs(1)));
        assert_eq!(spec("mcts:sims=2000").limits.sims, Some(2000));
        assert_eq!(spec("minimax:depth=6").limits.depth, Some(6));
        let b = spec("alphabeta:depth=12,time=500ms");
        assert_eq!(b.limits.depth, Some(12));
        assert_eq!(b.limits.time, Some(Duration::from_millis(500)));
        assert_eq!(spec("random:seed=3").seed, 3);
        assert_eq!(spec(" Heuristic ").algorithm, Algorithm::Heuristic);
        assert_eq!(spec("mcts:time=0.25,threads=1").threads, Some(1));
    }

    #[test]
    fn display_round_trips() {
        for s in [
            "alphabeta:depth=12,time=500ms",
            "alphabeta:time=1.5s",
            "alphabeta:time=1s,threads=2,endgame=4",
            "alphabeta:depth=8,net=1",
            "alphabeta:depth=8,patterns=1",
            "alphabeta:depth=8,patterns=1,prune=3",
            "alphabeta:depth=8,patterns=1,prune=6,contempt=20",
            "alphabeta:time=1s,threads=2,endgame=5,net=1,book=1,ponder=1",
            "mcts:time=2s,sims=100,threads=2,seed=9",
            "random",
            "minimax:depth=6",
            "zero:gen=9,sims=800,cpuct=2.5,fpu=0,pst=1.6",
            "zero:gen=10,time=1s,endgame=5,solve=1",
            "zero:gen=10,sims=800,rollout=0.5",
        ] {
            let p = spec(s);
            assert_eq!(p.to_string(), s);
            assert_eq!(spec(&p.to_string()), p);
        }
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let err = |s: &str| s.parse::<PlannerSpec>().expect_err(s);
        assert_eq!(err(""), SpecError::Empty);
        assert!(matches!(err("chess"), SpecError::UnknownAlgorithm(n) if n == "chess"));
        assert!(err("alphabeta:sims=5")
            .to_string()
            .contains("time, depth, nodes"));
        assert_eq!(
            err("minimax:depth"),
            SpecError::MissingValue("depth".into())
        );
        assert!(matches!(
            err("minimax:depth=deep"),
            SpecError::BadValue { .. }
        ));
        assert!(matches!(err("minimax:depth=0"), SpecError::BadValue { .. }));
        assert!(matches!(
            err("alphabeta:time=-1s"),
            SpecError::BadValue { .. }
        ));
        assert!(matches!(
            err("alphabeta:time=fast"),
            SpecError::BadValue { .. }
        ));
        assert!(matches!(
            err("alphabeta:endgame=6"),
            SpecError::BadValue { .. }
        ));
        assert!(matches!(
            err("zero:gen=9,pst=0"),
            SpecError::BadValue { .. }
        ));
        assert!(matches!(
            err("zero:gen=9,rollout=1.5"),
            SpecError::BadValue { .. }
        ));
        assert!(matches!(
            err("zero:gen=9,cpuct=lots"),
            SpecError::BadValue { .. }
        ));
        assert!(matches!(
            err("mcts:endgame=4"),
            SpecError::UnknownKey { .. }
        ));
        assert!(matches!(
            err("alphabeta:net=maybe"),
            SpecError::BadValue { .. }
        ));
        assert!(matches!(err("mcts:net=1"), SpecError::UnknownKey { .. }));
        assert!(matches!(
            err("alphabeta:ponder=always"),
            SpecError::BadValue { .. }
        ));
        assert!(matches!(err("mcts:ponder=1"), SpecError::UnknownKey { .. }));
        assert!(matches!(
            err("alphabeta:contempt=101"),
            SpecError::BadValue { .. }
        ));
        assert_eq!(
            err("mcts:sims=1,sims=2"),
            SpecError::Repeated("sims".into())
        );
    }

    #[test]
    fn builds_every_algorithm() {
        for a in Algorithm::ALL {
            let p = PlannerSpec::new(a).build();
            // A generation that is not on disk is replaced by alpha-beta.
            assert!(
                p.name().starts_with(a.name())
                    || (a == Algorithm::Zero && p.name().starts_with("alphabeta"))
            );
        }
    }
}
