use thiserror::Error;

use crate::args::ArgsError;
use crate::env::EnvError;
use crate::params::ParamsError;

/// Errors of the ROS layer, each naming what it was about.
#[derive(Debug, Error)]
pub enum RosError {
    #[error(transparent)]
    Args(#[from] ArgsError),
    #[error(transparent)]
    Env(#[from] EnvError),
    #[error(transparent)]
    Params(#[from] ParamsError),
    #[error(transparent)]
    Security(#[from] crate::security::SecurityError),
    #[error("invalid name {name:?}: {why}")]
    Name { name: String, why: String },
    #[error("cannot create {what}: {why}")]
    Create { what: String, why: String },
    #[error("publishing on {topic}: {why}")]
    Publish { topic: String, why: String },
    #[error("message on {topic} out of bounds: {why}")]
    Bounds { topic: String, why: String },
    #[error("no server for {name} appeared within {waited:?}")]
    NoServer {
        name: String,
        waited: std::time::Duration,
    },
    #[error("{name}: the server that took the goal is gone (its node stopped or died)")]
    ServerGone { name: String },
    #[error("{name}: no answer within {after:?}")]
    Timeout {
        name: String,
        after: std::time::Duration,
    },
    #[error("receiving from {name}: {why}")]
    Receive { name: String, why: String },
    #[error("{name}: the server rejected the goal")]
    GoalRejected { name: String },
    #[error("{name}: {why}")]
    Goal { name: String, why: String },
}
