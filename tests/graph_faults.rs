//! Faults against the whole simulated robot (every node a process, over DDS): a pick that
//! fails (the sim's `failed_picks`) leaves the board wrong, which the arbiter's verifying scan
//! catches and the human puts right; a planner that hangs (its process stopped) is waited for
//! (`PLANNER_AWAY`), then the robot plays at the game's level on its own computer
//! (`PLANNER_TIMEOUT`), and the game goes on.

mod graph_support;

use checkers_msgs::msg::{GameEvent, GameState};
use checkers_msgs::srv::HumanMove_Request;
use graph_support::{next_event, serial, Graph, WAIT};
use nix::sys::signal::{kill, Signal};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_pick_is_caught_by_the_scan_and_the_board_put_right() {
    let _one = serial().await;
    let g = Graph::start(3, "novice").await;
    g.client
        .set_fault("failed_picks:=1", WAIT)
        .await
        .expect("the fault is set");
    let mut events = g.client.events();
    g.client
        .human_move("", HumanMove_Request::ERROR_NONE, true)
        .await
        .expect("the human's move");
    // The arm has no vacuum sensor: it goes through its move with nothing in the cup, and the
    // scan after it shows the robot's piece still on its square.
    // (The arbiter announces KIND_ROBOT_MOVED before its verifying scan, though the message
    // says "executed and verified"; the mismatch follows it.)
    let mismatch = next_event(&mut events, WAIT, |e| {
        e.kind == GameEvent::KIND_BOARD_MISMATCH
    })
    .await
    .expect("the scan's verdict");
    assert_eq!(mismatch.wrong_squares.len(), 2, "{mismatch:?}");
    let asking = g
        .state(WAIT, "the request to put the board right", |s| {
            s.status == GameState::STATUS_BOARD_MISMATCH
        })
        .await;
    assert_eq!(
        asking.ply, 2,
        "the robot's move stands; the board must follow it"
    );

    // The human makes the robot's move for it (a move of the other side: "illegal" to the
    // sim's human) and confirms.
    g.client
        .human_move(
            &asking.last_move.text,
            HumanMove_Request::ERROR_ILLEGAL,
            true,
        )
        .await
        .expect("the human moves the robot's piece");
    next_event(&mut events, WAIT, |e| {
        e.kind == GameEvent::KIND_BOARD_RESTORED
    })
    .await
    .expect("the board restored");
    g.state(WAIT, "the human's turn", |s| {
        s.status == GameState::STATUS_WAITING_FOR_HUMAN && s.ply == 2
    })
    .await;
    // And the game goes on, the fault spent.
    g.client
        .human_move("", HumanMove_Request::ERROR_NONE, true)
        .await
        .expect("the human's next move");
    next_event(&mut events, WAIT, |e| e.kind == GameEvent::KIND_ROBOT_MOVED)
        .await
        .expect("the robot's next move");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_planner_that_hangs_is_waited_for_then_the_robot_plays_itself() {
    let _one = serial().await;
    let g = Graph::start(4, "novice").await;
    let planner = g.pid("planner");
    // Stopped, not killed: a hung process, which the launcher does not take for a dead one.
    kill(planner, Signal::SIGSTOP).expect("the planner stops");
    let mut events = g.client.events();
    g.client
        .human_move("", HumanMove_Request::ERROR_NONE, true)
        .await
        .expect("the human's move");
    let timeout = next_event(&mut events, WAIT, |e| {
        e.kind == GameEvent::KIND_PLANNER_TIMEOUT || e.kind == GameEvent::KIND_ROBOT_MOVED
    })
    .await
    .expect("the arbiter gives up on the planner");
    assert_eq!(timeout.kind, GameEvent::KIND_PLANNER_TIMEOUT, "{timeout:?}");
    assert!(
        timeout.text.contains("level novice on its own computer"),
        "{}",
        timeout.text
    );
    next_event(&mut events, WAIT, |e| e.kind == GameEvent::KIND_ROBOT_MOVED)
        .await
        .expect("the robot's own move");
    let state = g.human_turn_after(1).await;
    assert_eq!(state.status, GameState::STATUS_WAITING_FOR_HUMAN);
    // Back to life, the planner serves the next move.
    kill(planner, Signal::SIGCONT).expect("the planner goes on");
    g.client
        .human_move("", HumanMove_Request::ERROR_NONE, true)
        .await
        .expect("the human's next move");
    next_event(&mut events, WAIT, |e| e.kind == GameEvent::KIND_ROBOT_MOVED)
        .await
        .expect("the robot's next move");
}
