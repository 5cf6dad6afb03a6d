//! The whole simulated robot (`checkers-robot launch launch/sim.launch.xml`: sim, board sensor,
//! arm, planner, arbiter, expression as processes over DDS) plays a game to its end against the
//! simulated human, driven the way `checkers-robot watch` drives it; the PDN the arbiter
//! archives replays legally to the same result.

mod graph_support;

use draughts::pdn::parse_pdn;
use graph_support::{play_human_to_the_end, serial, sim, Graph};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_to_its_end_archived_as_a_pdn_that_replays() {
    let _one = serial().await;
    let g = Graph::start(0, "novice").await;
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

/// `/game/hint` over DDS: the planner's move for the human comes back, is announced, and the
/// robot says it; played, it is the human's move like any other, and judged. A blunder is
/// judged one, with the better move, and the robot remarks on it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_is_said_and_a_blunder_is_judged() {
    use checkers_msgs::msg::GameEvent;
    use checkers_msgs::srv::HumanMove_Request;
    use graph_support::{next_event, WAIT};

    let _one = serial().await;
    let g = Graph::start(5, "novice").await;
    let state = g.client.state().expect("a state");
    let mut events = g.client.events();
    let mut says = g.client.says();
    let hint = g
        .client
        .hint(0.2)
        .await
        .expect("a hint on the human's turn");
    let text = hint.best_move.text.clone();
    assert!(
        state.legal_moves.iter().any(|m| m.text == text),
        "{text} is legal: {state:?}"
    );
    assert!((0.0..=1.0).contains(&hint.win_probability), "{hint:?}");
    let note = next_event(&mut events, WAIT, |e| e.kind == GameEvent::KIND_HINT)
        .await
        .expect("the hint is announced");
    assert_eq!(note.game_move.text, text);
    assert_eq!(note.side, 1 - state.robot_color, "the human's side");
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        match tokio::time::timeout_at(deadline, says.recv()).await {
            Ok(Ok(said)) if said.contains(&text) => break,
            Ok(Ok(_)) => {}
            other => panic!("the robot did not say the hint: {other:?}\n{}", g.tail()),
        }
    }
    g.client
        .human_move(&text, HumanMove_Request::ERROR_NONE, true)
        .await
        .expect("the hint played");
    let moved = next_event(&mut events, WAIT, |e| {
        e.kind == GameEvent::KIND_HUMAN_MOVED || e.kind == GameEvent::KIND_ILLEGAL_MOVE
    })
    .await
    .expect("the arbiter's verdict");
    assert_eq!(moved.kind, GameEvent::KIND_HUMAN_MOVED, "{moved:?}");
    assert_eq!(moved.game_move.text, text);
    let judged = next_event(&mut events, WAIT, |e| e.kind == GameEvent::KIND_VERDICT)
        .await
        .expect("the move is judged");
    assert_eq!(judged.game_move.text, text);
    assert_ne!(judged.verdict, GameEvent::VERDICT_NONE, "{judged:?}");

    // A blunder: the human's man walks into a capture where it could have stayed safe. The
    // robot says so, and the verdict names the better move.
    let old = g.human_turn_after(moved.ply).await.game_id;
    g.client
        .new_game(
            checkers_msgs::srv::NewGame_Request::SIDE_BLACK,
            "",
            "W:Wc3,a1:Be5,h8",
        )
        .await
        .expect("a new game from a position");
    g.client
        .wait_state(WAIT, |s| {
            s.game_id != old && s.status == checkers_msgs::msg::GameState::STATUS_WAITING_FOR_HUMAN
        })
        .await
        .expect("the human's turn in the new game");
    let mut says = g.client.says();
    g.client
        .human_move("c3-d4", HumanMove_Request::ERROR_NONE, true)
        .await
        .expect("the blunder played");
    let judged = next_event(&mut events, WAIT, |e| e.kind == GameEvent::KIND_VERDICT)
        .await
        .expect("the blunder is judged");
    assert_eq!(judged.game_move.text, "c3-d4");
    assert_eq!(judged.verdict, GameEvent::VERDICT_BLUNDER, "{judged:?}");
    assert_eq!(judged.better_move.text, "c3-b4");
    let said = tokio::time::timeout(WAIT, says.recv())
        .await
        .expect("the robot remarks on it")
        .expect("a phrase");
    assert!(!said.is_empty());
}
