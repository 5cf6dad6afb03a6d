//! `/board/markers` for rviz: the pieces as the arbiter believes them, the last move's squares,
//! where the human may move, and the hint's squares (orange) when one was asked for. Each marker
//! sits in its square's frame of the URDF (`square_c3`...), so the board's geometry lives in one
//! place: the URDF generated from config/board.yaml.
//!
//! The physical pieces are the sim's (`/sim/markers`) or, on the robot, on the table: the
//! arbiter's pieces are drawn as flat translucent discs a little wider than a piece, so that each
//! real piece stands on its belief like on a coaster, and a piece without one (or one without a
//! piece) shows at a glance where the two disagree. A king's disc is wider and ringed in gold.

use checkers_msgs::builtin_interfaces::msg::Time;
use checkers_msgs::std_msgs::msg::ColorRGBA;
use checkers_msgs::visualization_msgs::msg::{Marker, MarkerArray};
use draughts::{Color, PieceKind, Square};

use crate::referee::{Referee, Status};

/// A piece's diameter, metres (the sim's pieces, config/board.yaml).
const PIECE_DIAMETER: f64 = 0.016;
/// The belief's disc under a man and under a king, as a multiple of a piece's diameter.
const MAN_DISC: f64 = 1.15;
const KING_DISC: f64 = 1.3;
/// How thick the discs are, metres: a piece stands on its disc, and the last move's green mark
/// (as thin, on the square) shows at the corners around it.
const DISC_HEIGHT: f64 = 0.0006;
/// Marks drawn flat on a square.
const MARK_SIZE: f64 = 0.017;

/// The sides' colours, the sim's pieces' (sim/src/markers.rs): ivory, and a dark red that stands
/// out on the dark squares where black would not.
fn side_color(c: Color, a: f32) -> ColorRGBA {
    match c {
        Color::White => color(0.95, 0.92, 0.85, a),
        Color::Black => color(0.45, 0.05, 0.05, a),
    }
}

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
        let king = piece.kind == PieceKind::King;
        if king {
            let mut ring = disc(&stamp, "kings", i32::from(n), sq, KING_DISC);
            ring.color = color(0.95, 0.75, 0.1, 0.8);
            all.push(ring);
        }
        let mut m = disc(&stamp, "pieces", i32::from(n), sq, MAN_DISC);
        // On top of a king's gold ring, which shows around it.
        m.pose.position.z += if king { DISC_HEIGHT } else { 0.0 };
        m.color = side_color(piece.color, 0.75);
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
    if r.status() == Status::WaitingForHuman {
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

/// A flat disc `scale` times a piece's diameter, lying on `square`.
fn disc(stamp: &Time, ns: &str, id: i32, square: Square, scale: f64) -> Marker {
    let mut m = marker(stamp, ns, id, square);
    m.r#type = Marker::CYLINDER;
    m.scale.x = PIECE_DIAMETER * scale;
    m.scale.y = PIECE_DIAMETER * scale;
    m.scale.z = DISC_HEIGHT;
    m.pose.position.z = DISC_HEIGHT / 2.0;
    m
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::StateDir;

    fn ns_count(m: &MarkerArray, ns: &str) -> usize {
        m.markers.iter().filter(|m| m.ns == ns).count()
    }

    #[test]
    fn the_belief_lies_under_the_pieces_with_the_human_s_targets() {
        let dir = tempfile::tempdir().expect("temp dir");
        let state = StateDir::open(dir.path()).expect("state dir");
        let (mut r, _) = Referee::open(state, Color::Black, "easy").expect("open");
        r.new_game(Color::Black, Some("easy"), "W:WK21,22:B1,5")
            .expect("a new game");
        let m = board_markers(&r, Time::default());
        assert_eq!(m.markers[0].action, Marker::DELETEALL);
        assert_eq!(ns_count(&m, "pieces"), 4);
        assert_eq!(ns_count(&m, "kings"), 1, "the king on 21 is ringed");
        for disc in m.markers.iter().filter(|m| m.ns == "pieces") {
            assert!(disc.header.frame_id.starts_with("square_"), "{disc:?}");
            assert!(disc.scale.z < 0.001 && disc.scale.x > PIECE_DIAMETER);
            assert!(disc.color.a < 1.0, "translucent under the real piece");
        }
        let king = m.markers.iter().find(|m| m.ns == "kings").expect("king");
        assert_eq!(king.header.frame_id, "square_a3");
        // White (the human) to move: the blue marks are the squares it may move to.
        let targets: Vec<&str> = m
            .markers
            .iter()
            .filter(|m| m.ns == "legal_targets")
            .map(|m| m.header.frame_id.as_str())
            .collect();
        assert!(!targets.is_empty());
        assert!(targets.iter().all(|t| t.starts_with("square_")));
    }
}
