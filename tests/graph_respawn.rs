//! Every node of the robot killed (SIGKILL) in a game under `checkers-robot launch`: the
//! launcher starts it again (`respawn` in launch/nodes.launch.xml), and the game goes on to its
//! end with a PDN that replays. Each node dies at the human's turn; then the planner while it
//! plans the robot's move (the arbiter's quick move covers it), the arm while it carries the
//! robot's move out (the human puts the board right), and the board sensor at a random moment
//! of the robot's turn.

mod graph_support;

use std::time::{Duration, Instant};

use draughts::parse_pdn;
use graph_support::sim::latest_pids;
use graph_support::{next_event, over, play_human, play_human_to_the_end, serial, Graph, WAIT};

/// The pid of the last start of `node` in the launch's log.
fn pid_of(g: &Graph, node: &str) -> Option<String> {
    let log = std::fs::read_to_string(g.dir.path().join("launch.log")).unwrap_or_default();
    latest_pids(&log).get(node).map(u32::to_string)
}

/// Kills `node` with SIGKILL and waits until the launcher has started it again.
fn kill_and_await_respawn(g: &Graph, node: &str) {
    let pid = pid_of(g, node).unwrap_or_else(|| panic!("{node} was started\n{}", g.tail()));
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &pid])
        .status()
        .expect("kill runs");
    assert!(killed.success(), "kill {node} ({pid})");
    let deadline = Instant::now() + Duration::from_secs(30);
    while pid_of(g, node).as_deref() == Some(pid.as_str()) {
        assert!(
            Instant::now() < deadline,
            "{node} was not respawned\n{}",
            g.tail()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A moment drawn between zero and `up_to` (from the clock: a test needs no seedable draw).
fn random_moment(up_to: Duration) -> Duration {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    up_to.mul_f64(f64::from(nanos % 1000) / 1000.0)
}

/// The arm node killed while the arm carries out the robot's move: the controller stops (its
/// host lost), the arbiter gives the move up once the arm node's participant is gone
/// (`ARM_FAILED`), checks the board and asks for it to be put right; the respawned arm node
/// clears the alarm and homes; the human sets the board up as the game has it and confirms,
/// and it is the human's turn after the robot's move. Returns that state.
async fn arm_killed_while_it_moves(
    g: &Graph,
    state: checkers_msgs::msg::GameState,
) -> checkers_msgs::msg::GameState {
    use checkers_msgs::msg::{GameEvent, GameState};
    use checkers_msgs::srv::HumanMove_Request;

    let ply = state.ply;
    let mut events = g.client.events();
    g.client
        .human_move("", HumanMove_Request::ERROR_NONE, true)
        .await
        .expect("the human's move");
    g.client
        .wait_state(WAIT, |s| s.status == GameState::STATUS_ROBOT_MOVING)
        .await
        .unwrap_or_else(|e| panic!("the robot's move: {e:#}\n{}", g.tail()));
    tokio::time::sleep(random_moment(Duration::from_millis(300))).await;
    kill_and_await_respawn(g, "arm");
    let failed = next_event(&mut events, WAIT, |e| e.kind == GameEvent::KIND_ARM_FAILED)
        .await
        .unwrap_or_else(|e| panic!("no ARM_FAILED after the arm died: {e:#}\n{}", g.tail()));
    assert!(failed.text.contains("gone"), "{failed:?}");
    let asking = g
        .client
        .wait_state(WAIT, |s| s.status == GameState::STATUS_BOARD_MISMATCH)
        .await
        .unwrap_or_else(|e| panic!("no request to put the board right: {e:#}\n{}", g.tail()));
    assert_eq!(asking.ply, ply + 2, "the robot's move stands");
    g.client
        .human_move("", HumanMove_Request::ERROR_SET_UP, true)
        .await
        .expect("the human puts the board right");
    next_event(&mut events, WAIT, |e| {
        e.kind == GameEvent::KIND_BOARD_RESTORED
    })
    .await
    .unwrap_or_else(|e| panic!("the board restored: {e:#}\n{}", g.tail()));
    g.client
        .wait_state(WAIT, |s| {
            s.ply == ply + 2 && s.status == GameState::STATUS_WAITING_FOR_HUMAN
        })
        .await
        .unwrap_or_else(|e| panic!("the human's turn after the arm: {e:#}\n{}", g.tail()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_node_killed_in_a_game_is_respawned_and_the_game_ends_with_a_pdn_that_replays() {
    let _one = serial().await;
    let g = Graph::start(9, "novice").await;
    let mut state = g.client.state().expect("a state");
    for node in ["expression", "board_sensor", "arbiter", "arm"] {
        state = play_human(&g.client, state.clone(), state.ply + 2, || g.tail()).await;
        if over(&state) {
            break;
        }
        kill_and_await_respawn(&g, node);
        // The human plays on at once: a new arbiter gets the board sensor's last confirmed
        // reading when its reader is matched (the topic is latched), and a new board sensor
        // holds a confirm until it has found the arbiter's reader.
        // Back at the human's turn of the same game: the respawned arbiter resumes it.
        let ply = state.ply;
        state = g
            .client
            .wait_state(WAIT, |s| {
                s.ply == ply && s.status == checkers_msgs::msg::GameState::STATUS_WAITING_FOR_HUMAN
            })
            .await
            .unwrap_or_else(|e| panic!("after killing {node}: {e:#}\n{}", g.tail()));
    }
    if !over(&state) {
        // The planner, while it plans: the human moves, and the planner dies under the search.
        let ply = state.ply;
        g.client
            .human_move("", checkers_msgs::srv::HumanMove_Request::ERROR_NONE, true)
            .await
            .expect("the human's move");
        kill_and_await_respawn(&g, "planner");
        state = g
            .client
            .wait_state(WAIT, |s| {
                s.ply > ply + 1
                    && (s.status == checkers_msgs::msg::GameState::STATUS_WAITING_FOR_HUMAN
                        || over(s))
            })
            .await
            .unwrap_or_else(|e| panic!("after killing the planner: {e:#}\n{}", g.tail()));
    }
    if !over(&state) {
        state = arm_killed_while_it_moves(&g, state).await;
    }
    if !over(&state) {
        // The board sensor, at a random moment of the robot's turn (thinking, moving or the
        // verifying scan): a scan it cannot answer is retried, or the board goes unchecked
        // once, and the game goes on.
        let ply = state.ply;
        g.client
            .human_move("", checkers_msgs::srv::HumanMove_Request::ERROR_NONE, true)
            .await
            .expect("the human's move");
        tokio::time::sleep(random_moment(Duration::from_millis(1500))).await;
        kill_and_await_respawn(&g, "board_sensor");
        tokio::time::sleep(Duration::from_secs(3)).await;
        state = g
            .client
            .wait_state(WAIT, |s| {
                s.ply > ply + 1
                    && (s.status == checkers_msgs::msg::GameState::STATUS_WAITING_FOR_HUMAN
                        || over(s))
            })
            .await
            .unwrap_or_else(|e| panic!("after killing the board sensor: {e:#}\n{}", g.tail()));
    }
    let state = play_human_to_the_end(&g.client, state, || g.tail()).await;
    assert!(
        matches!(state.result.as_str(), "1-0" | "0-1" | "1/2-1/2"),
        "{state:?}"
    );
    let text = g
        .archived_pdn("the finished game", |t| t.contains("[GameType \"25\"]"))
        .await;
    let games = parse_pdn(&text).expect("the PDN parses");
    let replayed = games[0].replay().expect("the PDN replays legally");
    assert_eq!(replayed.ply_count(), state.ply as usize);
    let log = std::fs::read_to_string(g.dir.path().join("launch.log")).unwrap_or_default();
    for node in ["expression", "board_sensor", "arbiter", "arm", "planner"] {
        assert!(
            log.contains(&format!(
                "[launch] node {node} died (signal: 9 (SIGKILL)): respawning in 1.0 s"
            )),
            "{node}\n{log}"
        );
    }
}
