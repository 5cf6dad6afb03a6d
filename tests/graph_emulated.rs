//! The whole simulated robot with both controller boards emulated (`firmware:=emulated`): the
//! Pico binaries, compiled for the RP2040, run in rp2040js at the simulated electronics' pins,
//! and the unchanged nodes talk to them over pseudo-terminals. The human makes a move, the
//! robot answers with a real pick and place (its steps turn the simulated joints, its pump
//! lifts the piece), and the field board's scan through the 74HC165 chain shows the new
//! position. Then faults at the silicon, none of which may lose the game: malformed frames
//! flood both boards, the field board's cable is pulled and plugged back, the control
//! board's core hangs until its watchdog resets it; the human moves again and the robot
//! answers again.

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
    // The graph is up once the field reads the board; the arm's handshake may come a moment
    // after the field's.
    let met = |log: &str| log.contains("pico-arm 0.1.0") && log.contains("pico-field 0.1.0");
    for _ in 0..300 {
        if met(&g.log()) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        met(&g.log()),
        "the nodes did not meet the Pico firmware\n{}",
        g.tail()
    );
    let first = g.client.state().expect("a state");
    human_move_and_reply(&g, &first).await;

    for fault in [
        "control_flood:=8192",
        "field_flood:=8192",
        "field_unplug:=1",
        "control_hang:=0.3",
    ] {
        g.client
            .set_fault(fault, Duration::from_secs(10))
            .await
            .expect("the sim takes the fault");
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    let log = g.log();
    for (what, line) in [
        (
            "the control board's watchdog did not reset it",
            "the board restarted",
        ),
        (
            "the field board was not plugged back",
            "USB cable is plugged back",
        ),
    ] {
        assert!(log.contains(line), "{what}\n{}", g.tail());
    }
    let second = g.client.state().expect("a state");
    assert_eq!(second.game_id, first.game_id, "still the same game");
    human_move_and_reply(&g, &second).await;
    assert!(
        !g.log().contains("ERROR"),
        "an ERROR line in the log\n{}",
        g.tail()
    );
}

/// The human's first legal move from `before` (the human's turn), the robot's reply, and the
/// board as the emulated field scans it showing the game's position. Returns the state then.
async fn human_move_and_reply(g: &Graph, before: &GameState) -> GameState {
    let position = position_from_msg(&before.position).expect("a position");
    let human = position.legal_moves()[0].text();
    let done = g
        .client
        .human_move(&human, HumanMove_Request::ERROR_NONE, true)
        .await
        .expect("the human plays");
    assert_eq!(done.performed_text, human);
    let state = g
        .state(ROBOT_MOVE, "the robot's reply", |s| {
            s.ply >= before.ply + 2 && s.status == GameState::STATUS_WAITING_FOR_HUMAN
        })
        .await;
    let position = position_from_msg(&state.position).expect("a position");
    g.board_shows(&draughts::to_fen(&position)).await;
    state
}
