//! The referee's bookkeeping, without ROS: the game in progress, its status, what the board must
//! show, and the decisions on each reading. The node ([`crate::node`]) moves messages in and out;
//! everything it decides is decided here, and every ply is persisted before it is announced.

use draughts::{Color, Game, GameResult, Move, MoveError, ParseError, Position};

use crate::infer::{infer, squares_of, Inference};
use crate::record::{GameRecord, ReadingId, RecordError, Resume, StateDir};

pub use crate::kinds::{EventKind, Status};

/// Why the referee refused a request; the text is what the person is told.
#[derive(Debug, thiserror::Error)]
pub enum RefereeError {
    #[error("bad FEN: {0}")]
    BadFen(ParseError),
    #[error("that position is already decided")]
    AlreadyDecided,
    #[error("no game in progress")]
    NoGame,
    #[error("moves are taken back only while you are to move")]
    TakeBackNotNow,
    #[error("{0} plies would leave the robot to move: take back an even number")]
    OddPlies(usize),
    #[error("only {0} moves were played")]
    TooFewPlies(usize),
    #[error("no ambiguous move to resolve")]
    NothingToResolve,
    #[error("index {index} out of {count}")]
    NoSuchCandidate { index: usize, count: usize },
    #[error("{text:?}: {source}")]
    Unreadable { text: String, source: MoveError },
    #[error("{0:?} is not one of the candidates")]
    NotACandidate(String),
    #[error(transparent)]
    Illegal(#[from] MoveError),
    #[error(transparent)]
    Save(#[from] RecordError),
}

/// Something worth announcing on `/game/events` (kinds as `checkers_msgs/msg/GameEvent`).
#[derive(Debug, Clone, PartialEq)]
pub struct Announcement {
    pub kind: EventKind,
    pub side: Color,
    pub game_move: Option<Move>,
    pub candidates: Vec<Move>,
    pub wrong_squares: Vec<u8>,
    pub occupancy: u32,
    pub text: String,
    /// KIND_VERDICT: the verdict code, the better move, the win probability given away.
    pub verdict: Option<(u8, Option<Move>, f32)>,
}

impl Announcement {
    pub fn new(kind: EventKind, side: Color, text: impl Into<String>) -> Announcement {
        Announcement {
            kind,
            side,
            game_move: None,
            candidates: Vec::new(),
            wrong_squares: Vec::new(),
            occupancy: 0,
            text: text.into(),
            verdict: None,
        }
    }
}

#[derive(Debug)]
pub struct Referee {
    dir: StateDir,
    record: GameRecord,
    game: Game,
    status: Status,
    message: String,
    candidates: Vec<Move>,
    /// While the board is wrong: the occupancy it must show again.
    expected: Option<u32>,
    /// The last reading judged since this arbiter started (the record keeps the last one
    /// judged at all, across restarts).
    last_reading: Option<ReadingId>,
    /// What the robot's last move announces, held back until the board shows it (the events
    /// say "executed and verified").
    held_back: Vec<Announcement>,
    level: String,
    /// Saves of the game that failed, and why the last did (for `/diagnostics`).
    save_failures: u64,
    last_save_error: String,
    /// The move suggested to the human, and the ply it was suggested at: it stands until a
    /// move is played.
    hint: Option<(usize, Move)>,
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl Referee {
    /// Opens the state directory and resumes the game in progress there, or starts a new one.
    /// The announcements say what happened (resumed, or a state file set aside).
    pub fn open(
        dir: StateDir,
        robot: Color,
        level: &str,
    ) -> Result<(Referee, Vec<Announcement>), RecordError> {
        let resumed = dir.resume()?;
        let mut notes = Vec::new();
        let mut referee = Referee {
            record: GameRecord::new(dir.last_game_id() + 1, "", robot, level),
            dir,
            game: Game::new(),
            status: Status::Idle,
            message: String::new(),
            candidates: Vec::new(),
            expected: None,
            last_reading: None,
            held_back: Vec::new(),
            level: level.to_string(),
            save_failures: 0,
            last_save_error: String::new(),
            hint: None,
        };
        match resumed {
            Resume::Game(record, game) => {
                referee.level = record.level.clone();
                referee.record = *record;
                referee.game = game;
                referee.status = referee.turn_status();
                notes.push(Announcement::new(
                    EventKind::Resumed,
                    referee.robot(),
                    format!(
                        "resumed game {} after {} plies",
                        referee.record.game_id,
                        referee.game.moves().len()
                    ),
                ));
            }
            Resume::Fresh => {}
            Resume::SetAside { why, moved_to } => {
                referee.message = format!(
                    "the saved game could not be used ({why}); it was kept as {}",
                    moved_to.display()
                );
                notes.push(Announcement::new(
                    EventKind::Info,
                    robot,
                    referee.message.clone(),
                ));
            }
        }
        Ok((referee, notes))
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn record(&self) -> &GameRecord {
        &self.record
    }

    pub fn position(&self) -> &Position {
        self.game.position()
    }

    pub fn robot(&self) -> Color {
        self.record.robot().unwrap_or(Color::Black)
    }

    pub fn level(&self) -> &str {
        &self.level
    }

    /// Remembers `mv` as the hint for the position now on the board.
    pub fn set_hint(&mut self, mv: Move) {
        self.hint = Some((self.game.moves().len(), mv));
    }

    /// The hint for the position on the board, while the human is to move.
    pub fn hint(&self) -> Option<&Move> {
        match &self.hint {
            Some((ply, mv))
                if *ply == self.game.moves().len() && self.status == Status::WaitingForHuman =>
            {
                Some(mv)
            }
            _ => None,
        }
    }

    pub fn status(&self) -> Status {
        self.status
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    pub fn candidates(&self) -> &[Move] {
        &self.candidates
    }

    pub fn set_status(&mut self, status: Status, message: impl Into<String>) {
        self.status = status;
        self.message = message.into();
    }

    pub fn is_over(&self) -> bool {
        self.game.result().is_over()
    }

    /// The robot is to move in a game in progress, with the board as it should be.
    pub fn robots_turn(&self) -> bool {
        self.status != Status::Idle
            && !self.is_over()
            && self.expected.is_none()
            && self.position().side_to_move() == self.robot()
    }

    fn turn_status(&self) -> Status {
        match self.game.result() {
            GameResult::Ongoing if self.position().side_to_move() == self.robot() => {
                Status::RobotThinking
            }
            GameResult::Ongoing => Status::WaitingForHuman,
            GameResult::Win {
                winner: Color::White,
                ..
            } => Status::WhiteWon,
            GameResult::Win { .. } => Status::BlackWon,
            GameResult::Draw(_) => Status::Draw,
        }
    }

    /// Starts a new game (the old one, if unfinished, is archived as abandoned).
    pub fn new_game(
        &mut self,
        robot: Color,
        level: Option<&str>,
        fen: &str,
    ) -> Result<Vec<Announcement>, RefereeError> {
        self.hint = None;
        let game = if fen.trim().is_empty() {
            Game::new()
        } else {
            Game::from_fen(fen.trim()).map_err(RefereeError::BadFen)?
        };
        if game.result().is_over() {
            return Err(RefereeError::AlreadyDecided);
        }
        let mut notes = Vec::new();
        if self.status != Status::Idle && !self.game.moves().is_empty() && !self.is_over() {
            notes.extend(self.archive("abandoned for a new game"));
        }
        if let Some(l) = level.filter(|l| !l.is_empty()) {
            self.level = l.to_string();
        }
        // Before the first game the record is only a placeholder: its id is not taken.
        let previous = if self.status == Status::Idle {
            0
        } else {
            self.record.game_id
        };
        let id = self.dir.last_game_id().max(previous) + 1;
        self.record = GameRecord::new(id, fen.trim(), robot, &self.level);
        self.game = game;
        self.candidates.clear();
        self.expected = None;
        self.held_back.clear();
        self.persist()?;
        self.status = self.turn_status();
        self.message = String::new();
        notes.push(Announcement::new(
            EventKind::NewGame,
            robot,
            format!(
                "game {id}: the robot plays {}, level {}",
                side_name(robot),
                self.level
            ),
        ));
        Ok(notes)
    }

    /// The human's last move and the game before it, to be judged; `None` when the last move
    /// was the robot's or ended the game.
    pub fn last_human_move(&self) -> Option<(Game, Move)> {
        let moves = self.game.moves();
        let (last, before) = moves.split_last()?;
        if self.game.result().is_over() || self.position().side_to_move() == self.robot().opponent()
        {
            return None;
        }
        let mut game = Game::from_position(*self.game.start_position());
        for mv in before {
            game.play(mv).ok()?;
        }
        Some((game, *last))
    }

    /// Takes back the last `plies` moves (0: the robot's reply and the human's move before it)
    /// while the human is to move: the record is rewound and persisted. Returns the moves taken
    /// back, oldest first.
    pub fn take_back(&mut self, plies: usize) -> Result<Vec<Move>, RefereeError> {
        if self.status != Status::WaitingForHuman {
            return Err(RefereeError::TakeBackNotNow);
        }
        let played = self.game.moves().len();
        let n = if plies == 0 { 2 } else { plies };
        if n % 2 != 0 {
            return Err(RefereeError::OddPlies(n));
        }
        if n > played {
            return Err(RefereeError::TooFewPlies(played));
        }
        let keep = played - n;
        let mut game = Game::from_position(*self.game.start_position());
        for mv in &self.game.moves()[..keep] {
            game.play(mv)?;
        }
        let undone = self.game.moves()[keep..].to_vec();
        self.game = game;
        self.record.moves.truncate(keep);
        self.record.comments.truncate(keep);
        self.hint = None;
        self.candidates.clear();
        self.status = self.turn_status();
        if let Err(e) = self.persist() {
            tracing::error!("cannot save the game: {e}");
            self.message = format!("cannot save the game: {e}");
        }
        Ok(undone)
    }

    /// Keeps a verdict on the move at `ply` as the archived PDN's comment, persisted.
    pub fn comment_move(&mut self, ply: usize, text: String) {
        if text.is_empty() {
            return;
        }
        self.record.set_comment(ply, text);
        if let Err(e) = self.persist() {
            tracing::error!("cannot save the game: {e}");
        }
    }

    fn persist(&mut self) -> Result<(), RecordError> {
        let saved = self.dir.save(&self.record);
        match &saved {
            Ok(()) => self.last_save_error.clear(),
            Err(e) => {
                self.save_failures += 1;
                self.last_save_error = e.to_string();
            }
        }
        saved
    }

    /// Saves of the game that failed so far, and why the last one did ("" when it worked).
    pub fn saving(&self) -> (u64, &str) {
        (self.save_failures, &self.last_save_error)
    }

    /// Where the game is kept.
    pub fn state_dir(&self) -> &StateDir {
        &self.dir
    }

    /// Plays a move decided by either side: persisted first, then announced.
    pub fn play(&mut self, mv: &Move) -> Result<Vec<Announcement>, RefereeError> {
        let mover = self.position().side_to_move();
        self.game.play(mv)?;
        self.record.push(mv);
        if let Err(e) = self.persist() {
            // The game goes on; the failure is loud.
            tracing::error!("cannot save the game: {e}");
            self.message = format!("cannot save the game: {e}");
        }
        let robot = mover == self.robot();
        let mut notes = vec![{
            let mut a = Announcement::new(
                if robot {
                    EventKind::RobotMoved
                } else {
                    EventKind::HumanMoved
                },
                mover,
                format!(
                    "{} played {}",
                    if robot { "the robot" } else { "the human" },
                    mv.text()
                ),
            );
            a.game_move = Some(*mv);
            a
        }];
        if mv.is_capture() {
            let mut a = Announcement::new(
                EventKind::Capture,
                mover,
                format!(
                    "{} captured {}",
                    side_name(mover),
                    mv.captured().count_ones()
                ),
            );
            a.game_move = Some(*mv);
            notes.push(a);
        }
        if mv.promotes() {
            let mut a = Announcement::new(EventKind::Promotion, mover, "a man was crowned");
            a.game_move = Some(*mv);
            notes.push(a);
        }
        self.candidates.clear();
        self.status = self.turn_status();
        self.message.clear();
        notes.extend(self.finish_if_over());
        Ok(notes)
    }

    pub fn resign(&mut self, side: Color) -> Result<Vec<Announcement>, RefereeError> {
        if self.status == Status::Idle || self.is_over() {
            return Err(RefereeError::NoGame);
        }
        self.game.resign(side);
        self.record.resign(side);
        let mut notes = vec![Announcement::new(
            EventKind::Resigned,
            side,
            format!("{} resigned", side_name(side)),
        )];
        self.status = self.turn_status();
        notes.extend(self.finish_if_over());
        Ok(notes)
    }

    fn finish_if_over(&mut self) -> Vec<Announcement> {
        let result = self.game.result();
        if !result.is_over() {
            return Vec::new();
        }
        let reason = result.to_string();
        let mut notes = self.archive(&reason);
        let side = match result {
            GameResult::Win { winner, .. } => winner,
            _ => self.position().side_to_move().opponent(),
        };
        self.message = reason.clone();
        notes.push(Announcement::new(EventKind::GameOver, side, reason));
        notes
    }

    fn archive(&mut self, termination: &str) -> Vec<Announcement> {
        match self.dir.archive(&self.record, &self.game, termination) {
            Ok(path) => {
                tracing::info!(file = %path.display(), "game archived");
                Vec::new()
            }
            Err(e) => {
                tracing::error!("cannot archive the game: {e}");
                vec![Announcement::new(
                    EventKind::Info,
                    self.robot(),
                    format!("cannot archive the game: {e}"),
                )]
            }
        }
    }

    /// A duplicated or stale reading is not judged again: the one judged last, here or before
    /// a restart (the board sensor keeps its last reading for a late subscriber), or one
    /// older than a reading this arbiter judged. Stamps are only compared within one run, so
    /// that a clock that starts again (simulated time) does not silence the board.
    pub fn is_stale(&self, id: ReadingId) -> bool {
        self.record.last_reading == Some(id)
            || self
                .last_reading
                .is_some_and(|last| id == last || id.stamp_ns < last.stamp_ns)
    }

    /// A confirmed reading of the board.
    pub fn on_reading(&mut self, occupied: u32, id: ReadingId) -> Vec<Announcement> {
        if self.is_stale(id) {
            tracing::debug!(
                seq = id.seq,
                "a reading already judged, or older than one: ignored"
            );
            return Vec::new();
        }
        self.last_reading = Some(id);
        let awaited = self.expected.is_some()
            || matches!(self.status, Status::WaitingForHuman | Status::Ambiguous);
        if !awaited {
            tracing::info!(
                status = ?self.status,
                "a reading when no human move is awaited: ignored"
            );
            return Vec::new();
        }
        self.record.last_reading = Some(id);
        let plies = self.game.moves().len();
        let notes = self.judge(occupied);
        // A move saves the record itself (and a last move archives it); any other verdict is
        // saved here, so that a restart does not give it again.
        if self.game.moves().len() == plies {
            if let Err(e) = self.persist() {
                tracing::error!("cannot save the game: {e}");
            }
        }
        notes
    }

    /// What a confirmed reading means while a human move, or a board put right, is awaited.
    fn judge(&mut self, occupied: u32) -> Vec<Announcement> {
        if let Some(expected) = self.expected {
            return self.check_restored(expected, occupied);
        }
        let human = self.position().side_to_move();
        match infer(self.position(), occupied) {
            Inference::Move(mv) => self.play(&mv).unwrap_or_else(|e| {
                vec![Announcement::new(
                    EventKind::Info,
                    human,
                    format!("cannot play: {e}"),
                )]
            }),
            Inference::NothingMoved => {
                let mut a = Announcement::new(
                    EventKind::NothingMoved,
                    human,
                    "confirm was pressed but nothing moved",
                );
                a.occupancy = occupied;
                vec![a]
            }
            Inference::Illegal {
                wrong_squares,
                nearest,
            } => {
                self.message = format!(
                    "not a legal move: check squares {}",
                    wrong_squares
                        .iter()
                        .map(u8::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                let mut a = Announcement::new(EventKind::IllegalMove, human, self.message.clone());
                a.wrong_squares = wrong_squares;
                a.candidates = nearest;
                a.occupancy = occupied;
                vec![a]
            }
            Inference::Ambiguous(candidates) => {
                self.status = Status::Ambiguous;
                self.candidates = candidates.clone();
                self.message = format!(
                    "the board fits {} moves: {}; which one?",
                    candidates.len(),
                    candidates
                        .iter()
                        .map(Move::text)
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                let mut a = Announcement::new(EventKind::Ambiguous, human, self.message.clone());
                a.candidates = candidates;
                a.occupancy = occupied;
                vec![a]
            }
            Inference::NoLegalMove => Vec::new(),
        }
    }

    /// `/game/resolve`: one of the candidates, by text or index.
    pub fn resolve(&mut self, index: usize, text: &str) -> Result<Vec<Announcement>, RefereeError> {
        if self.status != Status::Ambiguous {
            return Err(RefereeError::NothingToResolve);
        }
        let chosen = if text.trim().is_empty() {
            self.candidates
                .get(index)
                .copied()
                .ok_or(RefereeError::NoSuchCandidate {
                    index,
                    count: self.candidates.len(),
                })?
        } else {
            let wanted = self.position().parse_move(text.trim()).map_err(|source| {
                RefereeError::Unreadable {
                    text: text.to_string(),
                    source,
                }
            })?;
            *self
                .candidates
                .iter()
                .find(|c| **c == wanted)
                .ok_or_else(|| RefereeError::NotACandidate(text.to_string()))?
        };
        self.play(&chosen)
    }

    /// The robot's move was made (by the arm): the board must now show `after`. Played in the
    /// record at once: the decision is the robot's, the board only has to follow.
    pub fn robot_moved(&mut self, mv: &Move) -> Result<Vec<Announcement>, RefereeError> {
        self.play(mv)
    }

    /// Announcements to make once the board is right again (see [`Referee::board_mismatch`]).
    pub fn hold_back(&mut self, notes: Vec<Announcement>) {
        self.held_back.extend(notes);
    }

    /// After the robot's move, the scan disagrees: ask the human to put the board right.
    pub fn board_mismatch(&mut self, occupied: u32, why: &str) -> Vec<Announcement> {
        let expected = self.position().occupancy_mask();
        self.expected = Some(expected);
        let wrong = squares_of(expected ^ occupied);
        self.status = Status::BoardMismatch;
        self.message = format!(
            "{why}: please put the board right (squares {}) and press confirm",
            wrong
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        );
        let mut a = Announcement::new(EventKind::BoardMismatch, self.robot(), self.message.clone());
        a.wrong_squares = wrong;
        a.occupancy = occupied;
        vec![a]
    }

    fn check_restored(&mut self, expected: u32, occupied: u32) -> Vec<Announcement> {
        if occupied == expected {
            self.expected = None;
            self.status = self.turn_status();
            self.message.clear();
            let mut a = Announcement::new(
                EventKind::BoardRestored,
                self.robot(),
                "the board is right again",
            );
            a.occupancy = occupied;
            let mut notes = vec![a];
            notes.append(&mut self.held_back);
            notes
        } else {
            self.board_mismatch(occupied, "the board is still not right")
        }
    }

    /// The robot's search produced nothing usable (no planner, a timeout, an illegal answer):
    /// a quick move of the arbiter's own, by a shallow search of the rules engine's moves.
    pub fn fallback_move(&self) -> Option<Move> {
        let spec: search::PlannerSpec = "alphabeta:depth=4".parse().ok()?;
        let mut quick = spec.build();
        quick
            .choose(&self.game, &spec.limits(), &search::Control::default())
            .ok()
            .map(|d| d.best)
    }
}
