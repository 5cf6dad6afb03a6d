//! The robot's face: its two 8x8 LED eyes as `/face/expression` sends them, and the emotion's
//! name. Each LED is two terminal columns (`██` lit, `··` dark) so the eyes come out roughly
//! square. The robot's right eye appears on the viewer's left, as a person facing it sees it.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::widgets::Widget;

use super::app::Face;

pub const LED_W: u16 = 2;
const EYE_W: u16 = 8 * LED_W;
const GAP: u16 = 2;
pub const WIDTH: u16 = 2 * EYE_W + GAP;
/// The eyes and the emotion line under them.
pub const HEIGHT: u16 = 9;

pub const LIT: &str = "██";
pub const DARK: &str = "··";

#[derive(Debug)]
pub struct FaceWidget<'a> {
    pub face: Option<&'a Face>,
}

/// Column (from the widget's left) where the viewer's left eye (the robot's right) starts, and
/// the viewer's right eye (the robot's left).
pub const VIEWER_LEFT_X: u16 = 0;
pub const VIEWER_RIGHT_X: u16 = EYE_W + GAP;

fn draw_eye(buf: &mut Buffer, left: u16, top: u16, cells: &[u8; 64]) {
    for (i, &on) in cells.iter().enumerate() {
        // i < 64, so row and column fit in a u16.
        let (row, col) = ((i / 8) as u16, (i % 8) as u16);
        let (text, style) = if on != 0 {
            (LIT, Style::default().fg(Color::LightCyan))
        } else {
            (DARK, Style::default().fg(Color::DarkGray))
        };
        buf.set_string(left + col * LED_W, top + row, text, style);
    }
}

impl Widget for FaceWidget<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.width < WIDTH || area.height < HEIGHT {
            let name = self.face.map_or("no face yet", |f| f.emotion_name());
            buf.set_string(area.x, area.y, name, Style::default());
            return;
        }
        let dark = [0u8; 64];
        let (viewer_left, viewer_right) = match self.face {
            Some(f) => (&f.right_eye, &f.left_eye),
            None => (&dark, &dark),
        };
        draw_eye(buf, area.x + VIEWER_LEFT_X, area.y, viewer_left);
        draw_eye(buf, area.x + VIEWER_RIGHT_X, area.y, viewer_right);
        let caption = match self.face {
            Some(f) => format!(
                "{} ({:.0}%)",
                f.emotion_name(),
                f.intensity.clamp(0.0, 1.0) * 100.0
            ),
            None => "(no face yet)".to_string(),
        };
        let pad = WIDTH.saturating_sub(caption.chars().count() as u16) / 2;
        buf.set_string(area.x + pad, area.y + 8, caption, Style::default());
    }
}

#[cfg(test)]
mod tests;
