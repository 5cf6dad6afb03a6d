//! Persistence: resume after a kill, corrupt files set aside, finished games archived as PDN.

use arbiter::{GameRecord, Resume, StateDir};
use draughts::parse_pdn;
use draughts::{Color, Game};

fn play(record: &mut GameRecord, game: &mut Game, text: &str) {
    let mv = game.play_text(text).expect("a legal move");
    record.push(&mv);
}

/// Plays the legal move from square `from` to square `to` (PDN numbers).
fn play_squares(record: &mut GameRecord, game: &mut Game, from: u8, to: u8) {
    let mv = game
        .legal_moves()
        .into_iter()
        .find(|m| m.from().number() == from && m.to().number() == to)
        .expect("a legal move");
    game.play(&mv).expect("legal");
    record.push(&mv);
}

#[test]
fn a_restarted_arbiter_resumes_the_same_game_with_its_repetitions() {
    let dir = tempfile::tempdir().expect("temp dir");
    let state = StateDir::open(dir.path()).expect("state dir");
    assert!(matches!(state.resume().expect("resume"), Resume::Fresh));

    // Kings shuffling: the same position comes back, so the repetition count matters.
    let fen = "W:WK29:BK1";
    let mut record = GameRecord::new(7, fen, Color::Black, "easy");
    let mut game = Game::from_fen(fen).expect("fen");
    for (from, to) in [(29, 25), (1, 5), (25, 29), (5, 1), (29, 25), (1, 5)] {
        play_squares(&mut record, &mut game, from, to);
        state.save(&record).expect("save every ply");
    }
    let repetitions = game.repetition_count();
    assert!(repetitions >= 2);

    // "Kill" the arbiter: only the directory survives.
    drop(game);
    let state = StateDir::open(dir.path()).expect("reopen");
    match state.resume().expect("resume") {
        Resume::Game(loaded, game) => {
            assert_eq!(*loaded, record);
            assert_eq!(game.moves().len(), 6);
            assert_eq!(game.repetition_count(), repetitions);
            assert_eq!(loaded.robot(), Some(Color::Black));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_corrupt_state_file_is_set_aside_and_reported() {
    let dir = tempfile::tempdir().expect("temp dir");
    let state = StateDir::open(dir.path()).expect("state dir");
    std::fs::write(dir.path().join("game.json"), "{ not json").expect("write");
    match state.resume().expect("resume") {
        Resume::SetAside { why, moved_to } => {
            assert!(why.contains("does not parse"), "{why}");
            assert!(moved_to.exists());
            assert_eq!(
                std::fs::read_to_string(&moved_to).expect("kept"),
                "{ not json"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(state.resume().expect("resume"), Resume::Fresh));

    // A record whose moves are not legal is set aside too.
    let mut record = GameRecord::new(1, "", Color::White, "easy");
    record.moves.push("c3-c5".into());
    state.save(&record).expect("save");
    match state.resume().expect("resume") {
        Resume::SetAside { why, .. } => assert!(why.contains("does not replay"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_finished_game_is_archived_as_pdn_that_replays() {
    let dir = tempfile::tempdir().expect("temp dir");
    let state = StateDir::open(dir.path()).expect("state dir");
    let mut record = GameRecord::new(3, "", Color::White, "medium");
    let mut game = Game::new();
    for text in ["c3-d4", "f6-g5", "g3-f4"] {
        play(&mut record, &mut game, text);
        state.save(&record).expect("save");
    }
    record.resign(Color::Black);
    let game = record.replay().expect("replays");
    assert!(game.result().is_over());
    let path = state
        .archive(&record, &game, "the human resigned")
        .expect("archive");
    assert!(matches!(state.resume().expect("resume"), Resume::Fresh));
    assert_eq!(state.last_game_id(), 3);

    let text = std::fs::read_to_string(&path).expect("PDN file");
    for header in [
        "[GameType \"25\"]",
        "[White \"checkers_robot (medium)\"]",
        "[Black \"Human\"]",
        "[Level \"medium\"]",
        "[Result \"1-0\"]",
        "[Termination \"the human resigned\"]",
        "[Date \"",
    ] {
        assert!(text.contains(header), "{header} missing:\n{text}");
    }
    let games = parse_pdn(&text).expect("parses");
    let replayed = games[0].replay().expect("replays legally");
    assert_eq!(replayed.moves().len(), 3);
}
