//! The game's status and the kinds of its events, typed; their wire values are those of
//! `checkers_msgs/msg/GameState` and `GameEvent`, and only `code` turns them into numbers.

use checkers_msgs::msg::{GameEvent, GameState};

/// Where the game stands (`GameState.status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// No game in progress (before the first `/game/new`).
    Idle,
    WaitingForHuman,
    /// The board fits several legal moves; `/game/resolve` picks one.
    Ambiguous,
    RobotThinking,
    RobotMoving,
    /// A fresh scan checks the board after the arm's move.
    Verifying,
    /// The board must be put right before the game goes on.
    BoardMismatch,
    /// A fault needs a person.
    Error,
    WhiteWon,
    BlackWon,
    Draw,
}

impl Status {
    pub fn code(self) -> u8 {
        match self {
            Status::Idle => GameState::STATUS_IDLE,
            Status::WaitingForHuman => GameState::STATUS_WAITING_FOR_HUMAN,
            Status::Ambiguous => GameState::STATUS_AMBIGUOUS,
            Status::RobotThinking => GameState::STATUS_ROBOT_THINKING,
            Status::RobotMoving => GameState::STATUS_ROBOT_MOVING,
            Status::Verifying => GameState::STATUS_VERIFYING,
            Status::BoardMismatch => GameState::STATUS_BOARD_MISMATCH,
            Status::Error => GameState::STATUS_ERROR,
            Status::WhiteWon => GameState::STATUS_WHITE_WON,
            Status::BlackWon => GameState::STATUS_BLACK_WON,
            Status::Draw => GameState::STATUS_DRAW,
        }
    }
}

/// What an event on `/game/events` is about (`GameEvent.kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    Info,
    NewGame,
    Resumed,
    HumanMoved,
    IllegalMove,
    Ambiguous,
    NothingMoved,
    RobotMoved,
    Capture,
    Promotion,
    ArmFailed,
    BoardMismatch,
    BoardRestored,
    PlannerTimeout,
    PlannerAway,
    Resigned,
    GameOver,
    Hint,
    Verdict,
    TakeBack,
}

impl EventKind {
    pub fn code(self) -> u8 {
        match self {
            EventKind::Info => GameEvent::KIND_INFO,
            EventKind::NewGame => GameEvent::KIND_NEW_GAME,
            EventKind::Resumed => GameEvent::KIND_RESUMED,
            EventKind::HumanMoved => GameEvent::KIND_HUMAN_MOVED,
            EventKind::IllegalMove => GameEvent::KIND_ILLEGAL_MOVE,
            EventKind::Ambiguous => GameEvent::KIND_AMBIGUOUS,
            EventKind::NothingMoved => GameEvent::KIND_NOTHING_MOVED,
            EventKind::RobotMoved => GameEvent::KIND_ROBOT_MOVED,
            EventKind::Capture => GameEvent::KIND_CAPTURE,
            EventKind::Promotion => GameEvent::KIND_PROMOTION,
            EventKind::ArmFailed => GameEvent::KIND_ARM_FAILED,
            EventKind::BoardMismatch => GameEvent::KIND_BOARD_MISMATCH,
            EventKind::BoardRestored => GameEvent::KIND_BOARD_RESTORED,
            EventKind::PlannerTimeout => GameEvent::KIND_PLANNER_TIMEOUT,
            EventKind::PlannerAway => GameEvent::KIND_PLANNER_AWAY,
            EventKind::Resigned => GameEvent::KIND_RESIGNED,
            EventKind::GameOver => GameEvent::KIND_GAME_OVER,
            EventKind::Hint => GameEvent::KIND_HINT,
            EventKind::Verdict => GameEvent::KIND_VERDICT,
            EventKind::TakeBack => GameEvent::KIND_TAKEBACK,
        }
    }
}
