//! Training the AlphaZero generations (`zero-train`): batched self-play and matches
//! ([`games`]), training rounds ([`train`]), the replay window on disk ([`replay`]), the warm
//! start from alpha-beta's games ([`warm`]), and the loop with gating, cards and resume
//! ([`run`]).
//!
//! # Example
//!
//! A training sample of the start position, as self-play makes it (the encoded position, the
//! search's visit shares over actions, the game's result), through a replay file and back.
//!
//! ```
//! use draughts::Game;
//! use zero::encode::{action_of, encode};
//! use zero_train::games::{value_target, Sample};
//! use zero_train::replay::{read_file, write_file};
//!
//! let game = Game::new();
//! let moves = game.legal_moves();
//! let action = |i: usize| action_of(&moves[i]) as u16;
//! let sample = Sample {
//!     input: encode(&game),
//!     policy: vec![(action(0), 0.75), (action(1), 0.25)],
//!     value: value_target(1.0, 0.2, 0.5),
//! };
//! assert!((sample.value - 0.6).abs() < 1e-6, "a won game, blended with the search's 0.2");
//!
//! let file = std::env::temp_dir().join(format!("zero-train-doc-{}.bin", std::process::id()));
//! write_file(&file, std::slice::from_ref(&sample))?;
//! let back = read_file(&file);
//! std::fs::remove_file(&file)?;
//! let back = back?;
//! assert_eq!((back.len(), back[0].value), (1, sample.value));
//! assert_eq!(back[0].input, sample.input, "the start's planes are all 0 or 1: kept exactly");
//! assert_eq!(back[0].dense_policy().iter().sum::<f32>(), 1.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod games;
pub mod net;
pub mod replay;
pub mod run;
pub mod train;
pub mod warm;
