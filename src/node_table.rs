//! The robot's nodes: the one table of their names and entry functions. Every node runs
//! inside `checkers-robot` (`checkers-robot node NAME [ARGS] [--ros-args ...]`); the entry
//! points `arbiter_node`, `arm_node`, ... (`src/bin/`, `crates/node_exec`) that `ros2 run` and
//! the launch files name become that, `checkers-robot launch` checks launch files against it,
//! and the tests install the package by it.

use std::future::Future;

use clap::Parser;

/// A node: the executable name the launch files give it, and what runs it.
#[derive(Debug, Clone, Copy)]
pub struct NodeEntry {
    /// The executable's name (`ros2 run checkers_robot NAME`).
    pub name: &'static str,
    run: fn(&[String]) -> Result<(), NodeError>,
}

impl NodeEntry {
    /// Runs the node in this process until it ends or SIGINT/SIGTERM ends it. `args` are the
    /// node's command line after its name (`--ros-args ...`).
    pub fn run(&self, args: &[String]) -> Result<(), NodeError> {
        name_this_process(self.name);
        (self.run)(args)
    }
}

/// Every node, in the order the simulated graph starts them.
pub const NODES: [NodeEntry; 8] = [
    NodeEntry {
        name: "sim_node",
        run: |_| in_runtime(sim()),
    },
    NodeEntry {
        name: "board_sensor_node",
        run: |_| in_runtime(until_shutdown("board_sensor", board_sensor::run)),
    },
    NodeEntry {
        name: "arm_node",
        run: |args| match args.split_first() {
            Some((first, rest)) if first == "calibrate" => in_runtime(calibrate(rest)),
            _ => in_runtime(until_shutdown("arm", arm::run)),
        },
    },
    NodeEntry {
        name: "planner_node",
        run: |_| in_runtime(until_shutdown("planner", planner::run)),
    },
    NodeEntry {
        name: "arbiter_node",
        run: |_| in_runtime(until_shutdown("arbiter", arbiter::run)),
    },
    NodeEntry {
        name: "expression_node",
        run: |_| in_runtime(until_shutdown("expression", expression::run)),
    },
    NodeEntry {
        name: "web_node",
        run: |_| in_runtime(until_shutdown("web", web::run)),
    },
    NodeEntry {
        name: "recorder_node",
        run: |_| in_runtime(until_shutdown("recorder", web::run_recorder)),
    },
];

/// The node named `name` (an executable's name, `arbiter_node`).
pub fn find(name: &str) -> Option<&'static NodeEntry> {
    NODES.iter().find(|n| n.name == name)
}

/// The nodes' names, in table order.
pub fn names() -> impl Iterator<Item = &'static str> {
    NODES.iter().map(|n| n.name)
}

/// Why a node stopped with an error: its own error, whole.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct NodeError(Box<dyn std::error::Error + Send + Sync>);

impl NodeError {
    fn new(e: impl std::error::Error + Send + Sync + 'static) -> NodeError {
        NodeError(Box::new(e))
    }
}

fn in_runtime(node: impl Future<Output = Result<(), NodeError>>) -> Result<(), NodeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(NodeError::new)?;
    runtime.block_on(node)
}

/// A node that runs until SIGINT or SIGTERM, then ends in order (`ros::until_shutdown`).
async fn until_shutdown<F, Fut, E>(default_name: &'static str, body: F) -> Result<(), NodeError>
where
    F: FnOnce(ros::Node) -> Fut,
    Fut: Future<Output = Result<(), E>>,
    E: std::error::Error + Send + Sync + 'static,
{
    let node = ros::Node::from_env(default_name).map_err(NodeError::new)?;
    ros::logging::init(&node);
    ros::until_shutdown(default_name, node, body)
        .await
        .map_err(NodeError::new)
}

/// The simulated hardware (docs/sim.md). It stops on the signal itself (it removes its port
/// links first), then ends in order.
async fn sim() -> Result<(), NodeError> {
    let node = ros::Node::from_env("sim").map_err(NodeError::new)?;
    ros::logging::init(&node);
    let closer = node.closer();
    let r = sim::node::run(node).await;
    closer.close().await;
    r.map_err(NodeError::new)
}

#[derive(Debug, Parser)]
#[command(
    name = "arm_node calibrate",
    about = "Calibrate the board's pose by jogging the cup to a1 and h8"
)]
struct Calibrate {
    /// The arm controller's serial port.
    #[arg(long)]
    port: String,
    /// The board config to rewrite.
    #[arg(long, default_value = "config/board.yaml")]
    board_config: std::path::PathBuf,
    /// The arm config ("" = the built-in one).
    #[arg(long, default_value = "")]
    arm_config: String,
}

/// `arm_node calibrate --port ...`: a terminal tool, not a ROS node.
async fn calibrate(args: &[String]) -> Result<(), NodeError> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .init();
    let args =
        Calibrate::parse_from(std::iter::once("calibrate").chain(args.iter().map(String::as_str)));
    arm::run_calibration(arm::CalibrationOptions {
        port: args.port,
        arm_config: args.arm_config,
        board_config: args.board_config,
    })
    .await
    .map_err(NodeError::new)
}

/// `ps` and `top` show the node's name rather than `checkers-robot` (Linux keeps 15 bytes).
fn name_this_process(name: &str) {
    #[cfg(target_os = "linux")]
    if let Ok(c) = std::ffi::CString::new(name) {
        let _ = nix::sys::prctl::set_name(&c);
    }
}

#[cfg(test)]
mod tests;
