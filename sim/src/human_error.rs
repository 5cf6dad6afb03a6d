//! Why the simulated human cannot do what `/sim/human_move` asks; the text is the reply's
//! message.

use draughts::{Color, MoveError, ParseError, Square};

use crate::world::WorldError;

#[derive(Debug, thiserror::Error)]
pub enum HumanError {
    #[error("the board cannot be read: {0}")]
    Unreadable(WorldError),
    #[error("the human has not seen the game's position yet")]
    NoGame,
    /// `ERROR_FORGET_CAPTURED` with a move (its text) that captures nothing.
    #[error("{0} captures nothing: there is no captured piece to forget")]
    NothingToForget(String),
    #[error("unknown error kind {0}")]
    UnknownKind(u8),
    #[error("{0:?} has no legal move")]
    NoLegalMove(Color),
    #[error("{text} is not a legal move for {side:?}: {error}")]
    NotLegal {
        text: String,
        side: Color,
        error: MoveError,
    },
    /// `ERROR_ILLEGAL` with a move (its text) that is legal.
    #[error("{0} is legal; ERROR_ILLEGAL needs an illegal move")]
    Legal(String),
    #[error("{text}: {error}")]
    NotSquares { text: String, error: ParseError },
    #[error("{0}: no squares")]
    NoSquares(String),
    #[error("no piece on {0}")]
    NoPiece(Square),
    #[error("{0} is occupied")]
    Occupied(Square),
    #[error("there is no illegal move to make")]
    NoIllegalMove,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_replies_read_as_they_always_have() {
        let sq = |name: &str| name.parse::<Square>().expect("a square");
        for (e, text) in [
            (
                HumanError::Legal("c3-d4".into()),
                "c3-d4 is legal; ERROR_ILLEGAL needs an illegal move",
            ),
            (
                HumanError::NoLegalMove(Color::White),
                "White has no legal move",
            ),
            (HumanError::Occupied(sq("d4")), "d4 is occupied"),
            (HumanError::UnknownKind(9), "unknown error kind 9"),
        ] {
            assert_eq!(e.to_string(), text);
        }
    }
}
