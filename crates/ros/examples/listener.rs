//! Prints COUNT events from `/chatter`, then exits:
//! `cargo run -p ros --example listener -- 3` (with `talker` in another terminal).
use checkers_msgs::msg::GameEvent;
use futures::StreamExt;
use ros::{Node, Qos};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let count: usize = std::env::args().nth(1).unwrap_or("10".into()).parse()?;
    let mut node = Node::from_env("listener")?;
    let chatter = node.subscription::<GameEvent>("/chatter", Qos::Events)?;
    let mut events = chatter.stream().take(count);
    while let Some(event) = events.next().await {
        println!("heard: {} (ply {})", event.text, event.ply);
    }
    drop(events);
    node.close().await;
    Ok(())
}
