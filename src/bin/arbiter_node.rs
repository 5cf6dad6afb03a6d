//! The arbiter node: `ros2 run checkers_robot arbiter_node [--ros-args ...]`.

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let node = ros::Node::from_env("arbiter")?;
    ros::logging::init(&node);
    ros::until_shutdown("arbiter", node, arbiter::node::run).await?;
    Ok(())
}
