//! Feeds arbitrary bytes to every text parser of the rules engine: FEN, move text (against the
//! start position and against the FEN's own position) and PDN, including replaying the games.
//! Any panic is a bug. Run: `cd crates/draughts/fuzz && cargo fuzz run parsers`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let start = draughts::Position::start();
    let _ = start.parse_move(text);
    if let Ok(pos) = draughts::parse_fen(text) {
        let fen = draughts::to_fen(&pos);
        assert_eq!(draughts::parse_fen(&fen).ok(), Some(pos));
        for m in pos.legal_moves().iter() {
            assert_eq!(pos.parse_move(&m.text()).ok(), Some(*m));
        }
    }
    if let Ok(games) = draughts::parse_pdn(text) {
        for g in games.iter().take(4) {
            let _ = g.replay();
        }
    }
});
