//! `/planner/evaluation` for the gauge. The graph client (`cli::graph::client`) does not carry
//! this topic, so `play` reads it on a small node of its own; if the client grows an
//! `evaluations()` receiver, this file can go.

use anyhow::Context;
use checkers_msgs::msg::Evaluation;
use futures::StreamExt;
use ros::env::{DiscoveryRange, RosEnv};
use ros::{Node, Qos, RosArgs};
use tokio::sync::mpsc;

/// Joins domain `domain` and forwards every evaluation to the returned receiver. Must run
/// inside a tokio runtime; the node lives as long as the forwarding task, which ends when the
/// receiver is dropped and the next evaluation arrives, or with the runtime.
pub fn subscribe(domain: u16) -> anyhow::Result<mpsc::UnboundedReceiver<Evaluation>> {
    let env = RosEnv {
        domain_id: domain,
        discovery: DiscoveryRange::Localhost,
    };
    let args = RosArgs::parse(["play"]).context("node arguments")?;
    let name = format!("play_evaluation_{}", std::process::id());
    let mut node = Node::new(&name, args, env).context("joining the ROS domain")?;
    let sub = node
        .subscription::<Evaluation>("/planner/evaluation", Qos::Events)
        .context("subscribing to /planner/evaluation")?;
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        // Moved in: the node's participant must outlive its subscription.
        let _node = node;
        let mut stream = sub.stream();
        while let Some(e) = stream.next().await {
            if tx.send(e).is_err() {
                break;
            }
        }
    });
    Ok(rx)
}
