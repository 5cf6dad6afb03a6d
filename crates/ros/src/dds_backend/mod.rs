//! Backend 1, the default: ros2-client over RustDDS, pure Rust, no ROS install. It speaks the
//! DDS wire protocol rcl's RMWs speak (topic names, types, type hashes, the service and action
//! protocols), so these nodes and rcl's see each other.

mod action_client;
mod action_server;
mod clock;
mod discovery;
pub mod logging;
mod node;
mod pubsub;
mod qos;
mod service;
mod type_hashes;
mod wire;

pub use action_client::{ActionClient, GoalHandle};
pub use action_server::{AcceptedGoal, ActionServer, NewGoal, ReceivedGoal, RunningGoal};
pub use node::{Node, ParamServices};
pub use pubsub::{Publisher, Subscription};
pub use service::{RequestId, ServerRequests, ServiceClient, ServiceServer};
pub use type_hashes::{announce_type_hashes, dds_type_name, user_data};

/// The name of this backend, for code that must tell (`crate::BACKEND`).
pub const BACKEND: &str = "ros2-client";

/// A service type this backend can serve and call: every [`checkers_msgs::ServiceInterface`].
pub trait Service: checkers_msgs::ServiceInterface {}
impl<S: checkers_msgs::ServiceInterface> Service for S {}

/// An action type this backend can serve and call: every [`checkers_msgs::ActionInterface`].
pub trait Action: checkers_msgs::ActionInterface {}
impl<A: checkers_msgs::ActionInterface> Action for A {}
