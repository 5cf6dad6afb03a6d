//! Training alpha-beta's learned evaluation correction (`search::EvalNet`):
//! [`data`] makes the labelled positions (games between alpha-beta and MCTS, each quiet
//! position scored by a fresh MCTS search), [`model`] fits the network with `burn` and exports
//! it in the planner's text format. [`selfplay`] and [`patterns_fit`] do the same for the
//! pattern evaluation (`search::Patterns`): fast self-play games, then logistic
//! regression on their results; [`net_fit`] fits the network on those same positions, at
//! scale, over either evaluation. The `eval-train` binary drives them all; `docs/planners.md`
//! has the commands and the figures.
//!
//! # Example
//!
//! The labelled positions as [`data`] stores them, a line each: the FEN, MCTS's expected score
//! for the side to move, and that side's points in the game. A self-play [`selfplay::Record`]
//! blends its game's result with its search's value.
//!
//! ```
//! use draughts::{parse_fen, START_FEN};
//! use eval_train::data::{read_samples, Sample};
//! use eval_train::selfplay::Record;
//!
//! let file = "W:W21-32:B1-12\t0.5500\t0.5\n\nW:Wc3:Bd4\t0.9900\t1\n";
//! let samples = read_samples(file.as_bytes())?;
//! assert_eq!(samples.len(), 2);
//! assert_eq!(samples[0].pos, parse_fen(START_FEN)?);
//! assert_eq!(Sample::parse(&samples[1].to_line())?, samples[1]);
//! let bad = read_samples("W:W21-32:B1-12\t1.5\t1".as_bytes()).map_err(|e| e.to_string());
//! let why = "line 1: MCTS value \"1.5\" is not a number from 0 to 1";
//! assert_eq!(bad.err().as_deref(), Some(why));
//!
//! // A drawn game (White's points are doubled: 1 is a draw) scores 1/2; blended halfway with
//! // the search's 0.8, the target is 0.65.
//! let drawn = Record { pos: samples[0].pos, white_points: 1, search: Some(0.8) };
//! assert!((drawn.blended_target(0.5) - 0.65).abs() < 1e-6);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod data;
pub mod model;
pub mod net_fit;
pub mod patterns_fit;
pub mod selfplay;
