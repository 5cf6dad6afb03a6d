//! What the arm node accepts as a move: the squares of a real draughts move, nothing else.

use arm::check_move;
use checkers_msgs::msg::Move;

fn mv(from: u8, path: &[u8], captured: &[u8]) -> Move {
    Move {
        from_square: from,
        to_square: path.last().copied().unwrap_or(0),
        path: path.to_vec(),
        captured: captured.to_vec(),
        ..Move::default()
    }
}

#[test]
fn quiet_moves_and_captures_pass() {
    let quiet = check_move(&mv(9, &[13], &[])).expect("b6-a5");
    assert_eq!(quiet.from.to_string(), "b6");
    assert_eq!(quiet.to.to_string(), "a5");
    // 22x15x8: c3:e5:g7 over d4 (18) and f6 (11).
    let double = check_move(&mv(22, &[15, 8], &[18, 11])).expect("double capture");
    assert_eq!(double.captured.len(), 2);
}

#[test]
fn malformed_moves_are_refused_with_a_reason() {
    for (m, why) in [
        (mv(0, &[13], &[]), "not a square"),
        (mv(9, &[33], &[]), "not a square"),
        (mv(9, &[20], &[]), "diagonal"),
        (mv(9, &[13, 17], &[]), "one landing"),
        (mv(22, &[15], &[19]), "no leg"),
        (mv(22, &[15, 8], &[18]), "once per captured"),
        (mv(22, &[15, 8], &[18, 18]), "twice"),
    ] {
        let err = check_move(&m).expect_err("refused").to_string();
        assert!(err.contains(why), "{err} (expected {why})");
    }
    let mut wrong_to = mv(9, &[13], &[]);
    wrong_to.to_square = 14;
    assert!(check_move(&wrong_to)
        .expect_err("refused")
        .to_string()
        .contains("does not end"));
}
