use checkers_msgs::msg::FaceExpression;
use expression::{eyes, Emotion, Gaze};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::*;
use crate::cli::play::app::Face;
use crate::cli::play::test_util::face;

fn render(face: Option<&Face>) -> Buffer {
    let mut buf = Buffer::empty(Rect::new(0, 0, WIDTH, HEIGHT));
    FaceWidget { face }.render(buf.area, &mut buf);
    buf
}

/// The eye drawn at column `left` as `#`/`.` rows, like `Eye::render`.
fn eye_at(buf: &Buffer, left: u16) -> String {
    (0..8)
        .map(|y| {
            (0..8)
                .map(|c| match buf[(left + c * LED_W, y)].symbol() {
                    "█" => '#',
                    "·" => '.',
                    other => panic!("unexpected {other:?}"),
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_expression_libraries_eyes_are_drawn_as_sent() {
    let (left, right) = eyes(Emotion::Angry, Gaze::Player, false);
    let f = Face::from_msg(&face(
        FaceExpression::EMOTION_ANGRY,
        left.to_cells(),
        right.to_cells(),
    ));
    let buf = render(Some(&f));
    // The viewer sees the robot's right eye on the left.
    assert_eq!(eye_at(&buf, VIEWER_LEFT_X), right.render());
    assert_eq!(eye_at(&buf, VIEWER_RIGHT_X), left.render());
    let caption: String = (0..WIDTH).map(|x| buf[(x, 8)].symbol()).collect();
    assert!(caption.contains("angry (50%)"), "{caption:?}");
}

#[test]
fn no_face_yet_draws_dark_eyes_and_says_so() {
    let buf = render(None);
    assert_eq!(eye_at(&buf, VIEWER_LEFT_X), ["........"; 8].join("\n"));
    let caption: String = (0..WIDTH).map(|x| buf[(x, 8)].symbol()).collect();
    assert!(caption.contains("(no face yet)"));
}
