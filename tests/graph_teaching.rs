//! The teaching services over DDS, each node in its own process (`checkers-robot launch`):
//! `/game/hint`, the verdicts on the human's moves, and `/game/takeback`.
//!
//! (Apart from `graph_game.rs`, which CI also runs with every node on r2r: an r2r test client
//! joins one domain per process, and each test here launches its graph on its own domain.)

mod graph_support;

use draughts::parse_pdn;
use graph_support::{serial, Graph};

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
    g.board_shows("W:Wc3,a1:Be5,h8").await;
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

    // The game's end: the archived PDN carries the verdict as a comment, and still replays.
    g.human_turn_after(judged.ply).await;
    g.client
        .resign(checkers_msgs::srv::Resign_Request::SIDE_WHITE)
        .await
        .expect("resigned");
    let pdn = g
        .archived_pdn("the archived PDN with the verdict", |t| {
            t.contains("c3-d4 {blunder; better c3-b4}")
        })
        .await;
    let games = parse_pdn(&pdn).expect("parses");
    games[0].replay().expect("replays");
}

/// `/game/takeback` after the robot's capture with promotion: the record is rewound, the arm
/// carries the robot's king back, the human is asked for the rest (the captured man, the king
/// that is a man again), and once the board is put right the position and the board are the
/// start again; the archived PDN keeps only the moves that stood.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_take_back_after_a_capture_with_promotion_restores_the_position() {
    use checkers_msgs::convert::position_from_msg;
    use checkers_msgs::msg::{GameEvent, GameState};
    use checkers_msgs::srv::{HumanMove_Request, NewGame_Request};
    use graph_support::{next_event, WAIT};

    const START: &str = "W:Wc1,h2:Be3,h8";
    let _one = serial().await;
    let g = Graph::start(6, "novice").await;
    let old = g.client.state().expect("a state").game_id;
    g.client
        .new_game(NewGame_Request::SIDE_BLACK, "", START)
        .await
        .expect("a new game from the position");
    g.client
        .wait_state(WAIT, |s| {
            s.game_id != old && s.status == GameState::STATUS_WAITING_FOR_HUMAN
        })
        .await
        .expect("the human's turn");
    g.board_shows(START).await;
    let mut events = g.client.events();
    // c1-d2 walks into the black man's capture e3:c1, which crowns it.
    g.client
        .human_move("c1-d2", HumanMove_Request::ERROR_NONE, true)
        .await
        .expect("the human's move");
    let after = g.human_turn_after(1).await;
    assert_eq!(after.last_move.text, "e3:c1", "{after:?}");
    assert!(after.last_move.promotes);

    let said = g.client.take_back(0).await.expect("the take-back");
    assert!(said.contains("took back c1-d2 e3:c1"), "{said}");
    assert!(said.contains("c1") && said.contains("man again"), "{said}");
    let note = next_event(&mut events, WAIT, |e| e.kind == GameEvent::KIND_TAKEBACK)
        .await
        .expect("the take-back is announced");
    assert_eq!(note.ply, 0);
    let asking = g
        .state(WAIT, "the request to put the board right", |s| {
            s.status == GameState::STATUS_BOARD_MISMATCH
        })
        .await;
    assert_eq!(asking.ply, 0);

    // The human puts the captured man back and swaps the king for a man, and confirms.
    g.client
        .human_move("", HumanMove_Request::ERROR_SET_UP, true)
        .await
        .expect("the board put right");
    next_event(&mut events, WAIT, |e| {
        e.kind == GameEvent::KIND_BOARD_RESTORED
    })
    .await
    .expect("the board restored");
    let state = g
        .state(WAIT, "the human's turn again", |s| {
            s.status == GameState::STATUS_WAITING_FOR_HUMAN
        })
        .await;
    let start = draughts::parse_fen(START).expect("fen");
    assert_eq!(position_from_msg(&state.position).expect("position"), start);
    assert_eq!(state.ply, 0);
    let seen = g.client.scan().await.expect("a scan");
    assert_eq!(
        seen,
        start.occupancy_mask(),
        "the physical board is the start"
    );

    // The game ends; its PDN has no trace of the moves taken back.
    g.client
        .resign(checkers_msgs::srv::Resign_Request::SIDE_WHITE)
        .await
        .expect("resigned");
    let ours = |text: &String| {
        parse_pdn(text).is_ok_and(|games| {
            games
                .iter()
                .any(|p| p.start_position().is_ok_and(|s| s == start))
        })
    };
    let pdn = g.archived_pdn("the game's PDN", ours).await;
    let games = parse_pdn(&pdn).expect("parses");
    assert!(games[0].moves.is_empty(), "{pdn}");
}
