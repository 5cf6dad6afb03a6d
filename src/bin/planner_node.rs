//! The planner node: `ros2 run checkers_robot planner_node --ros-args --params-file
//! config/difficulty/<level>.yaml`.

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let node = ros::Node::from_env("planner")?;
    ros::logging::init(&node);
    ros::until_shutdown("planner", node, planner::node::run).await?;
    Ok(())
}
