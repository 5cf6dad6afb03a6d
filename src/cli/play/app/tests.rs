use checkers_msgs::msg::{Evaluation, FaceExpression, GameEvent, GameState};

use super::*;
use crate::cli::play::test_util::{face, start, state_at};

#[test]
fn a_state_makes_the_human_side_and_turn_known() {
    let mut app = App::new(vec![]);
    assert_eq!(app.human_side(), None);
    assert!(!app.humans_turn());
    assert!(app.status_line().contains("waiting for the arbiter"));
    app.on_state(start());
    assert_eq!(app.human_side(), Some(GameState::SIDE_WHITE));
    assert!(app.humans_turn());
    assert_eq!(app.choices().len(), 7, "the 7 opening moves are offered");
    assert!(app.status_line().starts_with("your move (White)"));
}

#[test]
fn no_choices_while_the_robot_thinks() {
    let mut app = App::new(vec![]);
    let mut s = state_at("B:W21-32:B1-12", GameState::STATUS_ROBOT_THINKING);
    s.search_depth = 5;
    s.best_move_text = "f6-g5".into();
    app.on_state(s);
    assert!(!app.humans_turn());
    assert!(app.choices().is_empty());
    let line = app.status_line();
    assert!(line.contains("depth 5") && line.contains("f6-g5"), "{line}");
}

#[test]
fn ambiguous_offers_the_candidates() {
    let mut app = App::new(vec![]);
    let mut s = start();
    s.status = GameState::STATUS_AMBIGUOUS;
    s.candidates = s.legal_moves[..2].to_vec();
    app.on_state(s);
    assert_eq!(app.choices().len(), 2);
}

#[test]
fn the_selection_stays_inside_a_shrinking_list() {
    let mut app = App::new(vec![]);
    app.on_state(start());
    app.selected = 6;
    let mut s = start();
    s.legal_moves.truncate(2);
    app.on_state(s);
    assert_eq!(app.selected, 1);
}

#[test]
fn the_first_idle_state_opens_the_new_game_dialog_once() {
    let mut app = App::new(vec!["easy".into(), "medium".into()]);
    let idle = state_at(draughts::START_FEN, GameState::STATUS_IDLE);
    app.on_state(idle.clone());
    assert!(matches!(app.mode, Mode::NewGame { .. }));
    app.mode = Mode::Play;
    app.on_state(idle);
    assert_eq!(
        app.mode,
        Mode::Play,
        "not reopened after the player closed it"
    );
}

#[test]
fn a_new_game_forgets_the_old_evaluation() {
    let mut app = App::new(vec![]);
    app.on_state(start());
    app.on_evaluation(Evaluation {
        win_probability: 0.7,
        side: start().robot_color,
        ..Evaluation::default()
    });
    let mut same = start();
    same.ply = 2;
    app.on_state(same);
    assert!(app.evaluation.is_some());
    let mut next = start();
    next.game_id = 2;
    app.on_state(next);
    assert!(app.evaluation.is_none());
}

#[test]
fn events_and_voice_are_logged_in_order_and_capped() {
    let mut app = App::new(vec![]);
    app.on_event(&GameEvent {
        kind: GameEvent::KIND_ROBOT_MOVED,
        ply: 2,
        game_move: checkers_msgs::msg::Move {
            from_square: 9,
            text: "f6-g5".into(),
            ..Default::default()
        },
        ..GameEvent::default()
    });
    app.on_event(&GameEvent {
        kind: GameEvent::KIND_ILLEGAL_MOVE,
        ply: 2,
        text: "that move is not legal".into(),
        ..GameEvent::default()
    });
    let lines: Vec<&str> = app.events.iter().map(String::as_str).collect();
    assert_eq!(
        lines,
        ["  2 robot moved f6-g5", "  2 that move is not legal"]
    );
    app.on_say("  ");
    assert!(app.voice.is_empty(), "silence is not logged");
    for i in 0..LOG_LINES + 5 {
        app.on_say(&format!("line {i}"));
    }
    assert_eq!(app.voice.len(), LOG_LINES);
    assert_eq!(app.voice.back().map(String::as_str), Some("line 204"));
    assert_eq!(app.voice.front().map(String::as_str), Some("line 5"));
}

#[test]
fn a_face_keeps_its_eyes_and_names_its_emotion() {
    let mut app = App::new(vec![]);
    let mut left = [0u8; 64];
    left[0] = 1;
    app.on_face(&face(FaceExpression::EMOTION_ANGRY, left, [0; 64]));
    let f = app.face.as_ref().expect("face");
    assert_eq!(f.emotion_name(), "angry");
    assert_eq!(f.left_eye[0], 1);
}

#[test]
fn the_human_plays_black_when_the_robot_is_white() {
    let mut app = App::new(vec![]);
    let mut s = start();
    s.robot_color = GameState::SIDE_WHITE;
    app.on_state(s);
    assert_eq!(app.human_side(), Some(GameState::SIDE_BLACK));
    assert!(!app.humans_turn(), "White (the robot) is to move");
    assert!(app.choices().is_empty());
    assert!(app.status_line().starts_with("waiting for the human"));
}

#[test]
fn game_over_names_the_winner_and_reason() {
    let mut app = App::new(vec![]);
    let mut s = state_at("B:W21-32:B1-12", GameState::STATUS_WHITE_WON);
    s.result = "1-0".into();
    s.result_reason = "black resigned".into();
    app.on_state(s);
    assert!(app.is_over());
    let line = app.status_line();
    assert!(
        line.contains("White won (1-0)") && line.contains("black resigned"),
        "{line}"
    );
}

#[test]
fn a_hints_evaluation_is_not_the_robots() {
    let mut app = App::new(vec![]);
    app.on_state(start());
    let robot = start().robot_color;
    app.on_evaluation(Evaluation {
        win_probability: 0.6,
        side: robot,
        ..Evaluation::default()
    });
    // The hint's search, from the human's side of the board.
    app.on_evaluation(Evaluation {
        win_probability: 0.9,
        side: 1 - robot,
        ..Evaluation::default()
    });
    let kept = app.evaluation.as_ref().expect("the robot's evaluation");
    assert_eq!(kept.side, robot);
    assert!((kept.win_probability - 0.6).abs() < 1e-6);
}
