//! The ROS 2 client layer of the robot. This part reads the command line and the environment
//! exactly as rcl does (`--ros-args`, remaps, `-p`, `--params-file`, `ROS_DOMAIN_ID`, the
//! localhost-only settings), so nodes behave the same under `ros2 run`, `ros2 launch` and our
//! own launcher, on either backend.
//!
//! Node code uses [`Node`] for publishers, subscriptions (streams), service servers and clients
//! (every call with a timeout), action servers and clients (goal, feedback, result, cancel),
//! parameters, the clock, and [`logging::init`] so `tracing` reaches `/rosout`.
//!
//! Two backends with one API, beside a core that knows neither (arguments, environment, names,
//! parameters, QoS, security, shutdown, logging rules) and holds what both do the same way: a
//! node's names and accessors (`node_core`), a service server and its serve loop
//! ([`service_server`]), a goal received and a goal running with its cancel request
//! ([`goal`]), each over what the backend does to send them.
//! - `dds_backend`: ros2-client over RustDDS, pure Rust, always compiled, the default;
//! - `r2r_backend` (feature `r2r`): r2r over rcl, for a robot with ROS 2 sourced
//!   (docs/r2r-backend.md).
//!
//! Both backends have the same files (`node`, `pubsub`, `service`, `action_server`,
//! `action_client`, `qos`, `clock`, `logging`) beside those only one needs. The choice is made
//! in one place, below: `ros::Node` and the rest name the backend the feature selects, so node
//! code compiles unchanged against either, and `api` checks at compile time that both backends
//! offer every item of the API with the same signature.
//!
//! # Example
//!
//! Two nodes of one process, a talker and a listener, exchange one message:
//!
//! ```
//! use std::time::Duration;
//!
//! use checkers_msgs::msg::GameEvent;
//! use futures::StreamExt;
//! use ros::env::{DiscoveryRange, RosEnv};
//! use ros::{Node, Qos, RosArgs};
//!
//! # #[tokio::main]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // Discovery kept to this host, in a domain the tests leave alone, on a topic of this process
//! // only: nothing else hears the message or disturbs the exchange.
//! let env = RosEnv {
//!     domain_id: 1 + (std::process::id() % 9) as u16,
//!     discovery: DiscoveryRange::Localhost,
//!     security: None,
//! };
//! let topic = format!("/doc/chatter_{}", std::process::id());
//! let mut talker = Node::new("talker", RosArgs::default(), env.clone())?;
//! let mut listener = Node::new("listener", RosArgs::default(), env)?;
//!
//! // `Qos::State` keeps the last message for a subscription that matches later, so the
//! // talker need not wait for the listener to be discovered.
//! let chatter = talker.publisher::<GameEvent>(&topic, Qos::State)?;
//! let heard = listener.subscription::<GameEvent>(&topic, Qos::State)?;
//! let event = GameEvent {
//!     ply: 1,
//!     text: "hello".into(),
//!     ..Default::default()
//! };
//! chatter.publish(event).await?;
//!
//! let first = tokio::time::timeout(Duration::from_secs(30), heard.stream().next()).await?;
//! assert_eq!(first.map(|e| e.text).as_deref(), Some("hello"));
//!
//! drop((chatter, heard));
//! listener.close().await;
//! talker.close().await;
//! # Ok(())
//! # }
//! ```

pub mod args;
mod cancel;
pub mod clock;
pub mod diagnostics;
pub mod env;
pub mod error;
pub mod goal;
pub mod logging;
pub mod names;
mod node_core;
mod node_error;
pub mod params;
pub mod qos;
mod retry;
pub mod security;
pub mod service_server;
mod shutdown;
pub mod tasks;

mod api;
pub mod dds_backend;
#[cfg(feature = "r2r")]
pub mod r2r_backend;

/// The backend this build's [`Node`] runs on.
#[cfg(not(feature = "r2r"))]
use dds_backend as backend;
#[cfg(feature = "r2r")]
use r2r_backend as backend;

pub use backend::{
    Action, ActionClient, ActionServer, GoalHandle, NewGoal, Node, Publisher, RequestId,
    RunningGoal, Service, ServiceClient, ServiceServer, Subscription, BACKEND,
};

pub use args::{ArgsError, RosArgs};
pub use error::RosError;
pub use goal::GoalOutcome;
pub use node_error::NodeError;
pub use params::{ParamValue, Params, ParamsError, ParamsGuard, ServeDeclared};
pub use qos::Qos;
pub use shutdown::{shutdown_signal, until_shutdown};
pub use tasks::{Closer, Tasks};
