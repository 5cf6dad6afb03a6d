//! Driving the running robot graph from the command line: [`client`] talks to it over ROS
//! (game state, events, face, voice; the simulated human and the game services; the
//! `graph_client` crate, which the web window shares), [`sim`] launches the simulated robot as
//! child processes through `checkers-robot launch`. `play`, `watch` and `soak` build on these,
//! and so do the whole-graph tests.

pub use graph_client::client;
pub mod sim;

pub use graph_client::{GraphError, Result};
