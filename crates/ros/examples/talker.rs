//! Publishes COUNT events on `/chatter`, one a second, once a listener is there:
//! `cargo run -p ros --example talker -- 3` (with `listener` in another terminal).
use std::time::Duration;

use checkers_msgs::msg::GameEvent;
use ros::{Node, Qos};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let count: u32 = std::env::args().nth(1).unwrap_or("10".into()).parse()?;
    let mut node = Node::from_env("talker")?;
    let chatter = node.publisher::<GameEvent>("/chatter", Qos::Events)?;
    // A volatile topic keeps nothing for late joiners: wait for the listener first.
    if !chatter.wait_for_subscribers(Duration::from_secs(30)).await {
        anyhow::bail!("no listener on /chatter");
    }
    for ply in 1..=count {
        let text = format!("hello {ply}");
        println!("publishing: {text}");
        chatter
            .publish(GameEvent {
                ply,
                text,
                ..Default::default()
            })
            .await?;
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    node.close().await;
    Ok(())
}
