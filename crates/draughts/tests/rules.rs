//! Hand-built positions, one or more for each rule of RULES.md.

use draughts::{parse_fen, Color, Game, Move, Position};
use draughts::{Counters, DrawReason, GameResult, WinReason};

fn moves(fen: &str) -> Vec<String> {
    let pos = parse_fen(fen).expect("test FEN");
    let mut v: Vec<String> = pos.legal_moves().iter().map(Move::text).collect();
    v.sort();
    v
}

fn pos(fen: &str) -> Position {
    parse_fen(fen).expect("test FEN")
}

#[test]
fn flying_king_captures_at_a_distance() {
    assert_eq!(moves("W:WKf6:Be7,g5"), ["f6:d8", "f6:h4"]);
}

#[test]
fn start_position_has_seven_moves() {
    assert_eq!(
        moves(draughts::START_FEN),
        ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]
    );
}

#[test]
fn men_capture_backwards() {
    assert_eq!(moves("W:We5:Bd4"), ["e5:c3"]);
    assert_eq!(moves("B:Wd6:Be5"), ["e5:c7"]);
}

#[test]
fn capture_is_mandatory_but_no_majority_rule() {
    // One man can take one piece, the other two: both are legal, quiet moves are not.
    assert_eq!(moves("W:Wa3,e3,h2:Bb4,f4,f6"), ["a3:c5", "e3:g5:e7"]);
}

#[test]
fn king_must_land_where_the_capture_goes_on() {
    // Taking c3, the king could stop on d4..h8, but only from e5 can it take f4 next.
    assert_eq!(moves("W:WKa1:Bc3,f4"), ["a1:e5:g3", "a1:e5:h2"]);
}

#[test]
fn king_may_land_anywhere_when_nothing_follows() {
    assert_eq!(
        moves("W:WKa1:Bc3"),
        ["a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8"]
    );
}

#[test]
fn crowned_during_a_capture_goes_on_as_a_king() {
    // The man takes c7, is crowned on d8 and, now a king, takes f6 from a distance.
    let p = pos("W:Wb6:Bc7,f6");
    let list = p.legal_moves();
    let mut texts: Vec<String> = list.iter().map(Move::text).collect();
    texts.sort();
    assert_eq!(texts, ["b6:d8:g5", "b6:d8:h4"]);
    assert!(list.iter().all(Move::promotes));
    let after = p.after(&list[0]);
    assert_eq!(after.kings(Color::White).count_ones(), 1);
    assert_eq!(after.pieces(Color::Black), 0);
}

#[test]
fn men_are_crowned_on_the_last_rank() {
    let p = pos("W:W6:B20");
    let list = p.legal_moves();
    assert_eq!(list.len(), 2);
    assert!(list.iter().all(Move::promotes));
    // A man that captures onto the last rank and can go no further is crowned too.
    let p = pos("W:Wd6:Be7");
    let m = p.parse_move("d6:f8").expect("legal");
    assert!(m.promotes());
    assert_eq!(p.after(&m).kings(Color::White).count_ones(), 1);
}

#[test]
fn circular_capture_is_one_move_and_never_jumps_a_piece_twice() {
    // The king goes round c1-e3-c5-a3-c1 (or the other way: the same move) taking four men.
    // Back on c1 it would take d2 again if captured pieces vanished at once.
    let p = pos("W:WKc1:Bd2,d4,b4,b2");
    let list = p.legal_moves();
    assert_eq!(list.len(), 1, "{list:?}");
    let m = list[0];
    assert_eq!(m.from(), m.to());
    assert_eq!(m.captured().count_ones(), 4);
    // Both ways round name the same move.
    assert_eq!(p.parse_move("c1:e3:c5:a3:c1").expect("one way"), m);
    assert_eq!(p.parse_move("c1:a3:c5:e3:c1").expect("other way"), m);
}

#[test]
fn turkish_strike_captured_piece_blocks_the_path() {
    // Round a3-c5-e3-c1-a3 the king takes four men; back on a3, the captured man on b4 still
    // stands between it and d6, so the sequence ends there instead of taking d6 too.
    let p = pos("W:WKa3:Bb4,d4,d2,b2,d6");
    let list = p.legal_moves();
    let most = list.iter().map(|m| m.captured().count_ones()).max();
    assert_eq!(most, Some(4));
    let lap = p.parse_move("a3:c5:e3:c1:a3").expect("the lap is legal");
    assert_eq!(lap.captured().count_ones(), 4);
    let mut texts: Vec<String> = list.iter().map(Move::text).collect();
    texts.sort();
    assert_eq!(list.len(), 7, "{texts:?}");
}

#[test]
fn two_paths_with_the_same_captures_are_one_move() {
    let p = pos("W:WKc1:Bd2,d4,b4,b2");
    let a = p.parse_move("c1:e3:c5:a3:c1").expect("legal");
    let b = p.parse_move("c1:a3:c5:e3:c1").expect("legal");
    assert_eq!(a, b);
}

#[test]
fn short_capture_text_names_a_unique_move() {
    let p = pos("W:Wa3,e3,h2:Bb4,f4,f6");
    assert_eq!(
        p.parse_move("e3:e7").expect("short form").text(),
        "e3:g5:e7"
    );
    assert_eq!(
        p.parse_move("e3xg5xe7").expect("x separator").text(),
        "e3:g5:e7"
    );
    assert_eq!(p.parse_move("23x16x7").expect("numeric").text(), "e3:g5:e7");
    assert!(p.parse_move("h2-g3").is_err(), "capture is mandatory");
    assert!(p.parse_move("a3:e7").is_err());
}

#[test]
fn short_text_with_two_meanings_is_ambiguous() {
    // The king reaches b8 by two routes that take different men: `a5:b8` names neither.
    let p = pos("W:WKa5:Bd8,f8,c7,g7,h6,c5,g5,b4,h4,e3,f2");
    assert!(matches!(
        p.parse_move("a5:b8"),
        Err(draughts::MoveError::Ambiguous { .. })
    ));
    let a = p.parse_move("a5:e1:g3:b8").expect("full path");
    let b = p.parse_move("a5:d2:f4:b8").expect("full path");
    assert_ne!(a, b);
    assert_eq!(p.parse_move("a5:e1:b8").expect("partial path"), a);
}

#[test]
fn a_side_without_moves_loses() {
    // No pieces at all.
    let g = Game::from_fen("W:W:BK1").expect("fen");
    assert_eq!(
        g.result(),
        GameResult::Win {
            winner: Color::Black,
            reason: WinReason::NoMoves
        }
    );
    // Blocked: the white man on a7 faces the black man on b8 with nowhere to land.
    let g = Game::from_fen("W:W5:B1").expect("fen");
    assert_eq!(g.legal_moves().len(), 0);
    assert_eq!(
        g.result(),
        GameResult::Win {
            winner: Color::Black,
            reason: WinReason::NoMoves
        }
    );
}

#[test]
fn threefold_repetition_draws() {
    let mut g = Game::from_fen("W:WKc1:BKh8").expect("fen");
    for round in 0..2 {
        for m in ["c1-d2", "h8-g7", "d2-c1", "g7-h8"] {
            assert_eq!(g.result(), GameResult::Ongoing, "round {round} before {m}");
            g.play_text(m).expect("legal shuffle");
        }
    }
    assert_eq!(g.repetition_count(), 3);
    assert_eq!(g.result(), GameResult::Draw(DrawReason::Repetition));
    assert!(g.play_text("c1-d2").is_err(), "no move after the end");
    g.undo();
    assert_eq!(g.result(), GameResult::Ongoing);
}

#[test]
fn king_moves_rule_counts_plies() {
    let p = pos("W:WKc1,e1:BKh8,f8");
    let mut c = Counters::new(&p);
    c.king_plies = 29;
    assert_eq!(c.draw(&p), None);
    c.king_plies = 30;
    assert_eq!(c.draw(&p), Some(DrawReason::KingMoves));
    // A man move resets it, a king move adds one.
    let mut g = Game::from_fen("W:WKc1,e3:BKh8,a7").expect("fen");
    g.play_text("c1-d2").expect("king move");
    assert_eq!(g.counters().king_plies, 1);
    g.play_text("a7-b6").expect("man move");
    assert_eq!(g.counters().king_plies, 0);
}

#[test]
fn lone_king_on_the_main_diagonal_against_three_draws_at_once() {
    let g = Game::from_fen("W:WKc1,Ke1,Kh2:BKd4").expect("fen");
    assert_eq!(g.result(), GameResult::Draw(DrawReason::MainDiagonal));
    // Off the main diagonal the stronger side plays on.
    let g = Game::from_fen("W:WKc1,Ke1,Kh2:BKb8").expect("fen");
    assert_eq!(g.result(), GameResult::Ongoing);
}

#[test]
fn three_against_a_lone_king_draws_after_the_strong_sides_15th_move() {
    let p = pos("W:WKc1,Ke1,Kh2:BKb8");
    let mut c = Counters::new(&p); // White, the stronger side, moves first
    c.material_plies = 28; // White has made 14 moves
    assert_eq!(c.draw(&p), None);
    c.material_plies = 29; // 15
    assert_eq!(c.draw(&p), Some(DrawReason::LoneKing));
    c.material_start = Color::Black; // Black moved first: 29 plies hold 14 White moves
    assert_eq!(c.draw(&p), None);
    c.material_plies = 30;
    assert_eq!(c.draw(&p), Some(DrawReason::LoneKing));
}

#[test]
fn two_against_a_lone_king_draws_after_five_moves() {
    let p = pos("W:WKc1,e3:BKb8");
    let mut c = Counters::new(&p);
    c.material_plies = 9;
    assert_eq!(c.draw(&p), None);
    c.material_plies = 10;
    assert_eq!(c.draw(&p), Some(DrawReason::TwoAgainstOne));
}

#[test]
fn kings_endings_draw_after_30_or_60_moves() {
    let four = pos("W:WKc1,e3:BKb8,a7");
    let mut c = Counters::new(&four);
    c.material_plies = 59;
    assert_eq!(c.draw(&four), None);
    c.material_plies = 60;
    assert_eq!(c.draw(&four), Some(DrawReason::KingsEnding));
    let six = pos("W:WKc1,e3,g3:BKb8,a7,c7");
    c.material_plies = 119;
    assert_eq!(c.draw(&six), None);
    c.material_plies = 120;
    assert_eq!(c.draw(&six), Some(DrawReason::KingsEnding));
    // Without kings on both sides the rule does not apply.
    let no_black_king = pos("W:WKc1,e3:Bb8,a7");
    assert_eq!(c.draw(&no_black_king), None);
}

#[test]
fn plies_to_the_counting_draw() {
    // Three against a lone king: White's 15th move is ply 29; the king-moves rule waits 30.
    let p = pos("W:WKc1,Ke1,Kh2:BKb8");
    assert_eq!(Counters::new(&p).plies_to_counting_draw(&p), 29);
    let mut c = Counters::new(&p);
    c.material_plies = 20;
    assert_eq!(c.plies_to_counting_draw(&p), 9);
    // Two against one: five moves.
    let two = pos("W:WKc1,e3:BKb8");
    assert_eq!(Counters::new(&two).plies_to_counting_draw(&two), 10);
    // Only the king-moves rule counts here.
    let start = Position::start();
    let mut c = Counters::new(&start);
    c.king_plies = 12;
    assert_eq!(c.plies_to_counting_draw(&start), 18);
    // Drawn already.
    let diag = pos("W:WKc1,Ke1,Kh2:BKd4");
    assert_eq!(Counters::new(&diag).plies_to_counting_draw(&diag), 0);
}

#[test]
fn captures_and_crowning_restart_the_material_count() {
    let mut g = Game::from_fen("W:WKc1,e3:BKh8,a7").expect("fen");
    g.play_text("c1-d2").expect("legal");
    g.play_text("h8-g7").expect("legal");
    assert_eq!(g.counters().material_plies, 2);
    let mut g = Game::from_fen("W:Wg7:Ba5").expect("fen");
    g.play_text("g7-h8").expect("crowning");
    assert_eq!(g.counters().material_plies, 0);
    assert_eq!(g.counters().material_start, Color::Black);
}

#[test]
fn resignation_and_agreement() {
    let mut g = Game::new();
    g.resign(Color::White);
    assert_eq!(g.result().pdn_tag(), "0-1");
    let mut g = Game::new();
    g.agree_draw();
    assert_eq!(g.result(), GameResult::Draw(DrawReason::Agreement));
}

#[test]
fn occupancy_mask_uses_square_numbers() {
    let p = Position::start();
    assert_eq!(p.occupancy_mask(), 0xFFF0_0FFF);
    assert_eq!(
        draughts::numbered_to_bitboard(p.occupancy_mask()),
        p.occupied()
    );
}
