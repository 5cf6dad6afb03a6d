//! The rules engine of Russian draughts (shashki): the one authority on the rules in this
//! project. No ROS, no I/O.
//!
//! - [`Position`]: bitboards over the 32 dark squares, side to move, Zobrist hash, copy-make;
//! - [`Position::legal_moves`]: complete move generation per RULES.md;
//! - [`Game`]: history and result, every draw rule counted in plies;
//! - text: [`Move`] text, FEN ([`parse_fen`], [`to_fen`]), PDN ([`parse_pdn`], [`write_pdn`]);
//! - [`perft`] and [`random_playout`] for testing and speed.
//!
//! A game: the legal moves, a move played from its text, and the rules' verdict.
//!
//! ```
//! use draughts::{Color, Game, GameResult, WinReason};
//!
//! let mut game = Game::new();
//! let openings: Vec<String> = game.legal_moves().iter().map(|m| m.text()).collect();
//! assert_eq!(openings.len(), 7);
//! assert!(openings.contains(&"c3-d4".to_string()));
//! game.play_text("c3-d4")?;
//! assert_eq!(game.position().side_to_move(), Color::Black);
//!
//! // White to move, a man on c3 against a lone black man on d4: capturing is compulsory, and
//! // Black is left with no move.
//! let mut ending = Game::from_fen("W:Wc3:Bd4")?;
//! let only = ending.legal_moves();
//! assert_eq!(only.len(), 1);
//! assert!(only[0].is_capture());
//! ending.play(&only[0])?;
//! assert_eq!(
//!     ending.result(),
//!     GameResult::Win { winner: Color::White, reason: WinReason::NoMoves }
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod error;
mod fen;
mod game;
mod movegen;
mod moves;
mod notation;
mod pdn;
mod perft;
mod playout;
mod position;
mod square;
mod zobrist;

pub use error::{MoveError, ParseError, PositionError};
pub use fen::{parse_fen, to_fen, to_fen_algebraic, START_FEN};
pub use game::{
    Counters, DrawReason, Game, GameResult, WinReason, KINGS_ENDING_4_5_PLIES,
    KINGS_ENDING_6_7_PLIES, KING_MOVES_DRAW_PLIES, LONE_KING_STRONG_MOVES, MAIN_DIAGONAL,
    TWO_VS_ONE_PLIES,
};
pub use movegen::MoveList;
pub use moves::{Move, MAX_PATH};
pub use notation::parse_squares;
pub use pdn::{parse_pdn, write_pdn, write_pdn_with_comments, PdnGame, ReplayError, GAME_TYPE};
pub use perft::{divide, perft};
pub use playout::{random_game, random_playout, Playout, Rng};
pub use position::{
    bitboard_to_numbered, mirror_board, numbered_to_bitboard, Color, Material, Piece, PieceKind,
    Position, RANK_1, RANK_8,
};
pub use square::{Square, Squares, VALID};
