//! Every node of the robot killed (SIGKILL) in a game under `checkers-robot launch`: the
//! launcher starts it again (`respawn` in launch/nodes.launch.xml), and the game goes on to its
//! end with a PDN that replays. The planner dies while it plans the robot's move (the arbiter's
//! quick move covers it); the others at the human's turn.

mod graph_support;

use std::time::{Duration, Instant};

use draughts::pdn::parse_pdn;
use graph_support::{over, play_human, play_human_to_the_end, serial, Graph, WAIT};

/// The pid of the last start of `node` in the launch's log.
fn pid_of(g: &Graph, node: &str) -> Option<String> {
    let log = std::fs::read_to_string(g.dir.path().join("launch.log")).unwrap_or_default();
    let prefix = format!("[launch] started {node} (pid ");
    log.lines()
        .rev()
        .find_map(|l| l.strip_prefix(&prefix))
        .map(|rest| rest.trim_end_matches(')').to_string())
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
        // A new node's endpoints are matched a moment after it starts; a confirm pressed before
        // the arbiter's reader has matched the new board sensor's writer is lost (the person
        // presses again), so the human here waits that moment out.
        tokio::time::sleep(Duration::from_secs(3)).await;
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
