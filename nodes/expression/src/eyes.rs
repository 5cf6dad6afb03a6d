//! The two 8x8 LED eyes. Each emotion has an eye shape (outline and lids, after the FLOBI-style
//! schematic faces of the paper's Figure 3); a pupil is drawn inside the open part of the eye,
//! low when the robot looks at the board, centred when it looks at the player. Blinking closes
//! both eyes to a line for one frame.
//!
//! Layout: row 0 at the top; in each row byte, bit 7 is the leftmost LED as seen by a person
//! facing the robot (the serial protocol's and `FaceExpression`'s convention).

use crate::emotion::Emotion;

/// One eye: 8 rows, bit 7 leftmost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Eye(pub [u8; 8]);

impl Eye {
    pub fn get(&self, row: usize, col: usize) -> bool {
        col < 8 && self.0.get(row).is_some_and(|r| r & (0x80 >> col) != 0)
    }

    fn set(&mut self, row: usize, col: usize) {
        if let Some(r) = self.0.get_mut(row) {
            if col < 8 {
                *r |= 0x80 >> col;
            }
        }
    }

    /// Mirrored left to right: the robot's two eyes are mirror images.
    pub fn mirrored(&self) -> Eye {
        Eye(self.0.map(u8::reverse_bits))
    }

    pub fn lit(&self) -> u32 {
        self.0.iter().map(|r| r.count_ones()).sum()
    }

    /// The `uint8[64]` of `FaceExpression`: row-major, 1 = lit.
    pub fn to_cells(&self) -> [u8; 64] {
        let mut cells = [0u8; 64];
        for (i, cell) in cells.iter_mut().enumerate() {
            *cell = u8::from(self.get(i / 8, i % 8));
        }
        cells
    }

    /// `#` for a lit LED, `.` for a dark one, a line per row (for tests and the terminal UI).
    pub fn render(&self) -> String {
        (0..8)
            .map(|r| {
                (0..8)
                    .map(|c| if self.get(r, c) { '#' } else { '.' })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gaze {
    /// Down at the board (while the arm moves).
    Board,
    /// At the player (while it waits or speaks).
    Player,
}

impl Gaze {
    /// The `GAZE_*` constant of `FaceExpression`.
    pub fn code(self) -> u8 {
        match self {
            Gaze::Board => 0,
            Gaze::Player => 1,
        }
    }
}

/// Shapes of the eye that appears on the viewer's left (the robot's right eye): `#` lit,
/// `o` dark but open (a pupil may be drawn there), ` ` dark. Its inner corner is on the right.
fn shape(emotion: Emotion) -> [&'static str; 8] {
    match emotion {
        Emotion::Neutral | Emotion::Surprise | Emotion::Fear => [
            "  ####  ", " #oooo# ", "#oooooo#", "#oooooo#", "#oooooo#", "#oooooo#", " #oooo# ",
            "  ####  ",
        ],
        // Closed, smiling eyes.
        Emotion::Happy => [
            "        ", "        ", "  ####  ", " #    # ", "#      #", "        ", "        ",
            "        ",
        ],
        // The lid falls toward the outer corner.
        Emotion::Sad => [
            "        ", "        ", "     ###", "  ###oo#", "##oooooo", "#oooooo#", " #oooo# ",
            "  ####  ",
        ],
        // The lid falls toward the inner corner: with the mirrored eye, a frown.
        Emotion::Angry => [
            "        ", "        ", "###     ", "#oo###  ", "oooooo##", "#oooooo#", " #oooo# ",
            "  ####  ",
        ],
        // Narrowed.
        Emotion::Disgust => [
            "        ", "        ", "        ", "########", "#oooooo#", " ###### ", "        ",
            "        ",
        ],
    }
}

const BLINK: [&str; 8] = [
    "        ", "        ", "        ", "        ", "########", "        ", "        ", "        ",
];

/// The robot's (left, right) eyes for an emotion, a gaze, and whether this frame is a blink.
/// The right eye appears on the viewer's left.
pub fn eyes(emotion: Emotion, gaze: Gaze, blink: bool) -> (Eye, Eye) {
    let rows = if blink { BLINK } else { shape(emotion) };
    let mut eye = Eye::default();
    let mut open = Eye::default();
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            match ch {
                '#' => eye.set(r, c),
                'o' => open.set(r, c),
                _ => {}
            }
        }
    }
    if !blink {
        let (pupil_rows, pupil_cols): (&[usize], &[usize]) = match (emotion, gaze) {
            // Fear: a small pupil; surprise: eyes rolled up.
            (Emotion::Fear, Gaze::Board) => (&[5], &[3]),
            (Emotion::Fear, Gaze::Player) => (&[3], &[3]),
            (Emotion::Surprise, _) => (&[2, 3], &[3, 4]),
            (_, Gaze::Board) => (&[5, 6], &[3, 4]),
            (_, Gaze::Player) => (&[3, 4], &[3, 4]),
        };
        for &r in pupil_rows {
            for &c in pupil_cols {
                if open.get(r, c) {
                    eye.set(r, c);
                }
            }
        }
    }
    let right = eye;
    (right.mirrored(), right)
}
