//! What stops a node from starting: the one error type every node's `run` returns.

use crate::{ParamsError, RosError};

/// A node could not start or stopped: the ROS layer failed, a parameter could not be read or
/// has a value the node cannot use, or the node's own setup (a file, a config) failed.
#[derive(Debug, thiserror::Error)]
pub enum NodeError {
    #[error(transparent)]
    Ros(#[from] RosError),
    #[error(transparent)]
    Params(#[from] ParamsError),
    #[error("parameter {name}: {why}")]
    Param { name: &'static str, why: String },
    #[error(transparent)]
    Setup(Box<dyn std::error::Error + Send + Sync>),
}

impl NodeError {
    /// Parameter `name` has a value the node cannot use.
    pub fn param(name: &'static str, why: impl std::fmt::Display) -> NodeError {
        NodeError::Param {
            name,
            why: why.to_string(),
        }
    }

    /// The node's own setup failed (its message is kept as it is).
    pub fn setup(e: impl std::error::Error + Send + Sync + 'static) -> NodeError {
        NodeError::Setup(Box::new(e))
    }
}
