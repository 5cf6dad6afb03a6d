//! Property tests over positions reached by random play: text round trips, copy-make and its
//! hash, undo, colour symmetry, and perft's shortcuts.

use draughts::Counters;
use draughts::Rng;
use draughts::{parse_fen, to_fen, to_fen_algebraic, Game, Move, Position};
use draughts::{parse_pdn, write_pdn};
use proptest::prelude::*;

/// A game of `plies` random legal moves from the start (stopping early if it ends).
fn random_game(seed: u64, plies: usize) -> Game {
    let mut rng = Rng::new(seed);
    let mut g = Game::new();
    for _ in 0..plies {
        let moves = g.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        g.play(&m).expect("a generated move is legal");
    }
    g
}

/// A random, possibly odd-looking but valid position: any mix of men and kings, so capture
/// loops and long king sequences turn up far more often than in games.
fn random_position(seed: u64, density: usize) -> Position {
    use draughts::{Color, Piece, PieceKind, Square};
    let mut rng = Rng::new(seed);
    let side = if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    let mut p = Position::empty(side);
    for sq in Square::all() {
        if rng.below(100) >= density {
            continue;
        }
        let color = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let crown_rank = if color == Color::White { 7 } else { 0 };
        let kind = if sq.rank() == crown_rank || rng.below(4) == 0 {
            PieceKind::King
        } else {
            PieceKind::Man
        };
        if p.pieces(color).count_ones() < 12 {
            p.set_piece(sq, Some(Piece::new(color, kind)));
        }
    }
    p
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// A move's identity as text: from, to and the captured squares. (Which of several equal
/// paths the generator keeps depends on search order, which mirroring changes.)
fn identity(m: &Move) -> String {
    let captured: Vec<String> = m.captured_squares().map(|s| s.to_string()).collect();
    format!("{}-{} x{}", m.from(), m.to(), captured.join(","))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn fen_round_trips(seed: u64, plies in 0usize..120) {
        let g = random_game(seed, plies);
        let p = *g.position();
        prop_assert_eq!(parse_fen(&to_fen(&p)).expect("numeric"), p);
        prop_assert_eq!(parse_fen(&to_fen_algebraic(&p)).expect("algebraic"), p);
    }

    #[test]
    fn move_text_round_trips(seed: u64, plies in 0usize..120) {
        let g = random_game(seed, plies);
        let p = g.position();
        for m in p.legal_moves().iter() {
            prop_assert_eq!(p.parse_move(&m.text()).expect("full path"), *m);
            prop_assert_eq!(p.parse_move(&m.numeric_text()).expect("numeric"), *m);
        }
    }

    #[test]
    fn copy_make_keeps_the_hash_and_undo_restores(seed: u64, plies in 0usize..120) {
        let mut g = random_game(seed, plies);
        let before = *g.position();
        let counters = g.counters();
        for m in g.legal_moves().iter() {
            let after = before.after(m);
            prop_assert_eq!(after.hash(), after.compute_hash());
            prop_assert!(after.validate().is_ok());
            prop_assert_ne!(after.side_to_move(), before.side_to_move());
            g.play(m).expect("legal");
            prop_assert_eq!(g.undo(), Some(*m));
            prop_assert_eq!(*g.position(), before);
            prop_assert_eq!(g.position().hash(), before.hash());
            prop_assert_eq!(g.counters(), counters);
        }
    }

    #[test]
    fn colour_symmetry(seed: u64, plies in 0usize..120) {
        let g = random_game(seed, plies);
        let p = g.position();
        let m = p.mirror();
        prop_assert_eq!(m.mirror(), *p);
        let mirrored: Vec<String> = p.legal_moves().iter().map(|m| identity(&m.mirror())).collect();
        let of_mirror: Vec<String> = m.legal_moves().iter().map(identity).collect();
        prop_assert_eq!(sorted(mirrored), sorted(of_mirror));
    }

    #[test]
    fn pdn_round_trips(seed: u64, plies in 0usize..200, start_ply in 0usize..20) {
        // Some games start from a FEN set-up, to exercise the FEN header and "1..." numbering.
        let opening = random_game(seed ^ 0x5eed, start_ply);
        let mut g = Game::from_position(*opening.position());
        let mut rng = Rng::new(seed);
        for _ in 0..plies {
            let moves = g.legal_moves();
            if moves.is_empty() {
                break;
            }
            g.play(&moves[rng.below(moves.len())]).expect("legal");
        }
        let text = write_pdn(&g, &[("Event", "proptest \"round\" trip"), ("White", "a")]);
        let games = parse_pdn(&text).expect("our PDN parses");
        prop_assert_eq!(games.len(), 1);
        prop_assert_eq!(games[0].header("GameType"), Some("25"));
        prop_assert_eq!(games[0].header("Event"), Some("proptest \"round\" trip"));
        prop_assert_eq!(games[0].result.as_deref(), Some(g.result().pdn_tag()));
        let replayed = games[0].replay().expect("our PDN replays");
        prop_assert_eq!(replayed.moves(), g.moves());
        prop_assert_eq!(replayed.position(), g.position());
        prop_assert_eq!(replayed.result(), g.result());
    }

    #[test]
    fn perft_agrees_with_playing_every_listed_move(seed: u64, density in 10usize..70) {
        // Perft takes shortcuts (bulk counts, positions without their hash); the reference
        // plays each generated move and counts the lists.
        fn reference(p: &Position, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            p.legal_moves().iter().map(|m| reference(&p.after(m), depth - 1)).sum()
        }
        let p = random_position(seed, density);
        for depth in 1..=4 {
            prop_assert_eq!(draughts::perft(&p, depth), reference(&p, depth), "{:?}", p);
        }
    }

    #[test]
    fn counting_agrees_with_generation_and_moves_are_distinct(seed: u64, density in 10usize..70) {
        let p = random_position(seed, density);
        prop_assert!(p.validate().is_ok());
        let list = p.legal_moves();
        prop_assert_eq!(p.count_legal(), list.len());
        for (i, a) in list.iter().enumerate() {
            prop_assert!(!list[i + 1..].contains(a), "{} twice in {:?}", a, p);
            prop_assert_eq!(a.is_capture(), p.has_capture());
            prop_assert_eq!(p.parse_move(&a.text()).expect("own text"), *a);
            let after = p.after(a);
            prop_assert_eq!(after.hash(), after.compute_hash());
        }
        let mirrored: Vec<String> = list.iter().map(|m| identity(&m.mirror())).collect();
        let of_mirror: Vec<String> = p.mirror().legal_moves().iter().map(identity).collect();
        prop_assert_eq!(sorted(mirrored), sorted(of_mirror));
    }

    #[test]
    fn parsers_never_panic(text in "\\PC{0,80}") {
        let _ = parse_fen(&text);
        let _ = Position::start().parse_move(&text);
        let _ = parse_pdn(&text);
    }

    #[test]
    fn playouts_end_by_the_rules(seed: u64) {
        let start = Position::start();
        let mut rng = Rng::new(seed);
        let out = draughts::random_playout(&start, Counters::new(&start), &mut rng, 1000);
        prop_assert!(out.result.is_over());
        prop_assert!(out.plies < 1000, "a random game ends by the rules well before 1000 plies");
    }
}

#[test]
fn playout_is_deterministic_for_a_seed() {
    let start = Position::start();
    let a = draughts::random_playout(&start, Counters::new(&start), &mut Rng::new(42), 1000);
    let b = draughts::random_playout(&start, Counters::new(&start), &mut Rng::new(42), 1000);
    assert_eq!(a, b);
}
