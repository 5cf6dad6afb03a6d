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
//! parameters, QoS, security, shutdown, logging rules):
//! - `dds_backend`: ros2-client over RustDDS, pure Rust, always compiled, the default;
//! - `r2r_backend` (feature `r2r`): r2r over rcl, for a robot with ROS 2 sourced
//!   (docs/r2r-backend.md).
//!
//! The choice is made in one place, below: `ros::Node` and the rest name the backend the
//! feature selects, so node code compiles unchanged against either, and `api` checks at
//! compile time that both backends offer every item of the API with the same signature.

pub mod args;
pub mod clock;
pub mod diagnostics;
pub mod env;
pub mod error;
mod goal;
pub mod logging;
pub mod names;
mod node_core;
mod node_error;
pub mod params;
pub mod qos;
mod retry;
pub mod security;
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
