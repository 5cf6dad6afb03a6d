//! The AlphaZero network of the draughts robot, as the robot paper describes it: input planes
//! from the side to move's point of view with the positions before ([`encode`]), the paper's
//! 280 actions, a residual policy-value network in burn ([`net`]), and the generations on disk
//! with batched inference ([`model`]). It knows nothing of ROS or of search: the `zero` planner
//! of `crates/search` and the trainer `zero_train` build on it.

pub mod encode;
mod folded;
pub mod model;
pub mod net;

use std::path::PathBuf;

pub use model::{generation_file, load_generation, Model, ModelError, Outputs};
pub use net::{Net, Shape};

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
