//! `/board/markers` for rviz: the pieces (kings taller), the last move's squares, where the
//! human may move, and the hint's squares (orange) when one was asked for. Each marker sits in its square's frame of the URDF (`square_c3`...), so the
//! board's geometry lives in one place: the URDF generated from config/board.yaml.

use checkers_msgs::builtin_interfaces::msg::Time;
use checkers_msgs::std_msgs::msg::ColorRGBA;
use checkers_msgs::visualization_msgs::msg::{Marker, MarkerArray};
use draughts::{Color, PieceKind, Square};

use crate::referee::{status, Referee};

/// A piece's diameter and a man's height, metres (the sim's pieces).
const PIECE_DIAMETER: f64 = 0.016;
const PIECE_HEIGHT: f64 = 0.004;
/// Marks drawn flat on a square.
const MARK_SIZE: f64 = 0.017;

fn color(r: f32, g: f32, b: f32, a: f32) -> ColorRGBA {
    ColorRGBA { r, g, b, a }
}

fn marker(stamp: &Time, ns: &str, id: i32, square: Square) -> Marker {
    let mut m = Marker {
        ns: ns.to_string(),
        id,
        action: Marker::ADD,
        ..Marker::default()
    };
    m.header.stamp = stamp.clone();
    m.header.frame_id = format!("square_{square}");
    m.pose.orientation.w = 1.0;
    m
}

pub fn board_markers(r: &Referee, stamp: Time) -> MarkerArray {
    let mut all = vec![Marker {
        action: Marker::DELETEALL,
        ..Marker::default()
    }];
    let pos = r.position();
    for n in 1..=32u8 {
        let Some(sq) = Square::from_number(n) else {
            continue;
        };
        let Some(piece) = pos.piece_at(sq) else {
            continue;
        };
        let mut m = marker(&stamp, "pieces", i32::from(n), sq);
        m.r#type = Marker::CYLINDER;
        let height = if piece.kind == PieceKind::King {
            2.0 * PIECE_HEIGHT
        } else {
            PIECE_HEIGHT
        };
        m.scale.x = PIECE_DIAMETER;
        m.scale.y = PIECE_DIAMETER;
        m.scale.z = height;
        m.pose.position.z = height / 2.0;
        m.color = match piece.color {
            Color::White => color(0.95, 0.93, 0.85, 1.0),
            Color::Black => color(0.12, 0.1, 0.1, 1.0),
        };
        all.push(m);
    }
    if let Some(last) = r.game().moves().last() {
        let green = color(0.2, 0.8, 0.2, 0.6);
        all.extend(flat_marks(
            &stamp,
            "last_move",
            [last.from(), last.to()],
            MARK_SIZE,
            green,
            0.0,
        ));
    }
    if r.status() == status::WAITING_FOR_HUMAN {
        let mut targets: Vec<Square> = r.game().legal_moves().iter().map(|m| m.to()).collect();
        targets.sort_by_key(|s| s.number());
        targets.dedup();
        let blue = color(0.2, 0.4, 1.0, 0.5);
        all.extend(flat_marks(
            &stamp,
            "legal_targets",
            targets,
            MARK_SIZE * 0.5,
            blue,
            0.0,
        ));
    }
    if let Some(hint) = r.hint() {
        // The hint's two squares, orange, just above the other marks.
        let orange = color(1.0, 0.6, 0.0, 0.7);
        all.extend(flat_marks(
            &stamp,
            "hint",
            [hint.from(), hint.to()],
            MARK_SIZE,
            orange,
            0.001,
        ));
    }
    MarkerArray { markers: all }
}

/// A flat square mark of `size` on each of `squares`, `z` above the board.
fn flat_marks(
    stamp: &Time,
    ns: &str,
    squares: impl IntoIterator<Item = Square>,
    size: f64,
    colour: ColorRGBA,
    z: f64,
) -> Vec<Marker> {
    squares
        .into_iter()
        .enumerate()
        .map(|(i, sq)| {
            let mut m = marker(stamp, ns, i as i32, sq);
            m.r#type = Marker::CUBE;
            m.scale.x = size;
            m.scale.y = size;
            m.scale.z = 0.0005;
            m.pose.position.z = z;
            m.color = colour.clone();
            m
        })
        .collect()
}
