//! The AlphaZero network of the draughts robot, as the robot paper describes it: input planes
//! from the side to move's point of view with the positions before ([`encode`]), the paper's
//! 280 actions, the residual policy-value network's layers ([`layers`]), and the generations on
//! disk with batched inference in plain Rust ([`model`]). It knows nothing of ROS or of search,
//! nor of burn: the `zero` planner of `crates/search` and the trainer `zero_train` (which
//! trains the network in burn) build on it.
//!
//! # Example
//!
//! A small network with random weights (a first generation) on the start position: a value
//! for the side to move, and priors over its seven legal moves from the policy's logits.
//!
//! ```
//! use draughts::Game;
//! use zero::encode::{move_priors, ACTIONS};
//! use zero::{Model, Shape};
//!
//! let model = Model::random(Shape { blocks: 1, filters: 8 }, 7);
//! let game = Game::new();
//! let out = model.evaluate_games(std::slice::from_ref(&game));
//! assert!((-1.0..=1.0).contains(&out.values[0]));
//! assert_eq!(out.logits_of(0).len(), ACTIONS);
//!
//! let moves = game.legal_moves();
//! let priors = move_priors(game.position().side_to_move(), &moves, out.logits_of(0));
//! assert_eq!(priors.len(), 7);
//! assert!((priors.iter().sum::<f32>() - 1.0).abs() < 1e-4);
//! ```

pub mod encode;
mod file;
mod folded;
pub mod layers;
pub mod model;

use std::path::PathBuf;

pub use layers::{Layers, Shape};
pub use model::{generation_file, load_generation, Model, ModelError, Outputs};

/// Where the shipped generations are looked for: `$CHECKERS_ROBOT_MODELS`, else `models/` in
/// the working directory, else the source tree's `models/`.
pub fn models_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CHECKERS_ROBOT_MODELS") {
        return PathBuf::from(dir);
    }
    let here = PathBuf::from("models");
    if here.is_dir() {
        return here;
    }
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../models"))
}
