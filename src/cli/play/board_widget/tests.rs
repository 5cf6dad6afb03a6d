use checkers_msgs::msg::GameState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Color;
use ratatui::widgets::Widget;

use super::*;
use crate::cli::play::test_util::state_at;

fn render(w: BoardWidget) -> Buffer {
    let mut buf = Buffer::empty(Rect::new(0, 0, WIDTH, HEIGHT));
    w.render(buf.area, &mut buf);
    buf
}

/// The symbol drawn on a square given by name ("c3").
fn at(buf: &Buffer, w: &BoardWidget, name: &str) -> String {
    let sq: Square = name.parse().expect("square");
    let (x, y) = w.cell_of(sq.file(), sq.rank());
    buf[(x, y)].symbol().to_string()
}

fn row(buf: &Buffer, y: u16) -> String {
    (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect()
}

#[test]
fn pieces_stand_on_their_squares_white_at_the_bottom() {
    let s = state_at("W:WKc3,e1:Bd6,Kh8", GameState::STATUS_WAITING_FOR_HUMAN);
    let w = BoardWidget {
        position: &s.position,
        last_move: &s.last_move,
        flipped: false,
    };
    let buf = render(w);
    assert_eq!(at(&buf, &w, "c3"), "W");
    assert_eq!(at(&buf, &w, "e1"), "w");
    assert_eq!(at(&buf, &w, "d6"), "b");
    assert_eq!(at(&buf, &w, "h8"), "B");
    assert_eq!(at(&buf, &w, "a1"), " ");
    // Rank 8 on the top row, rank 1 above the files, files a..h left to right.
    assert!(row(&buf, 0).starts_with("8 "), "{:?}", row(&buf, 0));
    assert!(row(&buf, 7).starts_with("1 "));
    assert_eq!(
        row(&buf, 8).split_whitespace().collect::<String>(),
        "abcdefgh"
    );
    // h8 is the top right cell of the board.
    assert_eq!(buf[(WIDTH - 2, 0)].symbol(), "B");
    // e1 in the bottom row, fifth square.
    assert_eq!(buf[(LABEL_W + 4 * SQUARE_W + 1, 7)].symbol(), "w");
}

#[test]
fn flipped_puts_black_at_the_bottom() {
    let s = state_at("W:Wc3:Bh8", GameState::STATUS_WAITING_FOR_HUMAN);
    let w = BoardWidget {
        position: &s.position,
        last_move: &s.last_move,
        flipped: true,
    };
    let buf = render(w);
    assert!(row(&buf, 0).starts_with("1 "));
    assert!(row(&buf, 7).starts_with("8 "));
    assert_eq!(
        row(&buf, 8).split_whitespace().collect::<String>(),
        "hgfedcba"
    );
    // h8 is now the bottom left square.
    assert_eq!(buf[(LABEL_W + 1, 7)].symbol(), "b");
}

#[test]
fn the_last_move_is_highlighted_and_its_captures_marked() {
    // After c3:e5 took d4: a white man on e5, d4 empty.
    let mut s = state_at("B:We5:Bh8", GameState::STATUS_ROBOT_THINKING);
    s.last_move = checkers_msgs::msg::Move {
        from_square: 22, // c3
        to_square: 15,   // e5
        path: vec![15],
        captured: vec![18], // d4
        text: "c3:e5".into(),
        ..Default::default()
    };
    let w = BoardWidget {
        position: &s.position,
        last_move: &s.last_move,
        flipped: false,
    };
    let buf = render(w);
    let bg = |name: &str| {
        let sq: Square = name.parse().expect("square");
        let (x, y) = w.cell_of(sq.file(), sq.rank());
        buf[(x, y)].bg
    };
    assert_eq!(bg("c3"), Color::Blue);
    assert_eq!(bg("e5"), Color::Blue);
    assert_eq!(bg("h8"), Color::DarkGray);
    assert_eq!(at(&buf, &w, "d4"), "x");
    assert_eq!(at(&buf, &w, "e5"), "w");
}

#[test]
fn too_small_an_area_asks_for_room() {
    let s = state_at("W:Wc3:Bh8", GameState::STATUS_WAITING_FOR_HUMAN);
    let mut buf = Buffer::empty(Rect::new(0, 0, 30, 3));
    BoardWidget {
        position: &s.position,
        last_move: &s.last_move,
        flipped: false,
    }
    .render(buf.area, &mut buf);
    assert!(row(&buf, 0).starts_with("(enlarge the terminal)"));
}

#[test]
fn piece_char_ignores_squares_off_the_board() {
    let s = state_at("W:Wc3:Bh8", GameState::STATUS_WAITING_FOR_HUMAN);
    assert_eq!(piece_char(&s.position, 0), ' ');
    assert_eq!(piece_char(&s.position, 33), ' ');
    assert_eq!(piece_char(&s.position, 22), 'w');
}
