//! An endgame database: for every position of up to a few pieces, whether the side to move wins,
//! loses or draws under the rules, and in how many plies. Alpha-beta reads it at its leaves, so
//! it knows which small endings are won (and plays them out by the shortest win) and which are
//! dead draws, where its evaluation only guesses from material.
//!
//! Built by retrograde analysis (`build`): pass `n` settles the positions won or lost in exactly
//! `n` plies, from the moves the rules engine generates (so captures, forced captures and
//! crowning are the engine's), until a pass settles nothing new. What is never settled is a
//! draw, and so are the positions the rules call drawn at once (a lone king on the main road
//! against three). The counting rules (15 moves against a lone king, 5 with two pieces, 30 in
//! small king endings) depend on the game's history, so the search checks them at the probe,
//! not here. Four pieces build in seconds; five in a minute or two, so that one is kept in a
//! file (`file`) and read back on later runs.

use std::path::Path;
use std::sync::{Arc, Mutex};

use draughts::Counters;
use draughts::{Color, MoveList, Position};

mod build;
mod file;
mod index;

pub use file::{cache_path, EndgameFileError};

/// The first position whose stored result one ply of play does not confirm
/// ([`EndgameDb::verify`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Disagreement {
    #[error("a child of {0} is missing")]
    MissingChild(String),
    #[error("{fen}: stored {stored:?}, one ply of play says {played:?}")]
    Result {
        fen: String,
        stored: Outcome,
        played: Outcome,
    },
}
use index::{groups_of, sig_of_slot, slot, Indexer, Sig, SLOTS};

/// Pieces on the board for which the database is built by default: every ending of up to four
/// pieces, 6.4 million positions with White to move, built in about 3 s on two threads.
pub const DEFAULT_PIECES: u32 = 4;
/// The most pieces a database may hold. Five pieces take a minute and a half to build on two
/// threads and 180 MB, so that database is kept in a file once built (see [`shared`]).
pub const MAX_PIECES: u32 = 5;

/// What the side to move gets with best play, in plies to the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(u8),
    Loss(u8),
    Draw,
}

/// Byte codes in the tables: 0 is a draw (or, while building, not settled yet); `c > 0` is a
/// result in `c - 1` plies, a loss for the side to move when that is even, a win when odd.
fn decode(code: u8) -> Outcome {
    match code {
        0 => Outcome::Draw,
        c if (c - 1) % 2 == 0 => Outcome::Loss(c - 1),
        c => Outcome::Win(c - 1),
    }
}

fn encode(plies: u8) -> u8 {
    plies + 1
}

pub struct EndgameDb {
    max_pieces: u32,
    ix: Indexer,
    /// Indexed by signature slot; empty where the signature is not in the database.
    tables: Vec<Vec<u8>>,
}

impl std::fmt::Debug for EndgameDb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "EndgameDb({} pieces)", self.max_pieces)
    }
}

impl EndgameDb {
    /// A database with every table still to fill.
    fn empty(pieces: u32) -> EndgameDb {
        EndgameDb {
            max_pieces: pieces.min(MAX_PIECES),
            ix: Indexer::new(),
            tables: vec![Vec::new(); SLOTS],
        }
    }

    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// Checks every stored result against one ply of play: a win in `d` has a move to a loss
    /// in `d - 1` and none to a shorter loss, a loss in `d` has only moves to wins (the longest
    /// in `d - 1`), a draw has no move to a loss and some move to a draw. Returns how many
    /// positions it checked, or the first that disagrees.
    pub fn verify(&self) -> Result<usize, Disagreement> {
        let mut list = MoveList::new();
        let mut checked = 0;
        for (sig, table) in self.signatures() {
            for (i, pos) in self.placements(sig) {
                let got = decode(table[i]);
                let want = if Counters::new(&pos).draw(&pos).is_some() {
                    Outcome::Draw
                } else {
                    list.clear();
                    pos.generate_into(&mut list);
                    let children: Vec<Option<Outcome>> = list
                        .iter()
                        .map(|m| self.code(&pos.after(m).mirror()).map(decode))
                        .collect();
                    if children.iter().any(Option::is_none) {
                        return Err(Disagreement::MissingChild(draughts::to_fen(&pos)));
                    }
                    let children: Vec<Outcome> = children.into_iter().flatten().collect();
                    let shortest_loss = children
                        .iter()
                        .filter_map(|c| match c {
                            Outcome::Loss(d) => Some(*d),
                            _ => None,
                        })
                        .min();
                    let longest_win = children
                        .iter()
                        .map(|c| match c {
                            Outcome::Win(d) => Some(*d),
                            _ => None,
                        })
                        .collect::<Option<Vec<u8>>>()
                        .and_then(|w| w.into_iter().max());
                    match (children.is_empty(), shortest_loss, longest_win) {
                        (true, _, _) => Outcome::Loss(0),
                        (_, Some(d), _) => Outcome::Win(d + 1),
                        (_, None, Some(d)) => Outcome::Loss(d + 1),
                        _ => Outcome::Draw,
                    }
                };
                if got != want {
                    return Err(Disagreement::Result {
                        fen: draughts::to_fen(&pos),
                        stored: got,
                        played: want,
                    });
                }
                checked += 1;
            }
        }
        Ok(checked)
    }

    /// Per signature in the database (White to move): wins, draws, losses and the longest
    /// result in plies.
    pub fn summary(&self) -> Vec<(String, [usize; 3], u8)> {
        let pieces = |men: u8, kings: u8| "m".repeat(men as usize) + &"K".repeat(kings as usize);
        self.signatures()
            .map(|(sig, table)| {
                let mut count = [0usize; 3];
                let mut longest = 0;
                for (i, _) in self.placements(sig) {
                    match decode(table[i]) {
                        Outcome::Win(d) => {
                            count[0] += 1;
                            longest = longest.max(d);
                        }
                        Outcome::Draw => count[1] += 1,
                        Outcome::Loss(d) => {
                            count[2] += 1;
                            longest = longest.max(d);
                        }
                    }
                }
                let name = format!("{}v{}", pieces(sig[0], sig[1]), pieces(sig[2], sig[3]));
                (name, count, longest)
            })
            .collect()
    }

    /// The signatures the database holds, in table order, with their tables.
    fn signatures(&self) -> impl Iterator<Item = (Sig, &[u8])> + '_ {
        self.tables
            .iter()
            .enumerate()
            .filter(|(_, t)| !t.is_empty())
            .map(|(s, t)| (sig_of_slot(s), t.as_slice()))
    }

    /// The result for the side to move in `pos`, if `pos` has few enough pieces.
    pub fn probe(&self, pos: &Position) -> Option<Outcome> {
        if pos.occupied().count_ones() > self.max_pieces {
            return None;
        }
        let white = match pos.side_to_move() {
            Color::White => *pos,
            Color::Black => pos.mirror(),
        };
        self.code(&white).map(decode)
    }

    /// The stored code of a position with White to move; `None` if it is not in the database.
    fn code(&self, pos: &Position) -> Option<u8> {
        let (sig, groups) = groups_of(pos);
        if sig[0] + sig[1] == 0 {
            // No pieces, no moves: lost now.
            return Some(encode(0));
        }
        let table = self.tables.get(slot(sig)?)?;
        table.get(self.ix.index(sig, &groups)?).copied()
    }

    /// Every legal placement of `sig` with White to move: its index and position.
    fn placements(&self, sig: Sig) -> impl Iterator<Item = (usize, Position)> + '_ {
        (0..self.ix.table_len(sig)).filter_map(move |i| self.ix.position(sig, i).map(|p| (i, p)))
    }

    /// For the planners' tests: a position of two white men against a black king that White
    /// wins in at least `plies` plies, with its length.
    #[cfg(test)]
    pub(crate) fn long_win(&self, plies: u8) -> Option<(Position, u8)> {
        self.placements([2, 0, 0, 1])
            .find_map(|(_, p)| match self.probe(&p) {
                Some(Outcome::Win(d)) if d >= plies => Some((p, d)),
                _ => None,
            })
    }
}

/// Databases of this many pieces or more are kept in a file ([`cache_path`]) once built.
const KEPT_FROM: u32 = 5;

/// The database of up to `pieces` pieces, shared by every planner of the process. The first
/// call builds it (seconds for four pieces, on `threads` threads), or for five pieces reads it
/// from the file an earlier build left, building and saving it only if there is none.
pub fn shared(pieces: u32, threads: usize) -> Arc<EndgameDb> {
    static BUILT: Mutex<Vec<Arc<EndgameDb>>> = Mutex::new(Vec::new());
    let pieces = pieces.min(MAX_PIECES);
    // Held while building, so a second planner waits for the first build instead of repeating it.
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(db) = built.iter().find(|d| d.max_pieces == pieces) {
        return Arc::clone(db);
    }
    let path = (pieces >= KEPT_FROM).then(|| cache_path(pieces)).flatten();
    let db = Arc::new(load_or_build(pieces, threads, path.as_deref()));
    built.push(Arc::clone(&db));
    db
}

fn load_or_build(pieces: u32, threads: usize, path: Option<&Path>) -> EndgameDb {
    let started = std::time::Instant::now();
    if let Some(path) = path {
        match EndgameDb::load(path) {
            Ok(db) => {
                tracing::info!(pieces, path = %path.display(), "endgame database read");
                return db;
            }
            Err(EndgameFileError::Io { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                tracing::info!(
                    pieces,
                    path = %path.display(),
                    "no endgame database file yet: building it (minutes, once)"
                );
            }
            Err(e) => tracing::warn!("{e}; building the endgame database again"),
        }
    }
    let db = EndgameDb::build(pieces, threads.max(1));
    tracing::info!(
        pieces,
        seconds = started.elapsed().as_secs_f64(),
        "endgame database built"
    );
    if let Some(path) = path {
        match db.save(path) {
            Ok(()) => tracing::info!(path = %path.display(), "endgame database saved"),
            Err(e) => tracing::warn!("the endgame database is not kept: {e}"),
        }
    }
    db
}

#[cfg(test)]
mod tests {
    use super::*;
    use draughts::parse_fen;

    fn db3() -> EndgameDb {
        EndgameDb::build(3, 2)
    }

    #[test]
    fn small_endings_are_known() {
        let db = db3();
        // Two kings cannot catch a lone king on the open board.
        let p = parse_fen("W:WK1,K3:BK32").expect("fen");
        assert_eq!(db.probe(&p), Some(Outcome::Draw));
        // A king against a king.
        let lone = parse_fen("W:WK29:BK1").expect("fen");
        assert_eq!(db.probe(&lone), Some(Outcome::Draw));
        // Too many pieces: not in the database.
        assert_eq!(db.probe(&Position::start()), None);
    }

    #[test]
    fn alphabeta_plays_the_shortest_win() {
        use crate::alphabeta::AlphaBeta;
        use crate::{Control, Limits, Planner, WIN_SCORE};
        let db = Arc::new(db3());
        // Two men against a lone king, won in more plies than the search looks ahead.
        let (pos, plies) = db.long_win(7).expect("a long win");
        let mut ab = AlphaBeta::new().with_endgame(Arc::clone(&db));
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let game = draughts::Game::from_position(pos);
        let d = ab
            .choose(&game, &limits, &Control::default())
            .expect("a move");
        assert_eq!(d.value, WIN_SCORE - i32::from(plies));
        assert_eq!(
            db.probe(&pos.after(&d.best)),
            Some(Outcome::Loss(plies - 1))
        );
    }

    #[test]
    fn results_agree_with_one_ply_of_play() {
        let checked = db3().verify().expect("consistent");
        assert!(checked > 100_000, "{checked}");
    }

    #[test]
    fn a_saved_database_reads_back_the_same() {
        let db = EndgameDb::build(2, 1);
        let dir = std::env::temp_dir().join(format!("egdb-test-{}", std::process::id()));
        let path = dir.join("endgame-2.bin");
        db.save(&path).expect("saved");
        let back = EndgameDb::load(&path).expect("read");
        assert_eq!(back.max_pieces(), 2);
        assert!(db.signatures().eq(back.signatures()));
        // A cut file is refused, with the reason, rather than half read.
        let bytes = std::fs::read(&path).expect("bytes");
        std::fs::write(&path, &bytes[..bytes.len() - 1]).expect("cut");
        assert!(EndgameDb::load(&path).is_err());
        std::fs::write(&path, b"not a database at all").expect("junk");
        assert!(matches!(
            EndgameDb::load(&path),
            Err(EndgameFileError::Format { .. })
        ));
        // A missing file is a plain I/O error, and building goes on without the file.
        let missing = dir.join("none.bin");
        assert!(matches!(
            EndgameDb::load(&missing),
            Err(EndgameFileError::Io { .. })
        ));
        let built = load_or_build(2, 1, Some(&dir.join("endgame-2b.bin")));
        assert_eq!(
            built.probe(&parse_fen("W:WK29:BK1").expect("fen")),
            Some(Outcome::Draw)
        );
        assert!(
            EndgameDb::load(&dir.join("endgame-2b.bin")).is_ok(),
            "kept for next time"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
