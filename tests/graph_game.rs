//! The whole simulated robot (`checkers-robot launch launch/sim.launch.xml`: sim, board sensor,
//! arm, planner, arbiter, expression as processes over DDS) plays a game to its end against the
//! simulated human, driven the way `checkers-robot watch` drives it; the PDN the arbiter
//! archives replays legally to the same result.

mod graph_support;

use checkers_msgs::convert::position_from_msg;
use checkers_msgs::msg::GameState;
use checkers_msgs::srv::HumanMove_Request;
use draughts::pdn::parse_pdn;
use draughts::Game;
use graph_support::{over, serial, sim, Graph};
use search::{Control, PlannerSpec};

/// After this many plies the human resigns: the test is about the graph, not about the
/// game's length, and a resignation ends a game as properly as a mate.
const MAX_PLIES: u32 = 160;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_to_its_end_archived_as_a_pdn_that_replays() {
    let _one = serial().await;
    let g = Graph::start(0, "novice").await;
    // A strong human against the weakest level: the game ends soon.
    let spec: PlannerSpec = "alphabeta:depth=4".parse().expect("planner spec");
    let mut human = spec.build();
    let mut state = g.client.state().expect("a state");
    let game_id = state.game_id;
    while !over(&state) {
        assert_eq!(
            state.status,
            GameState::STATUS_WAITING_FOR_HUMAN,
            "{state:?}"
        );
        if state.ply >= MAX_PLIES {
            g.client.resign(0).await.expect("the human resigns");
            state = g
                .state(graph_support::WAIT, "the end after resigning", over)
                .await;
            break;
        }
        let pos = position_from_msg(&state.position).expect("a valid position");
        let d = human
            .choose(&Game::from_position(pos), &spec.limits, &Control::default())
            .expect("the human's move");
        let text = d.best.text();
        let done = g
            .client
            .human_move(&text, HumanMove_Request::ERROR_NONE, true)
            .await
            .expect("the human plays");
        assert_eq!(done.performed_text, text);
        state = g.human_turn_after(state.ply).await;
        assert_eq!(state.game_id, game_id, "still the same game");
    }
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
