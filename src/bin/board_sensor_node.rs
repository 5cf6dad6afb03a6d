//! The board sensor node: `ros2 run checkers_robot board_sensor_node --ros-args -p port:=...`.

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let node = ros::Node::from_env("board_sensor")?;
    ros::logging::init(&node);
    ros::until_shutdown("board_sensor", node, board_sensor::node::run).await?;
    Ok(())
}
