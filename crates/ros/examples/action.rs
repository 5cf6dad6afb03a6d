//! An action server and its client, two nodes in one process: the server "plans" a move with
//! feedback on the way, the client sends a goal, prints the feedback and the result.
//! `cargo run -p ros --example action`
use std::time::Duration;

use checkers_msgs::action::{PlanMove, PlanMove_Feedback, PlanMove_Goal, PlanMove_Result};
use futures::StreamExt;
use ros::Node;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut server_node = Node::from_env("plan_server")?;
    let server = server_node.action_server::<PlanMove>("/planner/plan")?;
    server_node.spawn(async move {
        while let Ok(goal) = server.next_goal().await.accept().await {
            for depth in 1..=3 {
                tokio::time::sleep(Duration::from_millis(200)).await;
                let feedback = PlanMove_Feedback {
                    depth,
                    ..Default::default()
                };
                let _ = goal.feedback(feedback).await;
            }
            goal.succeed(PlanMove_Result {
                depth: 3,
                message: "done".into(),
                ..Default::default()
            });
        }
    });

    let mut client_node = Node::from_env("plan_client")?;
    let client = client_node.action_client::<PlanMove>("/planner/plan")?;
    let handle = client
        .send_goal(PlanMove_Goal::default(), Duration::from_secs(10))
        .await?;
    {
        let mut feedback = std::pin::pin!(handle.feedback());
        let wait = Duration::from_secs(2);
        while let Ok(Some(f)) = tokio::time::timeout(wait, feedback.next()).await {
            println!("feedback: depth {}", f.depth);
            if f.depth == 3 {
                break;
            }
        }
    }
    let (outcome, result) = handle.result(Duration::from_secs(10)).await?;
    println!(
        "result: {outcome:?}, depth {} ({})",
        result.depth, result.message
    );
    client_node.close().await;
    server_node.close().await;
    Ok(())
}
