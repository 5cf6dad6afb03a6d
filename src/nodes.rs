//! The robot's nodes, all in this executable: `checkers-robot node NAME [ARGS] [--ros-args ...]`.
//! The entry points `arbiter_node`, `arm_node`, ... (`src/bin/`, `crates/node_exec`) that
//! `ros2 run` and the launch files name become this; the launcher runs it directly. One
//! executable holding every node means one link of the release build, not seven.

use std::ffi::OsString;
use std::future::Future;
use std::process::ExitCode;

use clap::Parser;

/// The nodes, by the executable names the launch files give them.
pub const NAMES: [&str; 8] = [
    "sim_node",
    "board_sensor_node",
    "arm_node",
    "planner_node",
    "arbiter_node",
    "expression_node",
    "web_node",
    "recorder_node",
];

/// Runs a node when this process was started as one (`checkers-robot node NAME ...`); `None`
/// for every other command line, which the subcommands parse.
pub fn dispatch(argv: &[OsString]) -> Option<ExitCode> {
    if argv.get(1).is_none_or(|a| a != "node") {
        return None;
    }
    let name = argv.get(2).and_then(|n| n.to_str()).unwrap_or_default();
    if !NAMES.contains(&name) {
        eprintln!(
            "error: `checkers-robot node` takes a node's name, one of: {}",
            NAMES.join(", ")
        );
        return Some(ExitCode::from(2));
    }
    let args: Vec<String> = argv[3..]
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    Some(match run(name, &args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // As a `main` returning the error would print it.
            eprintln!("Error: {e:?}");
            ExitCode::FAILURE
        }
    })
}

fn run(name: &str, args: &[String]) -> anyhow::Result<()> {
    name_this_process(name);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    match name {
        "arbiter_node" => runtime.block_on(until_shutdown("arbiter", arbiter::node::run)),
        "arm_node" if args.first().is_some_and(|a| a == "calibrate") => {
            runtime.block_on(calibrate(&args[1..]))
        }
        "arm_node" => runtime.block_on(until_shutdown("arm", arm::node::run)),
        "board_sensor_node" => {
            runtime.block_on(until_shutdown("board_sensor", board_sensor::node::run))
        }
        "expression_node" => runtime.block_on(until_shutdown("expression", expression::node::run)),
        "planner_node" => runtime.block_on(until_shutdown("planner", planner::node::run)),
        "web_node" => runtime.block_on(until_shutdown("web", web::node::run)),
        "recorder_node" => runtime.block_on(until_shutdown("recorder", web::recorder::run)),
        "sim_node" => runtime.block_on(sim()),
        other => anyhow::bail!("no node {other}"),
    }
}

/// A node that runs until SIGINT or SIGTERM, then ends in order (`ros::until_shutdown`).
async fn until_shutdown<F, Fut, E>(default_name: &'static str, body: F) -> anyhow::Result<()>
where
    F: FnOnce(ros::Node) -> Fut,
    Fut: Future<Output = Result<(), E>>,
    anyhow::Error: From<E>,
{
    let node = ros::Node::from_env(default_name)?;
    ros::logging::init(&node);
    ros::until_shutdown(default_name, node, body).await?;
    Ok(())
}

/// The simulated hardware (docs/sim.md). It stops on the signal itself (it removes its port
/// links first), then ends in order.
async fn sim() -> anyhow::Result<()> {
    let node = ros::Node::from_env("sim")?;
    ros::logging::init(&node);
    let closer = node.closer();
    let r = sim::node::run(node).await;
    closer.close().await;
    r?;
    Ok(())
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
async fn calibrate(args: &[String]) -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .init();
    let args =
        Calibrate::parse_from(std::iter::once("calibrate").chain(args.iter().map(String::as_str)));
    arm::node::calibrate::run_cli(arm::node::calibrate::Options {
        port: args.port,
        arm_config: args.arm_config,
        board_config: args.board_config,
    })
    .await
    .map_err(anyhow::Error::msg)
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
