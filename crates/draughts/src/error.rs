//! Errors of the rules engine. Each names what was wrong, so a caller can show it in one line.

use thiserror::Error;

use crate::{Color, GameResult, Move, Square};

/// Text that could not be read: a square, a move, a FEN or a PDN file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    #[error("not a dark square: {0:?}")]
    Square(String),
    #[error("malformed move text: {0:?}")]
    MoveText(String),
    #[error("malformed FEN {fen:?}: {why}")]
    Fen { fen: String, why: String },
    #[error("PDN line {line}: {why}")]
    Pdn { line: usize, why: String },
}

/// A position that cannot arise in a game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    #[error("square {0} holds both a white and a black piece")]
    Overlap(Square),
    #[error("{0} has {1} pieces; a side has at most 12")]
    TooManyPieces(Color, u32),
    #[error("a white man on the last rank ({0}) should have been crowned")]
    WhiteManOnLastRank(Square),
    #[error("a black man on the first rank ({0}) should have been crowned")]
    BlackManOnFirstRank(Square),
}

/// A move that is not legal in the position it was tried in.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error("{0}")]
    Parse(#[from] ParseError),
    /// `text` as it was given (a move's text, or what a caller typed); `fen`, the position it
    /// was tried in.
    #[error("illegal move {text:?} in {fen}")]
    Illegal { text: String, fen: String },
    #[error("move {text:?} is ambiguous: it names {}", texts(candidates))]
    Ambiguous { text: String, candidates: Vec<Move> },
    #[error("the game is over ({0})")]
    GameOver(GameResult),
}

fn texts(moves: &[Move]) -> String {
    moves.iter().map(Move::text).collect::<Vec<_>>().join(", ")
}
