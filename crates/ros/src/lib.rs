//! The ROS 2 client layer of the robot. This part reads the command line and the environment
//! exactly as rcl does (`--ros-args`, remaps, `-p`, `--params-file`, `ROS_DOMAIN_ID`, the
//! localhost-only settings), so nodes behave the same under `ros2 run`, `ros2 launch` and our
//! own launcher, on either backend.

pub mod args;
pub mod env;
pub mod names;
pub mod params;

pub use args::{ArgsError, RosArgs};
pub use params::{ParamValue, Params, ParamsError};
