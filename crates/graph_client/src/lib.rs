//! Driving and watching the running robot graph from outside it:
//! - [`client`]: a node that reads the game state, events, face, voice and evaluations, and
//!   calls the game's services and the simulated human (`play`, `watch`, the web window, the
//!   whole-graph tests);
//! - [`tap`]: every topic of the graph as it goes by, each message as the CDR a recording or
//!   Foxglove carries and as JSON for a page, with its `ros2msg` schema; and back from CDR
//!   when a recording is replayed.

pub mod client;
mod error;
pub mod tap;

pub use error::{GraphError, Result};
