//! The simulated hardware: `ros2 run checkers_robot sim_node [--ros-args ...]` (docs/sim.md).

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let node = ros::Node::from_env("sim")?;
    ros::logging::init(&node);
    sim::node::run(node).await?;
    Ok(())
}
