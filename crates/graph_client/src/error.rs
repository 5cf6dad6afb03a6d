//! What can go wrong when driving the graph: joining it, a service that does not answer or
//! refuses, a wait that runs out, and starting the simulated robot.

use std::path::PathBuf;
use std::time::Duration;

use ros::{ArgsError, RosError};

#[derive(Debug, thiserror::Error)]
pub enum GraphError {
    #[error("arguments")]
    Args(#[source] ArgsError),
    #[error("joining the ROS domain")]
    Join(#[source] RosError),
    #[error(transparent)]
    Ros(#[from] RosError),
    /// The call got no answer (no server, or none within the time).
    #[error("{service}")]
    Call {
        service: &'static str,
        #[source]
        source: RosError,
    },
    /// The service answered `success = false`; `what` says what was asked.
    #[error("{what}: {message}")]
    Refused { what: String, message: String },
    /// A wait for something on the graph ran out; `what` says what was awaited.
    #[error("{what} within {timeout:?}{}", last.as_ref().map_or(String::new(), |l| format!(" (last: {l})")))]
    Timeout {
        what: String,
        timeout: Duration,
        last: Option<String>,
    },
    #[error("the board sensor did not answer within {timeout:?}: {source}")]
    SensorSilent { timeout: Duration, source: RosError },
    #[error("{0} ended")]
    Ended(&'static str),
    #[error("the sim did not take fault {line:?} (in force: {in_force:?})")]
    FaultNotTaken { line: String, in_force: String },
    /// The launcher could not be started or asked.
    #[error("{what} {}", path.display())]
    Launch {
        what: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("launch --dry-run: {0}")]
    DryRun(String),
}

/// The result of driving the graph.
pub type Result<T, E = GraphError> = std::result::Result<T, E>;
