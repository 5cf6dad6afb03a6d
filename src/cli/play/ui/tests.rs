use checkers_msgs::msg::{Evaluation, FaceExpression, GameState};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

use super::*;
use crate::cli::play::test_util::{face, start};

fn screen(app: &App, w: u16, h: u16) -> Vec<String> {
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("test terminal");
    term.draw(|f| draw(f, app)).expect("draw");
    let buf = term.backend().buffer();
    (0..h)
        .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect())
        .collect()
}

fn has(lines: &[String], needle: &str) -> bool {
    lines.iter().any(|l| l.contains(needle))
}

fn playing() -> App {
    let mut app = App::new(vec!["easy".into(), "medium".into()]);
    app.on_state(start());
    app
}

#[test]
fn the_whole_screen_shows_board_face_status_logs_and_keys() {
    let mut app = playing();
    let mut lit = [0u8; 64];
    lit[9] = 1;
    app.on_face(&face(FaceExpression::EMOTION_HAPPY, lit, lit));
    app.on_say("Your move.");
    app.on_event(&checkers_msgs::msg::GameEvent {
        kind: checkers_msgs::msg::GameEvent::KIND_NEW_GAME,
        text: "new game".into(),
        ..Default::default()
    });
    app.on_evaluation(Evaluation {
        side: Evaluation::SIDE_BLACK,
        win_probability: 0.25,
        algorithm: "alphabeta".into(),
        depth: 6,
        ..Default::default()
    });
    app.input = "c3-".into();
    let s = screen(&app, 100, 30);
    let text = s.join("\n");
    // The board: the start position, Black's men on rank 8 (b8 d8 f8 h8), White's on rank 1.
    assert!(has(&s, "8     b     b     b     b"), "{text}");
    assert!(has(&s, "1  w     w     w     w   "), "{text}");
    assert!(has(&s, "a  b  c  d  e  f  g  h"), "{text}");
    assert!(has(&s, "██"), "an eye LED is lit: {text}");
    assert!(has(&s, "happy (50%)"), "{text}");
    assert!(has(&s, "your move (White)"), "{text}");
    assert!(has(&s, "robot (Black) wins: 25%"), "{text}");
    assert!(has(&s, "[alphabeta, depth 6]"), "{text}");
    assert!(has(&s, "Your move."), "{text}");
    assert!(has(&s, "new game"), "{text}");
    assert!(
        has(&s, "> a3-b4"),
        "the first legal move highlighted: {text}"
    );
    assert!(has(&s, "move> c3-_"), "{text}");
    assert!(has(&s, "n new game | r resign"), "{text}");
}

#[test]
fn the_logs_scroll_to_the_newest_lines() {
    let mut app = playing();
    for i in 0..50 {
        app.on_say(&format!("phrase {i:02}"));
    }
    let s = screen(&app, 100, 30);
    assert!(has(&s, "phrase 49"));
    assert!(!has(&s, "phrase 00"), "the oldest scrolled away");
}

#[test]
fn notices_and_graph_notes_are_shown() {
    let mut app = playing();
    app.notice = Some(Notice::Error("c3-e5 is not a legal move here".into()));
    app.graph_note = Some("the simulated robot stopped: see /tmp/x/launch.log".into());
    let s = screen(&app, 100, 30);
    assert!(has(&s, "c3-e5 is not a legal move here"));
    assert!(has(&s, "the simulated robot stopped"));
    assert!(has(&s, "evaluation: none yet"));
}

#[test]
fn the_new_game_dialog_lists_colours_and_levels() {
    let mut app = playing();
    app.mode = Mode::NewGame {
        colour: 1,
        level: 0,
    };
    let s = screen(&app, 100, 30);
    let text = s.join("\n");
    assert!(has(&s, "New game"), "{text}");
    assert!(has(&s, "[Black]"), "{text}");
    assert!(has(&s, "[easy]"), "{text}");
    assert!(has(&s, "medium"), "{text}");
}

#[test]
fn the_resign_question_is_drawn() {
    let mut app = playing();
    app.mode = Mode::ConfirmResign;
    assert!(has(&screen(&app, 100, 30), "Resign this game? y = yes"));
}

#[test]
fn a_small_terminal_does_not_panic() {
    let mut app = playing();
    app.mode = Mode::NewGame {
        colour: 0,
        level: 0,
    };
    for (w, h) in [(20, 5), (1, 1), (80, 24)] {
        let _ = screen(&app, w, h);
    }
}

#[test]
fn the_gauge_clamps_odd_probabilities() {
    let mut app = playing();
    app.on_evaluation(Evaluation {
        win_probability: 1.7,
        side: start().robot_color,
        ..Default::default()
    });
    let (ratio, label) = gauge_label(&app).expect("gauge");
    assert_eq!(ratio, 1.0);
    assert!(label.contains("100%"));
    app.on_state(GameState {
        game_id: 9,
        ..start()
    });
    assert!(
        gauge_label(&app).is_none(),
        "a new game has no evaluation yet"
    );
}

#[test]
fn long_lines_wrap_at_spaces_with_an_indent() {
    let line = "2 took back d4:f6 e7:g5: please put a piece back on e5, d4, and press confirm";
    let rows = wrap(line, 30);
    assert!(rows.len() > 1, "{rows:?}");
    assert!(rows.iter().all(|r| r.chars().count() <= 30), "{rows:?}");
    assert!(rows[1..].iter().all(|r| r.starts_with("    ")), "{rows:?}");
    let joined: Vec<&str> = rows.iter().flat_map(|r| r.split_whitespace()).collect();
    assert_eq!(joined, line.split_whitespace().collect::<Vec<_>>());
    // A word longer than a row is cut rather than overflowing.
    let long = "x".repeat(50);
    assert!(wrap(&long, 20).iter().all(|r| r.chars().count() <= 20));
    assert_eq!(wrap("short", 30), vec!["short".to_string()]);
    // The events' right-aligned ply stays, and continuations have exactly the indent.
    let rows = wrap("  2 the board is still not right: put it right", 20);
    assert!(rows[0].starts_with("  2 the"), "{rows:?}");
    assert!(
        rows[1..]
            .iter()
            .all(|r| r.starts_with("    ") && !r.starts_with("     ")),
        "{rows:?}"
    );
}

#[test]
fn the_end_of_a_long_event_is_on_the_screen() {
    let mut app = playing();
    app.events.push_back(format!(
        "2 took back d4:f6 e7:g5: please put a piece back on e5, d4, {}and press confirm",
        "and more words ".repeat(4)
    ));
    let text = screen(&app, 100, 30);
    assert!(has(&text, "confirm"), "{}", text.join("\n"));
}
