//! The board as the arbiter sees it: 8x8, three columns per square, ranks down the left and
//! files along the bottom, the human's side at the bottom. Pieces are letters so that a plain
//! terminal without colours still tells them apart: `w`/`W` a white man/king, `b`/`B` black;
//! the last move's squares are highlighted and its captured squares show `x`.

use checkers_msgs::msg::{Move, Position};
use draughts::Square;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::Widget;

/// Columns per square: wide enough that a square looks square-ish in a terminal cell grid.
pub const SQUARE_W: u16 = 3;
/// Rank labels ("8 ") to the left of the squares.
pub const LABEL_W: u16 = 2;
/// The whole board with its coordinates.
pub const WIDTH: u16 = LABEL_W + 8 * SQUARE_W;
pub const HEIGHT: u16 = 9;

#[derive(Debug, Clone, Copy)]
pub struct BoardWidget<'a> {
    pub position: &'a Position,
    pub last_move: &'a Move,
    /// Black at the bottom (the human plays Black).
    pub flipped: bool,
}

/// What stands on a PDN square (1..32) of a position message.
pub fn piece_char(p: &Position, number: u8) -> char {
    let Some(bit) = number.checked_sub(1).filter(|b| *b < 32).map(|b| 1u32 << b) else {
        return ' ';
    };
    let king = p.kings & bit != 0;
    match (p.white & bit != 0, p.black & bit != 0, king) {
        (true, _, false) => 'w',
        (true, _, true) => 'W',
        (false, true, false) => 'b',
        (false, true, true) => 'B',
        _ => ' ',
    }
}

impl BoardWidget<'_> {
    /// (file, rank), 0-based, of the square drawn at display column `x` and row `y` (0 = top).
    pub fn square_at(&self, x: u8, y: u8) -> (u8, u8) {
        if self.flipped {
            (7 - x, y)
        } else {
            (x, 7 - y)
        }
    }

    /// The screen cell holding the piece letter of the square at 0-based `file` and `rank`,
    /// relative to the widget's area (the tests' way to find a square).
    #[cfg(test)]
    pub fn cell_of(&self, file: u8, rank: u8) -> (u16, u16) {
        let (x, y) = if self.flipped {
            (7 - file, rank)
        } else {
            (file, 7 - rank)
        };
        (LABEL_W + u16::from(x) * SQUARE_W + 1, u16::from(y))
    }
}

impl Widget for BoardWidget<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.width < WIDTH || area.height < HEIGHT {
            buf.set_string(area.x, area.y, "(enlarge the terminal)", Style::default());
            return;
        }
        let lm = self.last_move;
        let touched = |n: u8| lm.from_square != 0 && (lm.from_square == n || lm.path.contains(&n));
        let taken = |n: u8| lm.from_square != 0 && lm.captured.contains(&n);
        for y in 0..8u8 {
            let (_, rank) = self.square_at(0, y);
            let top = area.y + u16::from(y);
            buf.set_string(area.x, top, format!("{} ", rank + 1), Style::default());
            for x in 0..8u8 {
                let (file, rank) = self.square_at(x, y);
                let left = area.x + LABEL_W + u16::from(x) * SQUARE_W;
                let (text, style) = match Square::from_file_rank(file, rank) {
                    None => ("   ".to_string(), Style::default().bg(Color::Gray)),
                    Some(sq) => {
                        let n = sq.number();
                        let bg = if touched(n) {
                            Color::Blue
                        } else {
                            Color::DarkGray
                        };
                        let c = piece_char(self.position, n);
                        let (c, fg) = match c {
                            'w' | 'W' => (c, Color::White),
                            'b' | 'B' => (c, Color::LightRed),
                            _ if taken(n) => ('x', Color::Yellow),
                            _ => (' ', Color::White),
                        };
                        let mut st = Style::default().bg(bg).fg(fg);
                        if c.is_ascii_uppercase() {
                            st = st.add_modifier(Modifier::BOLD);
                        }
                        (format!(" {c} "), st)
                    }
                };
                buf.set_string(left, top, text, style);
            }
        }
        let files = area.y + 8;
        for x in 0..8u8 {
            let (file, _) = self.square_at(x, 0);
            let left = area.x + LABEL_W + u16::from(x) * SQUARE_W + 1;
            buf.set_string(
                left,
                files,
                ((b'a' + file) as char).to_string(),
                Style::default(),
            );
        }
    }
}

#[cfg(test)]
mod tests;
