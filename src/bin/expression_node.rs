//! The expression node: `ros2 run checkers_robot expression_node [--ros-args ...]`.

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let node = ros::Node::from_env("expression")?;
    ros::logging::init(&node);
    ros::until_shutdown("expression", node, expression::node::run).await?;
    Ok(())
}
