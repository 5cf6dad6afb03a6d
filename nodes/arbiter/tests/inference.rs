//! The human's move from occupancy alone, on hundreds of positions from random games.

use arbiter::{infer, squares_of, Inference};
use draughts::Rng;
use draughts::{Game, Position};

/// Positions met in random games (every ply of 40 games).
fn positions() -> Vec<Position> {
    let mut rng = Rng::new(2024);
    let mut out = Vec::new();
    for _ in 0..40 {
        let mut game = Game::new();
        for _ in 0..120 {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            out.push(*game.position());
            let pick = moves[rng.below(moves.len())];
            if game.play(&pick).is_err() {
                break;
            }
        }
    }
    out
}

#[test]
fn every_legal_move_is_recovered_from_its_occupancy() {
    let positions = positions();
    assert!(positions.len() > 500, "{}", positions.len());
    let mut moves_checked = 0;
    for pos in &positions {
        for mv in pos.legal_moves() {
            let after = pos.after(&mv);
            match infer(pos, after.occupancy_mask()) {
                Inference::Move(found) => assert_eq!(
                    pos.after(&found),
                    after,
                    "{} recovered as {}",
                    mv.text(),
                    found.text()
                ),
                Inference::Ambiguous(candidates) => {
                    assert!(candidates.len() >= 2);
                    assert!(candidates.iter().any(|c| pos.after(c) == after));
                    for c in &candidates {
                        assert_eq!(pos.after(c).occupancy_mask(), after.occupancy_mask());
                    }
                }
                other => panic!("{}: {other:?}", mv.text()),
            }
            moves_checked += 1;
        }
    }
    assert!(moves_checked > 3000, "{moves_checked}");
}

#[test]
fn nothing_moved_is_told_apart() {
    for pos in positions().iter().take(50) {
        assert_eq!(infer(pos, pos.occupancy_mask()), Inference::NothingMoved);
    }
}

#[test]
fn a_forgotten_captured_piece_is_illegal_and_named() {
    let mut checked = 0;
    for pos in positions() {
        for mv in pos.legal_moves().iter().filter(|m| m.is_capture()) {
            let after = pos.after(mv).occupancy_mask();
            let left_behind = mv
                .captured_squares()
                .next()
                .expect("a capture takes a piece");
            let square = left_behind.number();
            let reading = after | (1 << (square - 1));
            match infer(&pos, reading) {
                Inference::Illegal {
                    wrong_squares,
                    nearest,
                } => {
                    assert!(
                        wrong_squares.contains(&square),
                        "{}: {wrong_squares:?}",
                        mv.text()
                    );
                    assert!(!nearest.is_empty());
                }
                // Rarely another legal capture leaves exactly that board.
                Inference::Move(m) => assert_eq!(pos.after(&m).occupancy_mask(), reading),
                other => panic!("{}: {other:?}", mv.text()),
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn a_piece_moved_to_a_wrong_square_is_illegal_with_the_squares_to_fix() {
    let pos = Position::start();
    // 22 (c3) slid two squares straight up the board to 14: no legal move does that.
    let reading = (pos.occupancy_mask() & !(1 << 21)) | (1 << 13);
    match infer(&pos, reading) {
        Inference::Illegal {
            wrong_squares,
            nearest,
        } => {
            assert!(wrong_squares.contains(&14), "{wrong_squares:?}");
            assert!(!nearest.is_empty());
            for m in &nearest {
                let diff = pos.after(m).occupancy_mask() ^ reading;
                assert_eq!(diff.count_ones() as usize, squares_of(diff).len());
            }
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_position_without_moves_has_nothing_to_infer() {
    let pos = draughts::parse_fen("W:W:B1,2").expect("fen");
    assert_eq!(infer(&pos, 0), Inference::NoLegalMove);
}
