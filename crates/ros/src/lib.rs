//! The ROS 2 client layer of the robot. This part reads the command line and the environment
//! exactly as rcl does (`--ros-args`, remaps, `-p`, `--params-file`, `ROS_DOMAIN_ID`, the
//! localhost-only settings), so nodes behave the same under `ros2 run`, `ros2 launch` and our
//! own launcher, on either backend.

pub mod args;
pub mod env;
pub mod error;
pub mod names;
pub mod node;
pub mod params;
pub mod qos;
mod wire;

pub use args::{ArgsError, RosArgs};
pub use error::RosError;
pub use node::{Node, Publisher, Subscription};
pub use params::{ParamValue, Params, ParamsError};
pub use qos::Qos;
