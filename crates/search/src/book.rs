//! The opening book: the positions of the first plies, each with the moves this project's own
//! search found within a small margin of the best. A level with `book=1` answers from it at
//! once and picks among the good moves at random, so that it does not play the same game
//! twice; out of the book it searches as usual.
//!
//! Built by `checkers-robot book` ([`build`]): alpha-beta scores every legal move of a position
//! to the same depth ([`crate::planner::score_moves`]); the moves within `margin` (in win
//! probability) of the best are kept, and the positions they lead to are scored in turn, ply
//! by ply, from the start and from the arena's openings. Text form, one position a line:
//! `FEN ; move value ; move value ...` with values in hundredths of a man for the side to move.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use draughts::Rng;
use draughts::{parse_fen, to_fen, Game, Move, Position};

use crate::planner::score_moves;
use crate::planner::{
    value_to_win_probability, win_probability_to_value, Control, Decision, Limits, PlanError,
    Planner, SearchStats,
};
use crate::spec::PlannerSpec;

/// The shipped book (made by `checkers-robot book`, see docs/planners.md).
pub const BUILT_IN: &str = include_str!("book.txt");

/// A book move and its value for the side to move, in hundredths of a man.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    pub value: i32,
}

/// One position of the book and its moves, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub position: Position,
    pub moves: Vec<BookMove>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BookError {
    #[error("book line {line}: {why}")]
    Line { line: usize, why: String },
}

#[derive(Clone, Debug, Default)]
pub struct Book {
    /// By position hash; the position is kept to rule out a collision.
    entries: HashMap<u64, Entry>,
}

impl Book {
    pub fn parse(text: &str) -> Result<Book, BookError> {
        let mut book = Book::default();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let err = |why: String| BookError::Line { line: i + 1, why };
            let mut fields = line.split(';').map(str::trim);
            let fen = fields.next().unwrap_or("");
            let position = parse_fen(fen).map_err(|e| err(e.to_string()))?;
            let mut moves = Vec::new();
            for field in fields {
                let (text, value) = field
                    .split_once(' ')
                    .ok_or_else(|| err(format!("`{field}`: expected a move and its value")))?;
                let mv = position
                    .parse_move(text)
                    .map_err(|e| err(format!("{text}: {e}")))?;
                let value = value
                    .trim()
                    .parse()
                    .map_err(|_| err(format!("`{value}` is not a value")))?;
                moves.push(BookMove { mv, value });
            }
            if moves.is_empty() {
                return Err(err("a position without moves".into()));
            }
            book.insert(Entry { position, moves });
        }
        Ok(book)
    }

    pub fn insert(&mut self, entry: Entry) {
        self.entries.insert(entry.position.hash(), entry);
    }

    /// The book's moves for `position`, best first; empty when it is out of the book.
    pub fn moves(&self, position: &Position) -> &[BookMove] {
        match self.entries.get(&position.hash()) {
            Some(e) if e.position == *position => &e.moves,
            _ => &[],
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The text form, positions in the order given.
    pub fn write(entries: &[Entry]) -> String {
        let mut out = String::new();
        for e in entries {
            out.push_str(&to_fen(&e.position));
            for m in &e.moves {
                out.push_str(&format!(" ; {} {}", m.mv.text(), m.value));
            }
            out.push('\n');
        }
        out
    }
}

/// The shipped book, read once. A book that does not parse is reported and left empty: the
/// levels then search from the first move.
pub fn built_in() -> Arc<Book> {
    static BOOK: OnceLock<Arc<Book>> = OnceLock::new();
    Arc::clone(BOOK.get_or_init(|| match Book::parse(BUILT_IN) {
        Ok(b) => Arc::new(b),
        Err(e) => {
            tracing::error!("the opening book is not used: {e}");
            Arc::new(Book::default())
        }
    }))
}

/// A planner that plays from the book while the position is in it, a book move at random.
pub struct BookPlanner {
    inner: Box<dyn Planner>,
    book: Arc<Book>,
    rng: Rng,
}

impl std::fmt::Debug for BookPlanner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BookPlanner")
            .field("inner", &self.inner.name())
            .field("positions", &self.book.len())
            .finish()
    }
}

impl BookPlanner {
    pub fn new(inner: Box<dyn Planner>, book: Arc<Book>, seed: u64) -> BookPlanner {
        BookPlanner {
            inner,
            book,
            rng: Rng::new(seed ^ 0xb00c),
        }
    }
}

impl Planner for BookPlanner {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn choose(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &Control,
    ) -> Result<Decision, PlanError> {
        let moves = self.book.moves(game.position());
        // A position reached again by repetition is searched: the book knows no history.
        if moves.is_empty() || game.counters().reversible_plies >= 4 {
            return self.inner.choose(game, limits, control);
        }
        let pick = moves[self.rng.below(moves.len())];
        Ok(Decision {
            best: pick.mv,
            value: pick.value,
            win_probability: value_to_win_probability(pick.value),
            stats: SearchStats {
                pv: vec![pick.mv],
                ..SearchStats::default()
            },
        })
    }

    fn new_game(&mut self) {
        self.inner.new_game();
    }

    fn ponder(&mut self, game: &Game, control: &Control) {
        self.inner.ponder(game, control);
    }
}

/// How a book is built.
#[derive(Clone, Copy, Debug)]
pub struct BuildOptions {
    /// The searcher that scores each move (its limits are replaced by `depth`).
    pub engine: PlannerSpec,
    /// Search depth of every move, the move itself included.
    pub depth: u32,
    /// Positions this many plies past their root are not scored.
    pub plies: usize,
    /// Moves that lose more than this (win probability) against the best are left out.
    pub margin: f64,
    /// At most this many moves a position.
    pub max_moves: usize,
    /// The book stops growing at this many positions.
    pub max_positions: usize,
    pub threads: usize,
}

/// Builds a book from `roots` (the start position, the arena's openings), ply by ply, on
/// `options.threads` threads. `progress(done, queued)` is called after each position.
pub fn build(
    roots: &[Game],
    options: &BuildOptions,
    progress: impl Fn(usize, usize) + Sync,
) -> Vec<Entry> {
    let mut seen: HashSet<u64> = HashSet::new();
    let mut level: Vec<Game> = Vec::new();
    for g in roots {
        if seen.insert(g.position().hash()) && !g.result().is_over() {
            level.push(g.clone());
        }
    }
    let mut entries = Vec::new();
    let mut queued = level.len();
    for _ in 0..options.plies {
        if level.is_empty() {
            break;
        }
        let scored = score_level(&level, options, entries.len(), queued, &progress);
        let mut next = Vec::new();
        for (game, moves) in level.iter().zip(scored) {
            if moves.is_empty() {
                continue;
            }
            for m in &moves {
                if queued >= options.max_positions {
                    break;
                }
                let mut child = game.clone();
                if child.play(&m.mv).is_err() || child.result().is_over() {
                    continue;
                }
                if seen.insert(child.position().hash()) {
                    next.push(child);
                    queued += 1;
                }
            }
            entries.push(Entry {
                position: *game.position(),
                moves,
            });
        }
        level = next;
    }
    entries
}

/// The book moves of every game of one ply, in order.
fn score_level(
    level: &[Game],
    options: &BuildOptions,
    done_before: usize,
    queued: usize,
    progress: &(impl Fn(usize, usize) + Sync),
) -> Vec<Vec<BookMove>> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(done_before);
    let results: Mutex<Vec<Vec<BookMove>>> = Mutex::new(vec![Vec::new(); level.len()]);
    std::thread::scope(|s| {
        for _ in 0..options.threads.max(1) {
            s.spawn(|| {
                let mut engine = options.engine.build();
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(game) = level.get(k) else { break };
                    let moves = book_moves(game, engine.as_mut(), options);
                    if let Ok(mut r) = results.lock() {
                        r[k] = moves;
                    }
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1, queued);
                }
            });
        }
    });
    results.into_inner().unwrap_or_default()
}

/// The moves of `game` within the margin of the best, best first.
fn book_moves(game: &Game, engine: &mut dyn Planner, options: &BuildOptions) -> Vec<BookMove> {
    engine.new_game();
    let Ok(mut scored) = score_moves(game, engine, options.depth, &Control::default()) else {
        return Vec::new();
    };
    scored.sort_by(|a, b| b.score.total_cmp(&a.score));
    let best = scored.first().map_or(0.0, |s| s.score);
    scored
        .iter()
        .take_while(|s| best - s.score <= options.margin)
        .take(options.max_moves.max(1))
        .map(|s| BookMove {
            mv: s.mv,
            value: win_probability_to_value(s.score),
        })
        .collect()
}

#[cfg(test)]
mod tests;
