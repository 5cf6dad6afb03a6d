//! The draughts robot's game-tree search behind one trait, and what picks and measures it.
//! It knows nothing of ROS: the planner node, the trainers and the arbiter's fallback all use it.
//!
//! - [`Planner`]: position and history in, a move with its value, win probability and search
//!   statistics out; limits, a cancel flag and a progress callback in [`Limits`] and
//!   [`Control`];
//! - the planners: [`random`], [`heuristic`] (reward and punishment), [`minimax`] (the seed's
//!   plain search and evaluation), [`alphabeta`] (the strong one, which can read the
//!   [`endgame`] database of every ending of up to five pieces), [`mcts`] and [`zero`]
//!   (AlphaZero: PUCT guided by a generation of the policy-value network);
//! - [`spec`]: `alphabeta:depth=12,time=500ms` strings;
//! - [`arena`], [`elo`] and [`openings`]: playing planners against each other and rating them;
//! - [`book`]: the opening book the strongest levels play from;
//! - [`tune`]: Texel tuning of the alpha-beta evaluation;
//! - [`Level`]: the difficulty levels of `config/difficulty/*.yaml`, each a planner spec with
//!   its rank and description ([`load_all`], [`load_level`]);
//! - [`coach`]: judging a played move against every other (best, good, inaccuracy, mistake,
//!   blunder, brilliant), for the robot's verdicts and game reviews.
//!
//! A planner built from its spec string chooses a move:
//!
//! ```
//! use std::sync::{atomic::AtomicBool, Arc};
//!
//! use draughts::Game;
//! use search::{Control, PlannerSpec};
//!
//! let spec: PlannerSpec = "alphabeta:depth=6".parse()?;
//! let mut planner = spec.build();
//! let control = Control { cancel: Arc::new(AtomicBool::new(false)), progress: None };
//!
//! let game = Game::new();
//! let decision = planner.choose(&game, &spec.limits(), &control)?;
//! assert!(game.legal_moves().contains(&decision.best));
//! assert_eq!(decision.stats.depth, 6);
//!
//! // White to move and win: the capture c3:e5 takes Black's last piece.
//! let won = Game::from_fen("W:Wc3:Bd4")?;
//! let decision = planner.choose(&won, &spec.limits(), &control)?;
//! assert_eq!(decision.best.text(), "c3:e5");
//! assert!(decision.win_probability > 0.99);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod alphabeta;
pub mod arena;
mod bits;
pub mod book;
pub mod coach;
pub mod elo;
pub mod endgame;
pub mod heuristic;
mod levels;
pub mod mcts;
pub mod minimax;
pub mod openings;
mod planner;
pub mod random;
pub mod selfplay;
mod spec;
pub mod tournament;
pub mod tune;
pub mod zero;

pub use levels::{
    level_from_params, load_all, load_each, load_level, load_level_file, parse_level, Level,
    LevelError, ParamError,
};

pub use planner::{
    value_to_win_probability, win_probability_to_value, Control, Decision, Limits, PlanError,
    Planner, Progress, ProgressFn, SearchStats, VALUE_SCALE_K, WIN_SCORE,
};
pub use spec::{
    parse_duration, reference, Algorithm, AlphaBetaSpec, MctsSpec, MinimaxSpec, PlannerSpec,
    SeedSpec, SpecError, ZeroSpec,
};
