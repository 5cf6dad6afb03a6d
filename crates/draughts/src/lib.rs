//! The rules engine of Russian draughts (shashki): the one authority on the rules in this
//! project. No ROS, no I/O.
//!
//! - [`Position`]: bitboards over the 32 dark squares, side to move, Zobrist hash, copy-make;
//! - [`Position::legal_moves`]: complete move generation per RULES.md;
//! - [`Game`]: history and result, every draw rule counted in plies;
//! - text: [`Move`] text, [`fen`], [`pdn`];
//! - [`perft`] and [`playout`] for testing and speed.

pub mod error;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod pdn;
pub mod perft;
pub mod playout;
pub mod position;
pub mod square;
mod zobrist;

pub use error::{MoveError, ParseError, PositionError};
pub use fen::{parse_fen, to_fen, to_fen_algebraic, START_FEN};
pub use game::{DrawReason, Game, GameResult, WinReason};
pub use movegen::MoveList;
pub use moves::Move;
pub use position::{Color, Material, Piece, PieceKind, Position};
pub use square::Square;
