//! The ROS 2 client layer of the robot. This part reads the command line and the environment
//! exactly as rcl does (`--ros-args`, remaps, `-p`, `--params-file`, `ROS_DOMAIN_ID`, the
//! localhost-only settings), so nodes behave the same under `ros2 run`, `ros2 launch` and our
//! own launcher, on either backend.
//!
//! Node code uses [`Node`] for publishers, subscriptions (streams), service servers and clients
//! (every call with a timeout), action servers and clients (goal, feedback, result, cancel),
//! parameters, the clock, and [`logging::init`] so `tracing` reaches `/rosout`.

pub mod action;
pub mod args;
pub mod clock;
mod discovery;
pub mod env;
pub mod error;
pub mod logging;
pub mod names;
pub mod node;
pub mod params;
pub mod qos;
pub mod service;
mod wire;

pub use action::{ActionClient, ActionServer, GoalHandle, GoalOutcome, NewGoal, RunningGoal};
pub use args::{ArgsError, RosArgs};
pub use error::RosError;
pub use node::{Node, Publisher, Subscription};
pub use params::{ParamValue, Params, ParamsError};
pub use qos::Qos;
pub use service::{RequestId, ServiceClient, ServiceServer};
