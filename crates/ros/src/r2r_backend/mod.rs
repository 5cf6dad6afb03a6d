//! Backend 2: the same API as `dds_backend` (checked by `crate::api`), over r2r (rcl and the ROS middleware), for a
//! robot with ROS 2 sourced. See `docs/r2r-backend.md`.
//!
//! r2r only knows the message types it generated at its own build time from the interface
//! packages it found, so:
//! - publishers, subscriptions, service clients and action clients use r2r's untyped API by
//!   ROS type name, our types crossing as JSON (same field names as the interface files);
//! - service and action servers have no untyped API in r2r: they need a binding from our type
//!   to r2r's native one ([`R2rService`], [`R2rAction`]), implemented for every `checkers_msgs`
//!   interface where r2r generated them (cfg `ros_r2r_bindings`, set by build.rs).
//!
//! rcl needs `spin_once` to move anything: every node spins on its own thread (see `spin`).

mod action_client;
mod action_server;
mod bindings;
mod checks;
mod clock;
mod convert;
pub mod logging;
mod node;
mod pubsub;
mod qos;
mod service;
mod spin;

pub use action_client::{ActionClient, GoalHandle};
pub use action_server::{
    AcceptedGoal, ActionServer, NewGoal, R2rAction, ReceivedGoal, RunningGoal,
};
pub use node::{Node, ParamServices};
pub use pubsub::{Publisher, Subscription};
pub use service::{R2rService, RequestId, ServerRequests, ServiceClient, ServiceServer};

/// The name of this backend, for code that must tell (`crate::BACKEND`).
pub const BACKEND: &str = "r2r";

/// A service type this backend can serve and call: those with r2r bindings.
pub use service::R2rService as Service;

/// An action type this backend can serve and call: those with r2r bindings.
pub use action_server::R2rAction as Action;
