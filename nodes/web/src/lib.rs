//! The robot's web window: one HTTP server (axum) that shows the game, the robot's face, the
//! arm and the robot's health in a browser, lets a visitor play on the simulated robot, and
//! speaks Foxglove's WebSocket protocol for Foxglove and Lichtblick; and the recorder that keeps
//! every game as an MCAP file, which `checkers-robot replay` plays back into the same page.
//!
//! - [`run`]: the `web_node` of the graph (parameters in config/web.yaml);
//! - [`run_recorder`]: the `recorder_node`, every topic of the graph into
//!   `STATE_DIR/games/*.mcap` beside the PDN;
//! - [`Replay::run`]: a recording played back into the page, without a graph;
//! - the server's routes: `/` the page, `/ws` its live feed, `/foxglove` Foxglove's protocol.
//!
//! What the page and the server say to each other is in docs/web.md.
//!
//! # Example
//!
//! The [`Hub`] between the graph and the open pages: a page opened mid-game is told the game
//! so far, an open one each new message, and a new game starts a new move list.
//!
//! ```
//! use checkers_msgs::msg::GameEvent;
//! use graph_client::tap;
//! use web::Hub;
//!
//! let events = tap::find("/game/events").expect("a topic of the graph");
//! let event = |kind| tap::sample(events, &GameEvent { kind, ..GameEvent::default() });
//! let hub = Hub::new(None);
//! hub.publish(event(GameEvent::KIND_NEW_GAME));
//! hub.publish(event(GameEvent::KIND_HUMAN_MOVED));
//! assert_eq!(hub.snapshot().len(), 2);
//!
//! let mut page = hub.subscribe();
//! hub.publish(event(GameEvent::KIND_NEW_GAME));
//! assert!(page.try_recv().is_ok());
//! assert_eq!(hub.snapshot().len(), 1);
//! ```

mod arm_view;
mod controls;
mod foxglove;
mod hub;
mod node;
mod recorder;
mod replay;
mod server;
mod session;

// The graph's nodes: the web window (`web_node`) and the recorder (`recorder_node`).
pub use node::run;
pub use recorder::run as run_recorder;

// A recording played back into the page, without a graph.
pub use replay::{open as open_replay, Replay, ReplayOptions};

// What the page shows: the messages between the graph and the open pages, the controls a
// visitor has, and the arm's drawing from the robot's configs.
pub use arm_view::{ArmView, ArmViewError};
pub use controls::Controls;
pub use hub::Hub;
pub use node::arm_view as load_arm_view;
