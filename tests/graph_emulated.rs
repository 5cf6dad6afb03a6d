//! The whole simulated robot with both controller boards emulated (`firmware:=emulated`): the
//! Pico binaries, compiled for the RP2040, run in rp2040js at the simulated electronics' pins,
//! and the unchanged nodes talk to them over pseudo-terminals. The human makes a move, the
//! robot answers with a real pick and place (its steps turn the simulated joints, its pump
//! lifts the piece), and the field board's scan through the 74HC165 chain shows the new
//! position.

mod graph_support;
mod pico_support;

use std::time::Duration;

use checkers_msgs::convert::position_from_msg;
use checkers_msgs::msg::GameState;
use checkers_msgs::srv::HumanMove_Request;
use graph_support::{serial, Graph};

/// The emulator runs the boards at a fraction of real time on two cores.
const ROBOT_MOVE: Duration = Duration::from_secs(400);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_human_move_and_the_robots_reply_on_the_emulated_picos() {
    if !pico_support::pico_built() {
        return;
    }
    let _one = serial().await;
    let g = Graph::start_with(10, "novice", "emulated").await;
    assert!(
        g.log().contains("pico-arm 0.1.0") && g.log().contains("pico-field 0.1.0"),
        "the nodes did not meet the Pico firmware\n{}",
        g.tail()
    );
    let first = g.client.state().expect("a state");
    let start = position_from_msg(&first.position).expect("a position");
    let human = start.legal_moves()[0].text();
    let done = g
        .client
        .human_move(&human, HumanMove_Request::ERROR_NONE, true)
        .await
        .expect("the human plays");
    assert_eq!(done.performed_text, human);
    let state = g
        .state(ROBOT_MOVE, "the robot's reply", |s| {
            s.ply >= first.ply + 2 && s.status == GameState::STATUS_WAITING_FOR_HUMAN
        })
        .await;
    // The pieces on the board, as the emulated field board scans them, are the game's.
    let position = position_from_msg(&state.position).expect("a position");
    let fen = draughts::to_fen(&position);
    g.board_shows(&fen).await;
    assert!(
        !g.log().contains("ERROR"),
        "an ERROR line in the log\n{}",
        g.tail()
    );
}
