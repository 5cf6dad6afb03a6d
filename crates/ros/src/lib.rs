//! The ROS 2 client layer of the robot. This part reads the command line and the environment
//! exactly as rcl does (`--ros-args`, remaps, `-p`, `--params-file`, `ROS_DOMAIN_ID`, the
//! localhost-only settings), so nodes behave the same under `ros2 run`, `ros2 launch` and our
//! own launcher, on either backend.
//!
//! Node code uses [`Node`] for publishers, subscriptions (streams), service servers and clients
//! (every call with a timeout), action servers and clients (goal, feedback, result, cancel),
//! parameters, the clock, and [`logging::init`] so `tracing` reaches `/rosout`.
//!
//! Two backends behind the same API: ros2-client (pure Rust over DDS; [`node`], [`service`],
//! [`action`]), always compiled, and with the feature `r2r` the one over r2r (rcl;
//! `r2r_backend`, see docs/r2r-backend.md). The feature decides which one `ros::Node` and
//! friends name, so node code compiles unchanged against either.

pub mod action;
pub mod args;
pub mod clock;
mod discovery;
pub mod env;
pub mod error;
pub mod logging;
pub mod names;
pub mod node;
mod node_error;
pub mod params;
pub mod qos;
#[cfg(feature = "r2r")]
pub mod r2r_backend;
mod retry;
pub mod security;
pub mod service;
mod shutdown;
pub mod tasks;
pub mod type_hashes;
mod wire;

pub use action::GoalOutcome;
#[cfg(not(feature = "r2r"))]
pub use action::{ActionClient, ActionServer, GoalHandle, NewGoal, RunningGoal};
pub use args::{ArgsError, RosArgs};
pub use error::RosError;
#[cfg(not(feature = "r2r"))]
pub use node::{DdsParams, Node, Publisher, Subscription};
pub use node_error::NodeError;
pub use params::{ParamValue, Params, ParamsError, ParamsGuard, ServeDeclared};
pub use qos::Qos;
#[cfg(feature = "r2r")]
pub use r2r_backend::{
    ActionClient, ActionServer, GoalHandle, NewGoal, Node, Publisher, R2rAction, R2rParams,
    R2rService, RequestId, RunningGoal, ServiceClient, ServiceServer, Subscription,
};
#[cfg(not(feature = "r2r"))]
pub use service::{RequestId, ServiceClient, ServiceServer};
pub use shutdown::{shutdown_signal, until_shutdown};
pub use tasks::{Closer, Tasks};

/// The backend this build's [`Node`] runs on: `"ros2-client"` (the default) or `"r2r"`.
#[cfg(not(feature = "r2r"))]
pub const BACKEND: &str = "ros2-client";
#[cfg(feature = "r2r")]
pub const BACKEND: &str = "r2r";

/// A service type the backend can serve and call, for node code generic over services: every
/// [`checkers_msgs::ServiceInterface`] on the default backend, those with r2r bindings on r2r.
#[cfg(not(feature = "r2r"))]
pub trait Service: checkers_msgs::ServiceInterface {}
#[cfg(not(feature = "r2r"))]
impl<S: checkers_msgs::ServiceInterface> Service for S {}
#[cfg(feature = "r2r")]
pub use r2r_backend::R2rService as Service;
