//! The draughts robot's game-tree search behind one trait, and what picks and measures it.
//! It knows nothing of ROS: the planner node, the trainers and the arbiter's fallback all use it.
//!
//! - [`Planner`]: position and history in, a move with its value, win probability and search
//!   statistics out; limits, a cancel flag and a progress callback in [`Limits`] and
//!   [`Control`];
//! - the planners: [`RandomPlanner`], [`HeuristicPlanner`] (reward and punishment),
//!   [`Minimax`] (the seed's plain search and evaluation), [`AlphaBeta`] (the strong one, which
//!   can read the [`EndgameDb`] of every ending of up to five pieces), [`Mcts`] and
//!   [`ZeroPlanner`] (AlphaZero: PUCT guided by a generation of the policy-value network);
//! - [`PlannerSpec`]: `alphabeta:depth=12,time=500ms` strings;
//! - [`play_games`], [`play_matches`], [`Tally`] and [`Opening`]: playing planners against
//!   each other and rating them;
//! - [`Book`]: the opening book the strongest levels play from;
//! - [`tune()`]: Texel tuning of the alpha-beta evaluation;
//! - [`Level`]: the difficulty levels of `config/difficulty/*.yaml`, each a planner spec with
//!   its rank and description ([`load_all`], [`load_level`]);
//! - [`judge`] and [`review_game`]: judging a played move against every other (best, good,
//!   inaccuracy, mistake, blunder, brilliant), for the robot's verdicts and game reviews.
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

mod alphabeta;
mod arena;
mod bits;
mod book;
mod coach;
mod elo;
mod endgame;
mod heuristic;
mod levels;
mod mcts;
mod minimax;
mod openings;
mod planner;
mod random;
mod selfplay;
mod spec;
mod tournament;
mod tune;
mod zero;

// The trait every planner implements, what goes in and what comes out.
pub use planner::{
    value_to_win_probability, win_probability_to_value, Control, Decision, Limits, PlanError,
    Planner, Progress, ProgressFn, SearchStats, VALUE_SCALE_K, WIN_SCORE,
};

// Planner specs: `alphabeta:depth=12,time=500ms` strings and what they build.
pub use spec::{
    parse_duration, reference, Algorithm, AlphaBetaSpec, MctsSpec, MinimaxSpec, PlannerSpec,
    SeedSpec, SpecError, ZeroSpec,
};

// The difficulty levels of `config/difficulty/*.yaml`.
pub use levels::{
    level_from_params, load_all, load_each, load_level, load_level_file, parse_level, Level,
    LevelError, ParamError,
};

// The simple planners: uniform random, reward and punishment, the seed's minimax.
pub use heuristic::{reward, HeuristicPlanner};
pub use minimax::{seed_score, Minimax, DEFAULT_DEPTH as DEFAULT_MINIMAX_DEPTH};
pub use random::RandomPlanner;

// Alpha-beta, its pruning switches and its hand-tuned linear evaluation.
pub use alphabeta::eval::{evaluate, Weights, FEATURE_NAMES, N_FEATURES, WEIGHTS};
pub use alphabeta::search::Pruning;
pub use alphabeta::{AlphaBeta, DEFAULT_DEPTH as DEFAULT_ALPHABETA_DEPTH};

// Alpha-beta's learned evaluation correction (NNUE style), as the trainer fits it.
pub use alphabeta::net::{
    active_inputs, built_in as built_in_net, load as load_net, EvalNet, NetError,
    FILE_VARIABLE as NET_FILE_VARIABLE, INPUTS, MAX_ACTIVE as NET_MAX_ACTIVE, MAX_HIDDEN,
    MIN_PIECES,
};

// Alpha-beta's pattern evaluation, as the trainer fits it.
pub use alphabeta::patterns::{
    built_in as built_in_patterns, load as load_patterns, Active, PatternError, Patterns,
    FILE_VARIABLE as PATTERNS_FILE_VARIABLE, N_WEIGHTS,
};

// The endgame database of every ending of up to five pieces.
pub use endgame::{
    cache_path, shared as shared_endgame, EndgameDb, EndgameFileError, Outcome, DEFAULT_PIECES,
    MAX_PIECES,
};

// Monte Carlo tree search with random playouts.
pub use mcts::{Mcts, DEFAULT_SIMS as DEFAULT_MCTS_SIMS};

// AlphaZero: the planner, and the PUCT tree and root noise its self-play trainer drives.
pub use zero::gumbel::gumbel_draw;
pub use zero::noise::dirichlet;
pub use zero::{Gathered, Leaf, Puct, Tree, ZeroPlanner, DEFAULT_SIMS as DEFAULT_ZERO_SIMS};

// The opening book the strongest levels play from, and how it is built.
pub use book::{
    build as build_book, Book, BookError, BookMove, BookPlanner, BuildOptions, Entry as BookEntry,
};

// Start positions for matches.
pub use openings::{
    balanced_openings, built_in as built_in_openings, openings_by_value, parse_openings, Opening,
    OpeningError,
};

// Playing planners against each other.
pub use arena::{play_games, points, DEFAULT_MAX_PLIES};

// Rating what was played.
pub use elo::Tally;

// Matches, gauntlets and round robins over many games.
pub use tournament::{
    play_matches, round_robin, round_robin_pairs, Gauntlet, Match, Settings as MatchSettings,
};

// Alpha-beta's games against itself, recorded for the trainers.
pub use selfplay::{
    play_games as play_self_play_games, score_of, Evaluation, EvaluationError, Recorder,
    SelfPlayConfig,
};

// Texel tuning of the linear evaluation.
pub use tune::{samples_from_game, tune, weights_match, Sample};

// Judging played moves.
pub use coach::{
    comment, describe, judge, mover, review_game, score_moves, worst, Judgement, Reviewed, Scored,
    Thresholds, Verdict,
};
