//! The whole simulated robot (`checkers-robot launch launch/sim.launch.xml`: sim, board sensor,
//! arm, planner, arbiter, expression as processes over DDS) plays a game to its end against the
//! simulated human, driven the way `checkers-robot watch` drives it; the PDN the arbiter
//! archives replays legally to the same result.

mod graph_support;

use draughts::parse_pdn;
use graph_support::{play_human_to_the_end, serial, sim, Graph};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_to_its_end_archived_as_a_pdn_that_replays() {
    let _one = serial().await;
    let g = Graph::start(0, "novice").await;
    // Each node runs with glibc's malloc tuned (node_exec::tune_allocator, docs/soak.md).
    for node in ["arbiter", "planner", "sim"] {
        let pid = g.pid(node);
        let environ =
            std::fs::read(format!("/proc/{pid}/environ")).expect("the node's environment");
        // glibc's parser leaves a NUL at each ':' of the variable it read: the first tunable
        // is what stays in its place.
        let tuned = environ.split(|b| *b == 0).any(|v| {
            v.strip_prefix(b"GLIBC_TUNABLES=").is_some_and(|t| {
                !t.is_empty() && node_exec::MALLOC_TUNABLES.as_bytes().starts_with(t)
            })
        });
        assert!(tuned, "{node} runs untuned");
    }
    // A strong human against the weakest level: the game ends soon.
    let first = g.client.state().expect("a state");
    let state = play_human_to_the_end(&g.client, first, || g.tail()).await;
    eprintln!(
        "game over after {} plies: {} ({})",
        state.ply, state.result, state.result_reason
    );
    assert!(
        matches!(state.result.as_str(), "1-0" | "0-1" | "1/2-1/2"),
        "{state:?}"
    );

    // The arbiter writes the PDN as the game ends; give it a moment to land.
    let mut files = Vec::new();
    for _ in 0..100 {
        files = sim::archived_games(&g.sim.state_dir);
        if !files.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(files.len(), 1, "one archived game: {files:?}");
    let text = std::fs::read_to_string(&files[0]).expect("the PDN file");
    let games = parse_pdn(&text).expect("the PDN parses");
    assert_eq!(games.len(), 1);
    let replayed = games[0].replay().expect("the PDN replays legally");
    assert_eq!(replayed.ply_count(), state.ply as usize);
    assert_eq!(games[0].header("GameType"), Some("25"));
    assert_eq!(games[0].result.as_deref(), Some(state.result.as_str()));
}
