//! Building the planner a spec describes.

use super::{AlphaBetaSpec, PlannerSpec, ZeroSpec};
use crate::alphabeta::{net, patterns, AlphaBeta};
use crate::book::{self, BookPlanner};
use crate::endgame;
use crate::heuristic::HeuristicPlanner;
use crate::mcts::Mcts;
use crate::minimax::Minimax;
use crate::planner::Planner;
use crate::random::RandomPlanner;
use crate::zero::ZeroPlanner;

impl PlannerSpec {
    /// A fresh planner of this spec.
    pub fn build(&self) -> Box<dyn Planner> {
        let (planner, book) = match self {
            PlannerSpec::Random(s) => (
                Box::new(RandomPlanner::new(s.seed)) as Box<dyn Planner>,
                false,
            ),
            PlannerSpec::Heuristic(s) => (Box::new(HeuristicPlanner::new(s.seed)) as _, false),
            PlannerSpec::Minimax(s) => (Box::new(Minimax::new(s.seed)) as _, false),
            PlannerSpec::AlphaBeta(s) => (Box::new(alphabeta(s)) as _, s.book),
            PlannerSpec::Mcts(s) => (
                Box::new(Mcts::new(s.seed, s.threads.unwrap_or(2))) as _,
                false,
            ),
            PlannerSpec::Zero(s) => (zero(self, s), s.book),
        };
        if book {
            Box::new(BookPlanner::new(planner, book::built_in(), self.seed()))
        } else {
            planner
        }
    }
}

fn alphabeta(s: &AlphaBetaSpec) -> AlphaBeta {
    let mut ab = AlphaBeta::with_threads(s.threads.unwrap_or(1))
        .with_pruning(s.pruning)
        .with_contempt(s.contempt.into());
    if s.net {
        // Each evaluation has its own network, fitted to correct it.
        let shipped = if s.patterns {
            net::built_in_over_patterns()
        } else {
            net::built_in()
        };
        match shipped {
            Ok(net) => ab = ab.with_net(net),
            Err(e) => tracing::error!("the evaluation network is not used: {e}"),
        }
    }
    if s.patterns {
        match patterns::built_in() {
            Ok(p) => ab = ab.with_patterns(p),
            Err(e) => tracing::error!("the pattern evaluation is not used: {e}"),
        }
    }
    match s.endgame {
        0 => ab,
        pieces => ab.with_endgame(endgame::shared(pieces, cores())),
    }
}

/// The AlphaZero planner, or alpha-beta when its generation cannot be loaded.
fn zero(spec: &PlannerSpec, s: &ZeroSpec) -> Box<dyn Planner> {
    let p = match ZeroPlanner::shipped(s.generation) {
        Ok(p) => p,
        Err(e) => {
            let fallback = PlannerSpec::AlphaBeta(AlphaBetaSpec::default());
            tracing::warn!("{spec} cannot run ({e}): playing {fallback} instead");
            return fallback.build();
        }
    };
    let mut puct = p.puct();
    if let Some(plies) = s.forced {
        puct.forced_plies = plies;
    }
    let from_hundredths = |h: u16| f32::from(h) / 100.0;
    if let Some(h) = s.cpuct {
        puct.c_puct = from_hundredths(h);
    }
    if let Some(h) = s.fpu {
        puct.fpu_reduction = from_hundredths(h);
    }
    if let Some(h) = s.pst {
        puct.policy_temperature = from_hundredths(h);
    }
    if let Some(h) = s.rollout {
        puct.rollout = from_hundredths(h);
    }
    puct.solver |= s.solve;
    let p = p.with_puct(puct);
    let p = match s.endgame {
        0 => p,
        pieces => p.with_endgame(endgame::shared(pieces, cores())),
    };
    Box::new(p.with_gumbel(s.gumbel))
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
