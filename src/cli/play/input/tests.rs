use checkers_msgs::msg::GameState;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::*;
use crate::cli::play::test_util::{start, state_at};

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn typed(app: &mut App, text: &str) -> Option<Action> {
    for c in text.chars() {
        assert_eq!(on_key(app, key(KeyCode::Char(c))), None, "typing {c:?}");
    }
    on_key(app, key(KeyCode::Enter))
}

fn playing() -> App {
    let mut app = App::new(vec!["easy".into(), "medium".into(), "hard".into()]);
    app.on_state(start());
    app
}

// White: man on c3 can capture d4 -> e5, then f6 -> g7; or d4 only via another route.
const CAPTURE_FEN: &str = "W:Wc3:Bd4,f6,d6";

#[test]
fn algebraic_and_numeric_moves_are_found() {
    let moves = start().legal_moves;
    assert_eq!(
        find_move(&moves, "c3-d4").map(|m| m.text.as_str()),
        Ok("c3-d4")
    );
    assert_eq!(
        find_move(&moves, " C3-D4 ").map(|m| m.text.as_str()),
        Ok("c3-d4")
    );
    // 22 is c3, 18 is d4.
    assert_eq!(
        find_move(&moves, "22-18").map(|m| m.text.as_str()),
        Ok("c3-d4")
    );
}

#[test]
fn captures_by_full_path_or_ends() {
    let s = state_at(CAPTURE_FEN, GameState::STATUS_WAITING_FOR_HUMAN);
    let texts: Vec<&str> = s.legal_moves.iter().map(|m| m.text.as_str()).collect();
    let full = texts
        .iter()
        .find(|t| t.matches(':').count() == 2)
        .expect("a double capture");
    let found = find_move(&s.legal_moves, full).expect("full path");
    assert_eq!(&found.text, full);
    let (from, to) = (&full[..2], &full[full.len() - 2..]);
    let found = find_move(&s.legal_moves, &format!("{from}x{to}")).expect("from and to only");
    assert_eq!(&found.text, full);
}

#[test]
fn an_illegal_move_says_so_and_lists_the_legal_ones() {
    let moves = start().legal_moves;
    let e = find_move(&moves, "c3-e5")
        .expect_err("not a legal step")
        .to_string();
    assert!(e.contains("c3-e5 is not a legal move here"), "{e}");
    assert!(
        e.ends_with("legal: a3-b4 c3-d4 e3-f4 g3-h4 c3-b4 e3-d4 g3-f4"),
        "{e}"
    );
    let many: Vec<_> = (0..10).map(|_| moves[0].clone()).collect();
    let e = find_move(&many, "c3-e5")
        .expect_err("not among them")
        .to_string();
    assert!(e.ends_with("a3-b4 ..."), "eight shown, the rest cut: {e}");
}

#[test]
fn unreadable_text_shows_the_forms() {
    let moves = start().legal_moves;
    for bad in ["c3", "z9-a1", "c3--d4", "hello"] {
        let e = find_move(&moves, bad).expect_err(bad).to_string();
        assert!(
            e.contains("c3-d4, 22-18 or c3:e5:g3") || e.contains("two squares"),
            "{bad}: {e}"
        );
    }
}

#[test]
fn two_moves_that_fit_ask_for_the_path() {
    // A king on a1 capturing along the long diagonal may stop on several squares: from and a
    // shared waypoint then fit more than one move. Build a clean case from two identical-end
    // moves instead: same from/to, different paths.
    let mut a = checkers_msgs::msg::Move {
        from_square: 29,
        to_square: 22,
        path: vec![15, 22],
        captured: vec![25, 18],
        text: "a1:e5:c3".into(),
        ..Default::default()
    };
    let mut b = a.clone();
    b.path = vec![13, 22];
    b.captured = vec![26, 19];
    b.text = "a1:a5:c3".into();
    a.promotes = false;
    let moves = [a, b];
    let e = find_move(&moves, "a1:c3").expect_err("two fit").to_string();
    assert!(
        e.contains("a1:e5:c3 or a1:a5:c3") && e.contains("whole path"),
        "{e}"
    );
    assert_eq!(
        find_move(&moves, "a1:a5:c3").map(|m| m.text.as_str()),
        Ok("a1:a5:c3")
    );
}

#[test]
fn typing_a_legal_move_plays_it_with_its_full_text() {
    let mut app = playing();
    assert_eq!(
        typed(&mut app, "22-18"),
        Some(Action::PlayMove("c3-d4".into()))
    );
    assert!(app.input.is_empty());
    assert_eq!(app.notice, Some(Notice::Info("playing c3-d4...".into())));
}

#[test]
fn typing_an_illegal_move_keeps_it_for_correction() {
    let mut app = playing();
    assert_eq!(typed(&mut app, "c3-b2"), None);
    assert!(matches!(&app.notice, Some(Notice::Error(e)) if e.contains("not a legal move")));
    assert_eq!(app.input, "c3-b2");
    on_key(&mut app, key(KeyCode::Backspace));
    on_key(&mut app, key(KeyCode::Backspace));
    assert_eq!(
        typed(&mut app, "d4"),
        Some(Action::PlayMove("c3-d4".into()))
    );
}

#[test]
fn letters_that_are_no_move_are_commands_not_input() {
    let mut app = playing();
    assert_eq!(
        on_key(&mut app, key(KeyCode::Char('q'))),
        Some(Action::Quit)
    );
    assert!(app.input.is_empty());
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert_eq!(on_key(&mut app, ctrl_c), Some(Action::Quit));
}

#[test]
fn a_question_mark_asks_for_a_hint_and_types_nothing() {
    let mut app = playing();
    typed_partly(&mut app, "c3");
    assert_eq!(
        on_key(&mut app, key(KeyCode::Char('?'))),
        Some(Action::Hint)
    );
    assert_eq!(app.input, "c3", "the typed move is kept");
}

fn typed_partly(app: &mut App, text: &str) {
    for c in text.chars() {
        on_key(app, key(KeyCode::Char(c)));
    }
}

#[test]
fn the_list_plays_the_highlighted_move() {
    let mut app = playing();
    on_key(&mut app, key(KeyCode::Down));
    on_key(&mut app, key(KeyCode::Down));
    let expected = app.choices()[2].text.clone();
    assert_eq!(
        on_key(&mut app, key(KeyCode::Enter)),
        Some(Action::PlayMove(expected))
    );
    for _ in 0..20 {
        on_key(&mut app, key(KeyCode::Down));
    }
    assert_eq!(app.selected, app.choices().len() - 1, "stops at the end");
    for _ in 0..20 {
        on_key(&mut app, key(KeyCode::Up));
    }
    assert_eq!(app.selected, 0);
}

#[test]
fn no_move_out_of_turn() {
    let mut app = App::new(vec![]);
    assert_eq!(typed(&mut app, "c3-d4"), None);
    assert!(matches!(&app.notice, Some(Notice::Error(e)) if e.contains("not started")));
    app.on_state(state_at("B:W21-32:B1-12", GameState::STATUS_ROBOT_THINKING));
    app.input.clear();
    assert_eq!(typed(&mut app, "c3-d4"), None);
    assert!(matches!(&app.notice, Some(Notice::Error(e)) if e.contains("robot's turn")));
    let mut over = start();
    over.status = GameState::STATUS_DRAW;
    app.on_state(over);
    app.input.clear();
    assert_eq!(typed(&mut app, "c3-d4"), None);
    assert!(matches!(&app.notice, Some(Notice::Error(e)) if e.contains("game is over")));
}

#[test]
fn an_ambiguous_board_is_resolved_from_the_list_or_by_text() {
    let mut app = playing();
    let mut s = start();
    s.status = GameState::STATUS_AMBIGUOUS;
    s.candidates = vec![s.legal_moves[3].clone(), s.legal_moves[4].clone()];
    let second = s.candidates[1].text.clone();
    app.on_state(s);
    on_key(&mut app, key(KeyCode::Down));
    assert_eq!(
        on_key(&mut app, key(KeyCode::Enter)),
        Some(Action::Resolve {
            index: 1,
            text: second.clone()
        })
    );
    assert_eq!(
        typed(&mut app, &second),
        Some(Action::Resolve {
            index: 1,
            text: second
        })
    );
}

#[test]
fn new_game_dialog_chooses_colour_and_level() {
    let mut app = playing();
    assert_eq!(on_key(&mut app, key(KeyCode::Char('n'))), None);
    // Preset: White (played last) and medium (in use).
    assert_eq!(
        app.mode,
        Mode::NewGame {
            colour: 0,
            level: 1
        }
    );
    on_key(&mut app, key(KeyCode::Right));
    on_key(&mut app, key(KeyCode::Down));
    on_key(&mut app, key(KeyCode::Down));
    assert_eq!(
        app.mode,
        Mode::NewGame {
            colour: 1,
            level: 2
        },
        "level stops at the last"
    );
    assert_eq!(
        on_key(&mut app, key(KeyCode::Enter)),
        Some(Action::NewGame {
            robot_color: checkers_msgs::srv::NewGame_Request::SIDE_WHITE,
            level: "hard".into()
        })
    );
    assert_eq!(app.mode, Mode::Play);
    on_key(&mut app, key(KeyCode::Char('n')));
    on_key(&mut app, key(KeyCode::Left));
    assert_eq!(
        app.mode,
        Mode::NewGame {
            colour: 2,
            level: 1
        },
        "Left wraps to random"
    );
    assert_eq!(on_key(&mut app, key(KeyCode::Esc)), None);
    assert_eq!(app.mode, Mode::Play);
}

#[test]
fn resign_asks_first() {
    let mut app = playing();
    on_key(&mut app, key(KeyCode::Char('r')));
    assert_eq!(app.mode, Mode::ConfirmResign);
    assert_eq!(
        on_key(&mut app, key(KeyCode::Char('x'))),
        None,
        "anything but y cancels"
    );
    assert_eq!(app.mode, Mode::Play);
    on_key(&mut app, key(KeyCode::Char('r')));
    assert_eq!(
        on_key(&mut app, key(KeyCode::Char('y'))),
        Some(Action::Resign {
            side: GameState::SIDE_WHITE
        })
    );
}

#[test]
fn no_resigning_without_a_game() {
    let mut app = App::new(vec![]);
    app.on_state(state_at(draughts::START_FEN, GameState::STATUS_IDLE));
    app.mode = Mode::Play;
    on_key(&mut app, key(KeyCode::Char('r')));
    assert_eq!(app.mode, Mode::Play);
    assert!(matches!(&app.notice, Some(Notice::Error(e)) if e.contains("no game")));
}
