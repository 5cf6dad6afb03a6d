//! The human's mistakes against the whole simulated robot (every node a process, over DDS): an
//! illegal move is refused and its correction played; a captured piece left on the board is
//! refused and, once taken off, the capture is played.
//!
//! "An ambiguous move resolved" is not tested here: it cannot happen with this rules engine,
//! which merges capture paths of the same identity (from, to, captured set) into one move
//! (RULES.md), so no two legal moves leave the same board.

mod graph_support;

use checkers_msgs::msg::{GameEvent, GameState};
use checkers_msgs::srv::HumanMove_Request;
use draughts::Square;
use graph_support::{next_event, over, serial, Graph, WAIT};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_illegal_move_is_refused_and_its_correction_played() {
    let _one = serial().await;
    let g = Graph::start(1, "novice").await;
    let mut events = g.client.events();
    // A man jumping two squares over nothing: no legal move does that.
    g.client
        .human_move("c3-e5", HumanMove_Request::ERROR_ILLEGAL, true)
        .await
        .expect("the illegal move is made");
    let illegal = next_event(&mut events, WAIT, |e| {
        e.kind != GameEvent::KIND_INFO && e.kind != GameEvent::KIND_NEW_GAME
    })
    .await
    .expect("the arbiter's verdict");
    assert_eq!(illegal.kind, GameEvent::KIND_ILLEGAL_MOVE, "{illegal:?}");
    assert!(!illegal.wrong_squares.is_empty());
    let waiting = g.client.state().expect("a state");
    assert_eq!(waiting.ply, 0, "nothing was played");
    assert_eq!(waiting.status, GameState::STATUS_WAITING_FOR_HUMAN);

    // The human takes the piece back (without confirming) and plays a legal move.
    g.client
        .human_move("e5-c3", HumanMove_Request::ERROR_ILLEGAL, false)
        .await
        .expect("the piece goes back");
    let played = g
        .client
        .human_move("c3-d4", HumanMove_Request::ERROR_NONE, true)
        .await
        .expect("the correction");
    let moved = next_event(&mut events, WAIT, |e| e.kind != GameEvent::KIND_INFO)
        .await
        .expect("the correction's verdict");
    assert_eq!(moved.kind, GameEvent::KIND_HUMAN_MOVED, "{moved:?}");
    assert_eq!(moved.game_move.text, played.performed_text);
    next_event(&mut events, WAIT, |e| e.kind == GameEvent::KIND_ROBOT_MOVED)
        .await
        .expect("the robot's reply");
}

/// The square beyond `p` seen from `b` on their diagonal, if any: jumping from `b` there takes
/// `p` off, in the sim human's eyes.
fn beyond(b: Square, p: Square) -> Option<Square> {
    let (bf, br) = (i16::from(b.file()), i16::from(b.rank()));
    let (pf, pr) = (i16::from(p.file()), i16::from(p.rank()));
    if (pf - bf).abs() != (pr - br).abs() || pf == bf {
        return None;
    }
    let (f, r) = (pf + (pf - bf).signum(), pr + (pr - br).signum());
    Square::from_file_rank(u8::try_from(f).ok()?, u8::try_from(r).ok()?)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_captured_piece_left_on_the_board_is_refused_then_taken_off() {
    let _one = serial().await;
    let g = Graph::start(2, "novice").await;
    let mut events = g.client.events();
    // Random moves until the human has a single capture to make (captures are forced, so one
    // comes within a few moves).
    let mut state = g.client.state().expect("a state");
    let capture = loop {
        assert!(
            !over(&state) && state.ply < 60,
            "no capture came: {state:?}"
        );
        if let Some(m) = state.legal_moves.iter().find(|m| m.captured.len() == 1) {
            break m.clone();
        }
        g.client
            .human_move("", HumanMove_Request::ERROR_NONE, true)
            .await
            .expect("a random move");
        state = g.human_turn_after(state.ply).await;
    };
    let ply = state.ply;
    g.client
        .human_move(
            &capture.text,
            HumanMove_Request::ERROR_FORGET_CAPTURED,
            true,
        )
        .await
        .expect("the capture, one piece forgotten");
    let illegal = next_event(&mut events, WAIT, |e| {
        e.kind == GameEvent::KIND_ILLEGAL_MOVE
    })
    .await
    .expect("the arbiter refuses it");
    assert_eq!(
        illegal.wrong_squares, capture.captured,
        "the forgotten piece is named"
    );
    assert_eq!(g.client.state().expect("a state").ply, ply);

    // The human takes the forgotten piece off: in the sim, by lifting the capturing piece and
    // putting it back on its square "over" the piece, which a person taking a capture off does.
    let to = Square::from_number(capture.to_square).expect("a square");
    let kept = Square::from_number(capture.captured[0]).expect("a square");
    let via = beyond(to, kept).expect("the forgotten piece lies on a diagonal of the capturer");
    let fix = format!("{}:{}:{}", to.number(), via.number(), to.number());
    g.client
        .human_move(&fix, HumanMove_Request::ERROR_ILLEGAL, true)
        .await
        .expect("the piece is taken off");
    let moved = next_event(&mut events, WAIT, |e| {
        e.kind == GameEvent::KIND_HUMAN_MOVED || e.kind == GameEvent::KIND_ILLEGAL_MOVE
    })
    .await
    .expect("the arbiter's verdict");
    assert_eq!(moved.kind, GameEvent::KIND_HUMAN_MOVED, "{moved:?}");
    assert_eq!(moved.game_move.text, capture.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_game_mid_game_starts_from_a_board_set_up_again() {
    let _one = serial().await;
    let g = Graph::start(3, "novice").await;
    let mut events = g.client.events();
    g.client
        .human_move("c3-d4", HumanMove_Request::ERROR_NONE, true)
        .await
        .expect("a first move");
    next_event(&mut events, WAIT, |e| e.kind == GameEvent::KIND_ROBOT_MOVED)
        .await
        .expect("the robot's reply");
    let old = g.client.state().expect("a state").game_id;
    g.client
        .new_game(checkers_msgs::srv::NewGame_Request::SIDE_BLACK, "", "")
        .await
        .expect("a new game");
    g.client
        .wait_state(WAIT, |s| s.game_id != old && s.ply == 0)
        .await
        .expect("the new game's state");
    // The simulated human sets the pieces up again, so the first move of the new game is
    // judged against a board that shows the start.
    g.board_shows(draughts::START_FEN).await;
    g.client
        .human_move("c3-d4", HumanMove_Request::ERROR_NONE, true)
        .await
        .expect("the new game's first move");
    let moved = next_event(&mut events, WAIT, |e| {
        e.kind == GameEvent::KIND_HUMAN_MOVED || e.kind == GameEvent::KIND_ILLEGAL_MOVE
    })
    .await
    .expect("the arbiter's verdict");
    assert_eq!(moved.kind, GameEvent::KIND_HUMAN_MOVED, "{moved:?}");
    assert_eq!(moved.ply, 1);
}
