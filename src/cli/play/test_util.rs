//! Messages for the UI's tests, made with the rules engine so they are consistent.

use checkers_msgs::convert::{move_msg, position_msg};
use checkers_msgs::msg::{FaceExpression, GameState};
use draughts::{parse_fen, Position};

/// A state of game 1 at `fen`, the robot playing Black, with the legal moves filled in.
pub fn state_at(fen: &str, status: u8) -> GameState {
    let p: Position = parse_fen(fen).expect("test FEN");
    GameState {
        game_id: 1,
        position: position_msg(&p),
        status,
        robot_color: GameState::SIDE_BLACK,
        level: "medium".into(),
        legal_moves: p.legal_moves().iter().map(move_msg).collect(),
        result: "*".into(),
        ..GameState::default()
    }
}

/// The start position, the human (White) to move.
pub fn start() -> GameState {
    state_at(draughts::START_FEN, GameState::STATUS_WAITING_FOR_HUMAN)
}

pub fn face(emotion: u8, left: [u8; 64], right: [u8; 64]) -> FaceExpression {
    FaceExpression {
        emotion,
        intensity: 0.5,
        left_eye: left,
        right_eye: right,
        ..FaceExpression::default()
    }
}
