//! The arbiter killed mid-game (SIGKILL: no chance to save anything on the way out) and started
//! again with the same arguments and state directory: it resumes the same game at the same ply
//! and position, and the game goes on. The nodes run one by one from the launch's `--dry-run`
//! command lines (graph_support/nodes.rs), since the launcher stops everything when a node dies.
//! Then a move confirmed while the arbiter is dead reaches the next one.

mod graph_support;

use std::time::Duration;

use checkers_msgs::convert::position_from_msg;
use checkers_msgs::msg::{GameEvent, GameState};
use checkers_msgs::srv::HumanMove_Request;
use graph_support::client::{describe_state, GraphClient};
use graph_support::nodes::Nodes;
use graph_support::{domain, next_event, options, serial, START, WAIT};

/// Panics with the arbiter's log when the graph does not get there.
async fn state(
    client: &GraphClient,
    nodes: &Nodes,
    what: &str,
    pred: impl FnMut(&GameState) -> bool,
) -> GameState {
    match client.wait_state(WAIT, pred).await {
        Ok(s) => s,
        Err(e) => panic!(
            "{what}: {e:#}\n--- arbiter log ---\n{}",
            nodes.tail("arbiter")
        ),
    }
}

/// The human plays a random move; returns the state at the human's next turn.
async fn ply_pair(client: &GraphClient, nodes: &Nodes, after: u32) -> GameState {
    client
        .human_move("", HumanMove_Request::ERROR_NONE, true)
        .await
        .expect("the human's move");
    state(client, nodes, "the robot's reply", |s| {
        s.ply >= after + 2 && s.status == GameState::STATUS_WAITING_FOR_HUMAN
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_arbiter_restarted_resumes_the_game_which_goes_on() {
    let _one = serial().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let domain = domain(5);
    let mut nodes = Nodes::start(&options(dir.path(), domain, "novice")).expect("the nodes start");
    let client = GraphClient::connect(domain).expect("the client joins the domain");
    if let Err(e) = client.wait_ready(START).await {
        panic!("the graph did not come up: {e:#}");
    }
    let first = state(&client, &nodes, "the first human turn", |s| {
        s.status == GameState::STATUS_WAITING_FOR_HUMAN
    })
    .await;
    let mut before = ply_pair(&client, &nodes, first.ply).await;
    before = ply_pair(&client, &nodes, before.ply).await;
    assert_eq!(before.game_id, first.game_id);
    assert_eq!(before.ply, first.ply + 4, "{}", describe_state(&before));

    nodes.kill_hard("arbiter").expect("the arbiter is killed");
    // A fresh client: the old one's latched /game/state is the dead arbiter's, and the state
    // that arrives on this one can only be the new arbiter's.
    let fresh = GraphClient::connect(domain).expect("a second client joins");
    let mut events = fresh.events();
    nodes.spawn("arbiter").expect("the arbiter starts again");
    let after = state(&fresh, &nodes, "the restarted arbiter's state", |_| true).await;
    assert_eq!(after.game_id, before.game_id, "the same game");
    assert_eq!(after.ply, before.ply, "at the same ply");
    assert_eq!(after.status, GameState::STATUS_WAITING_FOR_HUMAN);
    assert_eq!(
        position_from_msg(&after.position).expect("a position"),
        position_from_msg(&before.position).expect("a position"),
        "in the same position"
    );
    assert_eq!(after.level, "novice");
    // RESUMED is an event, not latched: published as the arbiter starts, it usually goes out
    // before discovery has matched this client. Caught or not, the arbiter logs what it
    // announced, so the announcement is checked there.
    let resumed = format!("resumed game {} after {} plies", before.game_id, before.ply);
    match next_event(&mut events, Duration::from_secs(3), |e| {
        e.kind == GameEvent::KIND_RESUMED
    })
    .await
    {
        Ok(e) => assert_eq!(e.text, resumed, "{e:?}"),
        Err(_) => eprintln!("the RESUMED event went out before this client was matched"),
    }
    assert!(
        nodes.log("arbiter").contains(&resumed),
        "the arbiter announces {resumed:?}\n{}",
        nodes.tail("arbiter")
    );

    // The game goes on: the human's move is taken and the robot replies.
    let mut events = fresh.events();
    let next = ply_pair(&fresh, &nodes, after.ply).await;
    assert_eq!(next.game_id, before.game_id);
    next_event(&mut events, WAIT, |e| e.kind == GameEvent::KIND_ROBOT_MOVED)
        .await
        .expect("the robot's move after the restart");

    // A move confirmed while the arbiter is dead: the board sensor keeps the press for the
    // next arbiter, which plays it and replies.
    nodes
        .kill_hard("arbiter")
        .expect("the arbiter is killed again");
    fresh
        .human_move("", HumanMove_Request::ERROR_NONE, true)
        .await
        .expect("the human's move while the arbiter is down");
    nodes.spawn("arbiter").expect("the arbiter starts again");
    // Only the new arbiter can get past the dead one's last state.
    let last = state(
        &fresh,
        &nodes,
        "the move made while it was down, and the reply",
        |s| s.ply >= next.ply + 2 && s.status == GameState::STATUS_WAITING_FOR_HUMAN,
    )
    .await;
    assert_eq!(last.game_id, before.game_id);
}
