//! The `difficulty` launch argument swaps the planner: launched at two levels one after the
//! other, the planner node runs each level's algorithm (config/difficulty/LEVEL.yaml: novice is
//! the greedy heuristic, master alpha-beta), as its evaluations say, and the arbiter reports the
//! level in /game/state. A generation level (gen4) runs the AlphaZero planner on its shipped
//! network.

mod graph_support;

use checkers_msgs::srv::HumanMove_Request;
use graph_support::{serial, Graph, WAIT};

/// Launches at `level`, lets the robot make one move, and checks who made it.
async fn robot_move_at(salt: u16, level: &str, algorithm: &str) {
    let g = Graph::start(salt, level).await;
    let state = g.client.state().expect("a state");
    assert_eq!(state.level, level, "the arbiter's level");
    let mut evaluations = g.client.evaluations();
    g.client
        .human_move("", HumanMove_Request::ERROR_NONE, true)
        .await
        .expect("the human's move");
    let evaluation = match tokio::time::timeout(WAIT, evaluations.recv()).await {
        Ok(Ok(e)) => e,
        other => panic!(
            "no evaluation from the planner at {level}: {other:?}\n{}",
            g.tail()
        ),
    };
    assert_eq!(evaluation.algorithm, algorithm, "the planner at {level}");
    let state = g.human_turn_after(state.ply).await;
    assert_eq!(state.level, level, "the level stays");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_difficulty_argument_selects_the_planner() {
    let _one = serial().await;
    robot_move_at(6, "novice", "heuristic").await;
    robot_move_at(7, "master", "alphabeta").await;
    robot_move_at(8, "gen4", "zero").await;
}
