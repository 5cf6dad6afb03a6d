//! The terminal UI's state: what the graph last said (game state, face, voice, events,
//! evaluation) and what the player is doing (typing a move, a dialog). Pure: messages and keys
//! go in, [`Action`](super::input::Action)s for the graph come out of `input`, and the widgets
//! only read it, so all of it is testable without a terminal or a graph.

use std::collections::VecDeque;

use checkers_msgs::msg::{Evaluation, FaceExpression, GameEvent, GameState, Move};

/// How many lines the voice and event logs keep: more than any panel shows, few enough that a
/// long session does not grow without bound.
pub const LOG_LINES: usize = 200;

/// What the robot's face shows, from `/face/expression`.
#[derive(Debug, Clone, PartialEq)]
pub struct Face {
    pub emotion: u8,
    pub intensity: f32,
    pub left_eye: [u8; 64],
    pub right_eye: [u8; 64],
}

impl Face {
    pub fn from_msg(m: &FaceExpression) -> Face {
        Face {
            emotion: m.emotion,
            intensity: m.intensity,
            left_eye: m.left_eye,
            right_eye: m.right_eye,
        }
    }

    pub fn emotion_name(&self) -> &'static str {
        emotion_name(self.emotion)
    }
}

pub fn emotion_name(code: u8) -> &'static str {
    match code {
        FaceExpression::EMOTION_NEUTRAL => "neutral",
        FaceExpression::EMOTION_HAPPY => "happy",
        FaceExpression::EMOTION_SAD => "sad",
        FaceExpression::EMOTION_ANGRY => "angry",
        FaceExpression::EMOTION_SURPRISE => "surprised",
        FaceExpression::EMOTION_FEAR => "afraid",
        FaceExpression::EMOTION_DISGUST => "disgusted",
        _ => "unknown",
    }
}

pub fn side_name(code: u8) -> &'static str {
    if code == GameState::SIDE_WHITE {
        "White"
    } else {
        "Black"
    }
}

/// The player's note of the moment: the outcome of what they last did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    Info(String),
    Error(String),
}

/// The human's colour in the new-game dialog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColourChoice {
    White,
    Black,
    Random,
}

impl ColourChoice {
    pub const ALL: [ColourChoice; 3] = [
        ColourChoice::White,
        ColourChoice::Black,
        ColourChoice::Random,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ColourChoice::White => "White",
            ColourChoice::Black => "Black",
            ColourChoice::Random => "random",
        }
    }

    /// `NewGame.robot_color` for a human who chose this: the robot takes the other colour.
    pub fn robot_color(self) -> u8 {
        use checkers_msgs::srv::NewGame_Request as R;
        match self {
            ColourChoice::White => R::SIDE_BLACK,
            ColourChoice::Black => R::SIDE_WHITE,
            ColourChoice::Random => R::SIDE_RANDOM,
        }
    }
}

/// What the keys act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// Typing a move or choosing one from the list.
    Play,
    /// The new-game dialog: the human's colour and the level.
    NewGame { colour: usize, level: usize },
    /// "Resign? y/n".
    ConfirmResign,
}

#[derive(Debug, Clone, PartialEq)]
pub struct App {
    /// The latest `/game/state`; `None` until the arbiter has published one.
    pub state: Option<GameState>,
    pub face: Option<Face>,
    pub evaluation: Option<Evaluation>,
    /// What the robot said (`/voice/say`), oldest first.
    pub voice: VecDeque<String>,
    /// The game's events (`/game/events`) as lines, oldest first.
    pub events: VecDeque<String>,
    /// The move being typed.
    pub input: String,
    /// Index into [`App::choices`] of the highlighted move.
    pub selected: usize,
    pub notice: Option<Notice>,
    pub mode: Mode,
    /// Difficulty names (config/difficulty/*.yaml), easiest first.
    pub levels: Vec<String>,
    /// A line about the launched graph (starting, a node died); shown until it changes.
    pub graph_note: Option<String>,
    /// The board sensor reads the board: until then a confirm would go unseen, so moves and
    /// take-backs wait.
    pub ready: bool,
    /// The new-game dialog was opened by itself once, when the arbiter first said it was idle,
    /// so a newcomer is asked for a colour and level instead of facing an empty board.
    offered_new_game: bool,
}

impl App {
    pub fn new(levels: Vec<String>) -> App {
        App {
            state: None,
            face: None,
            evaluation: None,
            voice: VecDeque::new(),
            events: VecDeque::new(),
            input: String::new(),
            selected: 0,
            notice: None,
            mode: Mode::Play,
            levels,
            graph_note: None,
            ready: false,
            offered_new_game: false,
        }
    }

    pub fn on_state(&mut self, s: GameState) {
        let new_game = self
            .state
            .as_ref()
            .is_none_or(|old| old.game_id != s.game_id);
        if new_game {
            // The last game's evaluation says nothing about this one.
            self.evaluation = None;
        }
        let idle = s.status == GameState::STATUS_IDLE;
        self.state = Some(s);
        if idle && !self.offered_new_game && self.mode == Mode::Play {
            self.offered_new_game = true;
            self.mode = self.new_game_dialog();
        }
        // The list of choices changed: keep the highlight on the list.
        let n = self.choices().len();
        if self.selected >= n {
            self.selected = n.saturating_sub(1);
        }
    }

    pub fn on_event(&mut self, e: &GameEvent) {
        let text = if e.text.is_empty() {
            let mv = &e.game_move.text;
            if mv.is_empty() {
                event_kind_name(e.kind).to_string()
            } else {
                format!("{} {mv}", event_kind_name(e.kind))
            }
        } else {
            e.text.clone()
        };
        push_capped(&mut self.events, format!("{:>3} {text}", e.ply));
    }

    /// The review of the finished game: into the events list, and a notice that says so.
    pub fn on_review(&mut self, lines: Vec<String>) {
        for line in lines {
            push_capped(&mut self.events, format!("review {line}"));
        }
        self.notice = Some(Notice::Info(
            "the game's review (your worst moves, with better ones) is in the events list".into(),
        ));
    }

    pub fn on_face(&mut self, f: &FaceExpression) {
        self.face = Some(Face::from_msg(f));
    }

    pub fn on_say(&mut self, text: &str) {
        let text = text.trim();
        if !text.is_empty() {
            push_capped(&mut self.voice, text.to_string());
        }
    }

    /// The robot's own evaluations only: a hint's is the human's side of the board and says
    /// nothing about the robot's chances.
    pub fn on_evaluation(&mut self, e: Evaluation) {
        let robot = self.state.as_ref().map(|s| s.robot_color);
        if robot.is_none_or(|r| r == e.side) {
            self.evaluation = Some(e);
        }
    }

    /// The new-game dialog, preset to the colour the human played last (a rematch is one key)
    /// and the level in use, else the middle of the ladder.
    pub fn new_game_dialog(&self) -> Mode {
        let colour = match self.human_side() {
            Some(GameState::SIDE_BLACK) => 1,
            _ => 0,
        };
        let current = self.state.as_ref().map(|s| s.level.as_str());
        let level = current
            .and_then(|l| self.levels.iter().position(|x| x == l))
            .unwrap_or(self.levels.len() / 2);
        Mode::NewGame { colour, level }
    }

    /// The colour the human plays, once a game state is known.
    pub fn human_side(&self) -> Option<u8> {
        self.state.as_ref().map(|s| {
            if s.robot_color == GameState::SIDE_WHITE {
                GameState::SIDE_BLACK
            } else {
                GameState::SIDE_WHITE
            }
        })
    }

    pub fn status(&self) -> u8 {
        self.state
            .as_ref()
            .map_or(GameState::STATUS_IDLE, |s| s.status)
    }

    pub fn is_over(&self) -> bool {
        self.status() >= GameState::STATUS_WHITE_WON
    }

    /// The moves the list offers: the candidates while the arbiter asks which move was meant,
    /// else the legal moves when it is the human's turn, else none.
    pub fn choices(&self) -> &[Move] {
        match &self.state {
            Some(s) if s.status == GameState::STATUS_AMBIGUOUS => &s.candidates,
            Some(s) if self.humans_turn() => &s.legal_moves,
            _ => &[],
        }
    }

    /// The arbiter waits for the human, and the side to move is the human's.
    pub fn humans_turn(&self) -> bool {
        match (&self.state, self.human_side()) {
            (Some(s), Some(side)) => {
                s.status == GameState::STATUS_WAITING_FOR_HUMAN && s.position.side_to_move == side
            }
            _ => false,
        }
    }

    /// One line saying what is going on, for the status panel.
    pub fn status_line(&self) -> String {
        let Some(s) = &self.state else {
            return "waiting for the arbiter...".to_string();
        };
        let you = side_name(self.human_side().unwrap_or(GameState::SIDE_WHITE));
        let head = match s.status {
            GameState::STATUS_IDLE => "no game: press n for a new game".to_string(),
            GameState::STATUS_WAITING_FOR_HUMAN if self.humans_turn() => {
                format!("your move ({you})")
            }
            GameState::STATUS_WAITING_FOR_HUMAN => "waiting for the human".to_string(),
            GameState::STATUS_AMBIGUOUS => "which move did you mean? choose one".to_string(),
            GameState::STATUS_ROBOT_THINKING => {
                let mut t = format!(
                    "robot thinking: depth {}, {} nodes",
                    s.search_depth, s.search_nodes
                );
                if !s.best_move_text.is_empty() {
                    t.push_str(&format!(", best {}", s.best_move_text));
                }
                t
            }
            GameState::STATUS_ROBOT_MOVING => "robot moving".to_string(),
            GameState::STATUS_VERIFYING => "checking the board".to_string(),
            GameState::STATUS_BOARD_MISMATCH => "the board is wrong: put it right".to_string(),
            GameState::STATUS_ERROR => "fault".to_string(),
            GameState::STATUS_WHITE_WON => format!("White won ({})", s.result),
            GameState::STATUS_BLACK_WON => format!("Black won ({})", s.result),
            GameState::STATUS_DRAW => format!("draw ({})", s.result),
            other => format!("status {other}"),
        };
        let detail = if !s.result_reason.is_empty() {
            s.result_reason.as_str()
        } else {
            s.message.as_str()
        };
        let level = if s.level.is_empty() {
            "?"
        } else {
            s.level.as_str()
        };
        let mut line = format!("{head} | you: {you}, level {level}, ply {}", s.ply);
        if !detail.is_empty() {
            line.push_str(" | ");
            line.push_str(detail);
        }
        line
    }
}

fn push_capped(log: &mut VecDeque<String>, line: String) {
    if log.len() == LOG_LINES {
        log.pop_front();
    }
    log.push_back(line);
}

pub fn event_kind_name(kind: u8) -> &'static str {
    match kind {
        GameEvent::KIND_INFO => "info",
        GameEvent::KIND_NEW_GAME => "new game",
        GameEvent::KIND_RESUMED => "resumed",
        GameEvent::KIND_HUMAN_MOVED => "you moved",
        GameEvent::KIND_ILLEGAL_MOVE => "illegal move",
        GameEvent::KIND_AMBIGUOUS => "ambiguous move",
        GameEvent::KIND_NOTHING_MOVED => "nothing moved",
        GameEvent::KIND_ROBOT_MOVED => "robot moved",
        GameEvent::KIND_CAPTURE => "capture",
        GameEvent::KIND_PROMOTION => "promotion",
        GameEvent::KIND_ARM_FAILED => "arm failed",
        GameEvent::KIND_BOARD_MISMATCH => "board mismatch",
        GameEvent::KIND_BOARD_RESTORED => "board restored",
        GameEvent::KIND_PLANNER_TIMEOUT => "planner timeout",
        GameEvent::KIND_RESIGNED => "resigned",
        GameEvent::KIND_GAME_OVER => "game over",
        GameEvent::KIND_HINT => "hint",
        GameEvent::KIND_VERDICT => "verdict",
        GameEvent::KIND_TAKEBACK => "take-back",
        GameEvent::KIND_PLANNER_AWAY => "planner away",
        _ => "event",
    }
}

#[cfg(test)]
mod tests;
