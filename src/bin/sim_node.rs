//! The simulated hardware: `ros2 run checkers_robot sim_node [--ros-args ...]` (docs/sim.md).

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let node = ros::Node::from_env("sim")?;
    ros::logging::init(&node);
    // The sim stops on the signal itself (it removes its port links first), then ends in order.
    let closer = node.closer();
    let r = sim::node::run(node).await;
    closer.close().await;
    r?;
    Ok(())
}
