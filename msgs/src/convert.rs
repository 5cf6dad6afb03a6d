//! Between the rules engine's types and the messages (feature `draughts`). Squares on the wire
//! are PDN numbers 1..32; masks have bit n-1 for square n.

use draughts::{bitboard_to_numbered, numbered_to_bitboard};
use draughts::{Color, Move, Position, Square};

use crate::msg;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConvertError {
    #[error("position: {0}")]
    Position(String),
    #[error("move {text:?} (from {from} to {to}) is not legal here")]
    NotLegal { text: String, from: u8, to: u8 },
}

pub fn side_code(c: Color) -> u8 {
    match c {
        Color::White => msg::Position::SIDE_WHITE,
        Color::Black => msg::Position::SIDE_BLACK,
    }
}

pub fn side_of(code: u8) -> Option<Color> {
    match code {
        msg::Position::SIDE_WHITE => Some(Color::White),
        msg::Position::SIDE_BLACK => Some(Color::Black),
        _ => None,
    }
}

pub fn move_msg(m: &Move) -> msg::Move {
    let mut captured: Vec<u8> = m.captured_squares().map(Square::number).collect();
    captured.sort_unstable();
    msg::Move {
        from_square: m.from().number(),
        to_square: m.to().number(),
        path: m.landings().iter().map(|s| s.number()).collect(),
        captured,
        promotes: m.promotes(),
        text: m.text(),
    }
}

pub fn position_msg(p: &Position) -> msg::Position {
    msg::Position {
        white: bitboard_to_numbered(p.pieces(Color::White)),
        black: bitboard_to_numbered(p.pieces(Color::Black)),
        kings: bitboard_to_numbered(p.all_kings()),
        side_to_move: side_code(p.side_to_move()),
        fen: draughts::to_fen(p),
    }
}

/// The position a message describes: its bitboards, checked by the rules engine (the FEN is a
/// convenience for people and must agree when given).
pub fn position_from_msg(m: &msg::Position) -> Result<Position, ConvertError> {
    let side = side_of(m.side_to_move)
        .ok_or_else(|| ConvertError::Position(format!("side_to_move {}", m.side_to_move)))?;
    let p = Position::from_boards(
        numbered_to_bitboard(m.white),
        numbered_to_bitboard(m.black),
        numbered_to_bitboard(m.kings),
        side,
    );
    p.validate()
        .map_err(|e| ConvertError::Position(e.to_string()))?;
    if !m.fen.is_empty() {
        let from_fen =
            draughts::parse_fen(&m.fen).map_err(|e| ConvertError::Position(e.to_string()))?;
        if from_fen != p {
            return Err(ConvertError::Position(format!(
                "fen {:?} disagrees with the bitboards",
                m.fen
            )));
        }
    }
    Ok(p)
}

/// The legal move of `p` that a message names: same from, to and captured set (a move's
/// identity per RULES.md); the path in the message does not need to match.
pub fn find_move(p: &Position, m: &msg::Move) -> Result<Move, ConvertError> {
    let captured: u64 = m
        .captured
        .iter()
        .filter_map(|&n| Square::from_number(n))
        .fold(0, |acc, s| acc | s.mask());
    p.legal_moves()
        .into_iter()
        .find(|c| {
            c.from().number() == m.from_square
                && c.to().number() == m.to_square
                && c.captured() == captured
        })
        .ok_or_else(|| ConvertError::NotLegal {
            text: m.text.clone(),
            from: m.from_square,
            to: m.to_square,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_moves_round_trip() {
        let p = draughts::parse_fen("W:WK27,28:B19,K6").expect("fen");
        let m = position_msg(&p);
        assert_eq!(position_from_msg(&m), Ok(p));
        for mv in p.legal_moves() {
            assert_eq!(find_move(&p, &move_msg(&mv)), Ok(mv));
        }
        let mut bad = m.clone();
        bad.fen = draughts::START_FEN.into();
        assert!(position_from_msg(&bad).is_err());
    }
}
