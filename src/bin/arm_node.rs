//! The arm node: `ros2 run checkers_robot arm_node [--ros-args ...]`.
//!
//! `arm_node calibrate --port /dev/ttyACM1 [--board-config config/board.yaml]` instead jogs
//! the arm at the terminal to calibrate the board's pose (docs/arm.md, "Board calibration").

use clap::Parser;

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

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    if std::env::args().nth(1).as_deref() == Some("calibrate") {
        tracing_subscriber::fmt()
            .with_env_filter(
                tracing_subscriber::EnvFilter::try_from_default_env()
                    .unwrap_or_else(|_| "warn".into()),
            )
            .init();
        let args = Calibrate::parse_from(std::env::args().skip(1));
        arm::node::calibrate::run_cli(arm::node::calibrate::Options {
            port: args.port,
            arm_config: args.arm_config,
            board_config: args.board_config,
        })
        .await
        .map_err(anyhow::Error::msg)?;
        return Ok(());
    }
    let node = ros::Node::from_env("arm")?;
    ros::logging::init(&node);
    ros::until_shutdown("arm", node, arm::node::run).await?;
    Ok(())
}
