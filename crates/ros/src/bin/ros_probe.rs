//! A tiny node for tests and for checking by hand that two processes talk:
//! `ros_probe pub` publishes a `checkers_msgs/msg/GameState` on `/game/state` (latched) every
//! 100 ms; `ros_probe sub` prints the first one it receives and exits.
//! Both take the usual `--ros-args` (remaps, `-p count:=N`) and `ROS_DOMAIN_ID`.

use std::time::Duration;

use anyhow::{bail, Context};
use checkers_msgs::msg::GameState;
use futures::StreamExt;
use ros::{Node, Qos};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut node = Node::from_env("ros_probe")?;
    let mode = std::env::args().nth(1).unwrap_or_default();
    match mode.as_str() {
        "pub" => {
            let count = node.params().declare("count", 100i64)?;
            let linger = node.params().declare("linger_s", 0.0f64)?;
            let publisher = node.publisher::<GameState>("/game/state", Qos::State)?;
            for i in 0..count {
                let mut msg = GameState {
                    ply: i as u32,
                    ..GameState::default()
                };
                msg.position.fen = draughts_start_fen().to_string();
                publisher.publish(msg).await?;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            tokio::time::sleep(Duration::from_secs_f64(linger.max(0.0))).await;
        }
        "sub" => {
            let timeout = node.params().declare("timeout_s", 20.0f64)?;
            let sub = node.subscription::<GameState>("/game/state", Qos::State)?;
            let mut stream = sub.stream();
            let first = tokio::time::timeout(Duration::from_secs_f64(timeout), stream.next())
                .await
                .context("no GameState received in time")?;
            match first {
                Some(m) => println!("received ply {} fen {}", m.ply, m.position.fen),
                None => bail!("the subscription ended"),
            }
        }
        other => bail!("usage: ros_probe pub|sub [--ros-args ...] (got {other:?})"),
    }
    Ok(())
}

fn draughts_start_fen() -> &'static str {
    "W:W21-32:B1-12"
}
