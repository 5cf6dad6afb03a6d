//! The robot's web window: one HTTP server (axum) that shows the game, the robot's face, the
//! arm and the robot's health in a browser, lets a visitor play on the simulated robot, and
//! speaks Foxglove's WebSocket protocol for Foxglove and Lichtblick; and the recorder that keeps
//! every game as an MCAP file, which `checkers-robot replay` plays back into the same page.
//!
//! - [`node::run`]: the `web_node` of the graph (parameters in config/web.yaml);
//! - [`recorder::run`]: the `recorder_node`, every topic of the graph into
//!   `STATE_DIR/games/*.mcap` beside the PDN;
//! - [`replay::run`]: a recording played back into the page, without a graph;
//! - [`server`]: the routes: `/` the page, `/ws` its live feed, `/foxglove` Foxglove's protocol.
//!
//! What the page and the server say to each other is in docs/web.md.

mod arm_view;
mod controls;
mod foxglove;
mod hub;
pub mod node;
pub mod recorder;
pub mod replay;
pub mod server;
mod session;

pub use arm_view::{ArmView, ArmViewError};
pub use controls::Controls;
pub use hub::Hub;
