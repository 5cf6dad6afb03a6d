//! A service server and its client, two nodes in one process: the server answers
//! `/board/scan` with an empty board, the client calls it once.
//! `cargo run -p ros --example service`
use std::time::Duration;

use checkers_msgs::srv::{ScanBoard, ScanBoard_Request, ScanBoard_Response};
use ros::Node;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut server_node = Node::from_env("scan_server")?;
    let server = server_node.service_server::<ScanBoard>("/board/scan")?;
    server_node.spawn(async move {
        server
            .serve(|request: ScanBoard_Request| async move {
                ScanBoard_Response {
                    success: true,
                    message: format!("{} readings of an empty board", request.reads),
                    ..Default::default()
                }
            })
            .await
    });

    let mut client_node = Node::from_env("scan_client")?;
    let client = client_node.service_client::<ScanBoard>("/board/scan")?;
    let answer = client
        .call(ScanBoard_Request { reads: 3 }, Duration::from_secs(10))
        .await?;
    println!(
        "answer: success={} message={}",
        answer.success, answer.message
    );
    client_node.close().await;
    server_node.close().await;
    Ok(())
}
