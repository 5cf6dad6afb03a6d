use super::*;

fn spec(s: &str) -> PlannerSpec {
    s.parse().expect("spec")
}

fn tiny_options() -> BuildOptions {
    BuildOptions {
        engine: spec("alphabeta"),
        depth: 3,
        plies: 2,
        margin: 0.05,
        max_moves: 2,
        max_positions: 50,
        threads: 2,
    }
}

#[test]
fn a_built_book_round_trips_through_its_text() {
    let entries = build(&[Game::new()], &tiny_options(), |_, _| {});
    assert!(entries.len() > 1, "{entries:?}");
    assert_eq!(entries[0].position, Position::start());
    for e in &entries {
        assert!(!e.moves.is_empty() && e.moves.len() <= 2);
        assert!(e.moves.windows(2).all(|w| w[0].value >= w[1].value));
    }
    let text = Book::write(&entries);
    let book = Book::parse(&text).expect("parses");
    assert_eq!(book.len(), entries.len());
    for e in &entries {
        assert_eq!(book.moves(&e.position), &e.moves[..]);
    }
    assert!(book
        .moves(&Position::empty(draughts::Color::White))
        .is_empty());
}

#[test]
fn bad_lines_are_named() {
    let err = Book::parse("# comment\nW:W21-32:B1-12 ; c3-d4 10\nW:W21-32:B1-12 ; a1-h8 3\n")
        .expect_err("illegal move");
    assert!(matches!(err, BookError::Line { line: 3, .. }), "{err}");
    assert!(Book::parse("W:W21-32:B1-12 ; c3-d4\n").is_err());
    assert!(Book::parse("W:W21-32:B1-12\n").is_err());
    assert!(Book::parse("not a fen ; c3-d4 1\n").is_err());
}

#[test]
fn the_shipped_book_covers_the_start_and_the_openings() {
    let book = built_in();
    assert!(book.len() >= 100, "{} positions", book.len());
    assert!(book.moves(&Position::start()).len() >= 2);
    let openings = crate::openings::built_in();
    let covered = openings
        .iter()
        .filter(|o| !book.moves(o.game().position()).is_empty())
        .count();
    assert_eq!(
        covered,
        openings.len(),
        "every arena opening is in the book"
    );
}

#[test]
fn the_book_planner_varies_its_book_moves_and_searches_out_of_book() {
    let mut book = Book::default();
    let start = Position::start();
    let moves: Vec<BookMove> = ["c3-d4", "g3-h4"]
        .iter()
        .map(|t| BookMove {
            mv: start.parse_move(t).expect("legal"),
            value: 5,
        })
        .collect();
    book.insert(Entry {
        position: start,
        moves: moves.clone(),
    });
    let book = Arc::new(book);
    let mut firsts = std::collections::HashSet::new();
    for seed in 0..16 {
        let mut p = BookPlanner::new(spec("alphabeta:depth=1").build(), Arc::clone(&book), seed);
        let d = p
            .choose(&Game::new(), &Limits::default(), &Control::default())
            .expect("a move");
        assert!(moves.iter().any(|m| m.mv == d.best));
        assert_eq!(d.value, 5);
        firsts.insert(d.best.text());
    }
    assert_eq!(firsts.len(), 2, "both book moves are played");
    let mut p = BookPlanner::new(spec("alphabeta:depth=2").build(), book, 1);
    let mut game = Game::new();
    game.play_text("a3-b4").expect("legal");
    let d = p
        .choose(&game, &Limits::default(), &Control::default())
        .expect("a move");
    assert!(d.stats.nodes > 0, "out of the book it searches");
}
