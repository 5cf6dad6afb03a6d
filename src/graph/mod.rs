//! Driving the running robot graph from the command line: [`client`] talks to it over ROS
//! (game state, events, face, voice; the simulated human and the game services), [`sim`]
//! launches the simulated robot as child processes through `checkers-robot launch`.
//! `play`, `watch` and `soak` build on these, and so do the whole-graph tests.

pub mod client;
mod error;
pub mod sim;

pub use error::{GraphError, Result};
