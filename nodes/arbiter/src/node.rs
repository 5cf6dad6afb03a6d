//! The arbiter node: the game loop of DESIGN.md over the ROS graph. Human's turn: judge each
//! confirmed reading. Robot's turn: plan (`/planner/plan`, with the level's budget) -> execute
//! (`/arm/execute`) -> verify (`/board/scan`). Services `/game/new`, `/game/resign`,
//! `/game/resolve`, `/game/hint` and `/game/takeback` are answered between turns and told
//! "busy" during the robot's. Each human move is judged (`search::coach`) before the robot's
//! turn.
//!
//! Parameters: `state_dir`, `robot_color` (white|black), `level`, `time_budget_s`,
//! `planner_margin_s`, `planner_timeout_s` (when the budget is 0), `arm_timeout_s`,
//! `scan_timeout_s`, `verify` (bool), `start_new_game` (bool: start one at launch when none is
//! in progress), `hints` (bool: `/game/hint` answers), `hint_algorithm` and `hint_time_s` (the
//! planner and the time a hint is searched with), `verdicts` (bool: judge each human move and
//! say so, a `VERDICT` event and a comment in the archived PDN), `coach_depth` (the depth each
//! move is judged to), `takebacks` (bool: `/game/takeback` answers).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use checkers_msgs::action::{ExecuteMove, ExecuteMove_Goal, PlanMove, PlanMove_Goal};
use checkers_msgs::convert::{move_msg, position_msg, side_code};
use checkers_msgs::msg::{BoardOccupancy, GameEvent, GameState};
use checkers_msgs::srv::{
    Hint_Request, Hint_Response, NewGame_Request, Resign_Request, ScanBoard, ScanBoard_Request,
    TakeBack_Request,
};
use checkers_msgs::visualization_msgs::msg::MarkerArray;
use draughts::{Color, Move};
use futures::StreamExt;
pub use ros::NodeError;
use ros::{ActionClient, GoalOutcome, Node, Publisher, Qos, ServiceClient};

pub use crate::error::ArbiterError;
use crate::health::GameHealth;
use crate::markers::board_markers;
use crate::record::StateDir;
use crate::referee::{Announcement, EventKind, Referee, Status};
use crate::services::{Done, GameRequest, Services};
pub use crate::settings::Settings;

struct Outputs {
    state: Publisher<GameState>,
    events: Publisher<GameEvent>,
    markers: Publisher<MarkerArray>,
}

struct Helpers {
    planner: ActionClient<PlanMove>,
    arm: ActionClient<ExecuteMove>,
    scan: ServiceClient<ScanBoard>,
}

/// What the planner was doing, for `/game/state` while it searches.
#[derive(Debug, Default, Clone)]
struct Search {
    depth: u32,
    nodes: u64,
    best: String,
    elapsed: f32,
}

fn state_msg(r: &Referee, search: &Search, node: &Node) -> GameState {
    let game = r.game();
    let result = game.result();
    let mut msg = GameState {
        game_id: r.record().game_id,
        position: position_msg(r.position()),
        status: r.status().code(),
        robot_color: side_code(r.robot()),
        level: r.level().to_string(),
        ply: game.moves().len() as u32,
        last_move: game.moves().last().map(move_msg).unwrap_or_default(),
        legal_moves: if r.status() == Status::Idle {
            Vec::new()
        } else {
            game.legal_moves().iter().map(move_msg).collect()
        },
        candidates: r.candidates().iter().map(move_msg).collect(),
        result: result.pdn_tag().to_string(),
        result_reason: if result.is_over() {
            result.to_string()
        } else {
            String::new()
        },
        search_depth: search.depth,
        search_nodes: search.nodes,
        best_move_text: search.best.clone(),
        search_elapsed_s: search.elapsed,
        message: r.message().to_string(),
        ..GameState::default()
    };
    msg.header.stamp = node.now();
    msg.header.frame_id = "board".into();
    msg
}

fn event_msg(a: &Announcement, ply: u32, node: &Node) -> GameEvent {
    let mut msg = GameEvent {
        kind: a.kind.code(),
        side: side_code(a.side),
        ply,
        game_move: a.game_move.as_ref().map(move_msg).unwrap_or_default(),
        candidates: a.candidates.iter().map(move_msg).collect(),
        wrong_squares: a.wrong_squares.clone(),
        occupancy: a.occupancy,
        text: a.text.clone(),
        ..GameEvent::default()
    };
    if let Some((verdict, better, loss)) = &a.verdict {
        msg.verdict = *verdict;
        msg.better_move = better.as_ref().map(move_msg).unwrap_or_default();
        msg.loss = *loss;
    }
    msg.header.stamp = node.now();
    msg
}

pub async fn run(mut node: Node) -> Result<(), NodeError> {
    let settings = Settings::declare(&mut node)?;
    for name in node.params().unused_overrides() {
        tracing::warn!(
            parameter = name,
            "no such parameter of the arbiter; ignored"
        );
    }
    let out = Outputs {
        state: node.publisher("/game/state", Qos::State)?,
        events: node.publisher("/game/events", Qos::Events)?,
        markers: node.publisher("/board/markers", Qos::State)?,
    };
    let helpers = Helpers {
        planner: node.action_client("/planner/plan")?,
        arm: node.action_client("/arm/execute")?,
        scan: node.service_client("/board/scan")?,
    };
    let services = Services {
        new: node.service_server("/game/new")?,
        resign: node.service_server("/game/resign")?,
        resolve: node.service_server("/game/resolve")?,
        hint: node.service_server("/game/hint")?,
        takeback: node.service_server("/game/takeback")?,
    };
    let occupancy = node.subscription::<BoardOccupancy>("/board/occupancy", Qos::Events)?;
    let mut readings = occupancy.stream();

    let health = Arc::new(Mutex::new(GameHealth::default()));
    let seen = Arc::clone(&health);
    ros::diagnostics::publish_periodically(&mut node, move || {
        vec![crate::health::report(
            &seen.lock().unwrap_or_else(|p| p.into_inner()),
        )]
    });
    let dir = StateDir::open(&settings.state_dir).map_err(NodeError::setup)?;
    let (referee, notes) =
        Referee::open(dir, settings.robot_color, &settings.level).map_err(NodeError::setup)?;
    let mut arbiter = Arbiter {
        node,
        settings,
        out,
        helpers,
        referee,
        search: Search::default(),
        health,
    };
    let mut notes = notes;
    if arbiter.referee.status() == Status::Idle && arbiter.settings.start_new_game {
        let robot = arbiter.settings.robot_color;
        match arbiter
            .referee
            .new_game(robot, Some(&arbiter.settings.level), "")
        {
            Ok(n) => notes.extend(n),
            Err(e) => tracing::error!("cannot start a game: {e}"),
        }
    }
    arbiter.announce(notes).await;
    tracing::info!(state_dir = %arbiter.settings.state_dir, "arbiter running");

    loop {
        let notes = if arbiter.referee.robots_turn() {
            let notes = tokio::select! {
                notes = arbiter.robot_turn() => notes,
                _ = services.stay_busy(&mut readings) => Vec::new(),
            };
            arbiter.search = Search::default();
            notes
        } else {
            let mut notes = tokio::select! {
                request = services.next() => arbiter.on_request(&services, request).await,
                Some(reading) = readings.next() => arbiter.on_reading(&reading),
            };
            if arbiter.settings.verdicts && notes.iter().any(|n| n.kind == EventKind::HumanMoved) {
                notes.extend(arbiter.verdict().await);
            }
            notes
        };
        arbiter.announce(notes).await;
    }
}

/// The game loop's state: the referee and what the arbiter talks to. Each step is a method;
/// the services and the board's readings stay outside, so that they can be answered "busy"
/// while the robot's turn holds this.
struct Arbiter {
    node: Node,
    settings: Settings,
    out: Outputs,
    helpers: Helpers,
    referee: Referee,
    search: Search,
    /// What `/diagnostics` says of the game, kept with each state published.
    health: Arc<Mutex<GameHealth>>,
}

impl Arbiter {
    async fn publish_state(&self) {
        let msg = state_msg(&self.referee, &self.search, &self.node);
        {
            let (save_failures, last_save_error) = self.referee.saving();
            let mut h = self.health.lock().unwrap_or_else(|p| p.into_inner());
            *h = GameHealth {
                game_id: msg.game_id,
                ply: msg.ply,
                status: checkers_msgs::names::status_name(msg.status).to_string(),
                needs_person: matches!(
                    self.referee.status(),
                    Status::Error | Status::BoardMismatch
                ),
                level: msg.level.clone(),
                message: msg.message.clone(),
                state_dir: self.referee.state_dir().path().display().to_string(),
                save_failures,
                last_save_error: last_save_error.to_string(),
            };
        }
        if let Err(e) = self.out.state.publish(msg).await {
            tracing::warn!("{e}");
        }
    }

    async fn announce(&self, notes: Vec<Announcement>) {
        // State first: a listener reacting to an event finds the state that goes with it.
        self.publish_state().await;
        let ply = self.referee.game().moves().len() as u32;
        for a in &notes {
            tracing::info!(kind = ?a.kind, "{}", a.text);
            if let Err(e) = self.out.events.publish(event_msg(a, ply, &self.node)).await {
                tracing::warn!("{e}");
            }
        }
        let markers = board_markers(&self.referee, self.node.now());
        if let Err(e) = self.out.markers.publish(markers).await {
            tracing::warn!("{e}");
        }
    }

    fn on_reading(&mut self, reading: &BoardOccupancy) -> Vec<Announcement> {
        if !reading.confirmed {
            return Vec::new();
        }
        let stamp = ros::clock::seconds(&reading.header.stamp);
        self.referee
            .on_reading(reading.occupied, reading.seq, stamp)
    }

    /// Answers one `/game/*` request between turns.
    async fn on_request(&mut self, services: &Services, request: GameRequest) -> Vec<Announcement> {
        let outcome = match &request {
            GameRequest::New(_, r) => self.new_game(r).map(done),
            GameRequest::Resign(_, r) => {
                let side = if r.side == Resign_Request::SIDE_WHITE {
                    Color::White
                } else {
                    Color::Black
                };
                self.referee
                    .resign(side)
                    .map(|notes| (Done::Text("resigned".into()), notes))
                    .map_err(ArbiterError::from)
            }
            GameRequest::Resolve(_, r) => self
                .referee
                .resolve(usize::from(r.index), &r.move_text)
                .map(|notes| (Done::Text("played".into()), notes))
                .map_err(ArbiterError::from),
            GameRequest::Hint(_, r) => self
                .give_hint(r)
                .await
                .map(|(response, note)| (Done::Hint(response), vec![note])),
            GameRequest::TakeBack(_, r) => self.take_back(r).await.map(done),
        };
        match outcome {
            Ok((answer, notes)) => {
                services.answer(request, Ok(answer)).await;
                notes
            }
            Err(why) => {
                services.answer(request, Err(why.into())).await;
                Vec::new()
            }
        }
    }

    fn new_game(
        &mut self,
        r: &NewGame_Request,
    ) -> Result<(String, Vec<Announcement>), ArbiterError> {
        let robot = match r.robot_color {
            NewGame_Request::SIDE_WHITE => Color::White,
            NewGame_Request::SIDE_BLACK => Color::Black,
            NewGame_Request::SIDE_RANDOM => random_color(),
            other => return Err(ArbiterError::NoSuchSide(other)),
        };
        let notes = self.referee.new_game(robot, Some(&r.level), &r.fen)?;
        let message = format!("game {} started", self.referee.record().game_id);
        Ok((message, notes))
    }

    /// The coach's judgement of the human's last move, kept as the move's PDN comment.
    async fn verdict(&mut self) -> Option<Announcement> {
        use search::coach::{comment, judge, Thresholds, Verdict};
        let (before, played) = self.referee.last_human_move()?;
        let ply = before.moves().len();
        let depth = self.settings.coach_depth;
        // A search of every legal move: off the async threads.
        let judged = tokio::task::spawn_blocking(move || {
            judge(&before, &played, depth, &Thresholds::default())
        })
        .await;
        let j = match judged {
            Ok(Ok(j)) => j,
            Ok(Err(e)) => {
                tracing::warn!("the move could not be judged: {e}");
                return None;
            }
            Err(e) => {
                tracing::warn!("the move could not be judged: {e}");
                return None;
            }
        };
        self.referee.comment_move(ply, comment(&j));
        let code = match j.verdict {
            Verdict::Brilliant => GameEvent::VERDICT_BRILLIANT,
            Verdict::Best => GameEvent::VERDICT_BEST,
            Verdict::Good => GameEvent::VERDICT_GOOD,
            Verdict::Inaccuracy => GameEvent::VERDICT_INACCURACY,
            Verdict::Mistake => GameEvent::VERDICT_MISTAKE,
            Verdict::Blunder => GameEvent::VERDICT_BLUNDER,
        };
        let better = (j.best != j.played).then_some(j.best);
        let text = match better {
            Some(b) => format!(
                "{} was {} (better {})",
                j.played.text(),
                j.verdict,
                b.text()
            ),
            None => format!("{} was {}", j.played.text(), j.verdict),
        };
        let human = self.referee.robot().opponent();
        let mut note = Announcement::new(EventKind::Verdict, human, text);
        note.game_move = Some(j.played);
        note.verdict = Some((code, better, j.loss as f32));
        Some(note)
    }

    /// Plan, execute, verify. Whatever fails, the move is in the record and the announcements
    /// say what the person must do.
    async fn robot_turn(&mut self) -> Vec<Announcement> {
        let mut notes = Vec::new();
        self.referee.set_status(Status::RobotThinking, "");
        self.announce(Vec::new()).await;
        let mv = match self.plan().await {
            Ok(mv) => mv,
            Err(why) => {
                notes.push(Announcement::new(
                    EventKind::PlannerTimeout,
                    self.referee.robot(),
                    format!("{why}; the arbiter plays a quick move of its own"),
                ));
                match self.referee.fallback_move() {
                    Some(mv) => mv,
                    None => {
                        self.referee.set_status(Status::Error, "no move to play");
                        return notes;
                    }
                }
            }
        };
        self.referee
            .set_status(Status::RobotMoving, format!("moving {}", mv.text()));
        self.announce(Vec::new()).await;
        let executed = self.execute(move_msg(&mv)).await;
        // The move stands in the record whatever the arm did; its announcements wait until the
        // board shows it.
        let moved = match self.referee.robot_moved(&mv) {
            Ok(n) => n,
            Err(e) => {
                self.referee.set_status(Status::Error, e.to_string());
                return notes;
            }
        };
        if let Err(why) = executed {
            notes.push(Announcement::new(
                EventKind::ArmFailed,
                self.referee.robot(),
                why.to_string(),
            ));
            let seen = self.scan().await.unwrap_or(0);
            let why = format!("the arm could not make {}", mv.text());
            notes.extend(self.referee.board_mismatch(seen, &why));
            self.referee.hold_back(moved);
            return notes;
        }
        if self.settings.verify && !self.referee.is_over() {
            let before = self.referee.status();
            self.referee
                .set_status(Status::Verifying, "checking the board");
            self.announce(Vec::new()).await;
            match self.scan().await {
                Ok(seen) if seen == self.referee.position().occupancy_mask() => {
                    self.referee.set_status(before, "");
                }
                Ok(seen) => {
                    notes.push(Announcement::new(
                        EventKind::ArmFailed,
                        self.referee.robot(),
                        format!("after {} the board is not as it should be", mv.text()),
                    ));
                    let why = "the board does not match the robot's move";
                    notes.extend(self.referee.board_mismatch(seen, why));
                    self.referee.hold_back(moved);
                    return notes;
                }
                Err(why) => {
                    tracing::warn!("the board could not be checked: {why}");
                    self.referee
                        .set_status(before, format!("the board was not checked: {why}"));
                }
            }
        }
        notes.extend(moved);
        notes
    }

    /// Asks the planner; `Err` says why its answer cannot be used.
    async fn plan(&mut self) -> Result<Move, ArbiterError> {
        let goal = self.plan_goal(self.settings.time_budget_s, String::new());
        let wait = if self.settings.time_budget_s > 0.0 {
            self.settings.time_budget_s + self.settings.planner_margin_s
        } else {
            self.settings.planner_timeout_s
        };
        let deadline = tokio::time::Instant::now() + Duration::from_secs_f64(wait);
        let goal = self
            .helpers
            .planner
            .send_goal(goal, Duration::from_secs_f64(wait.min(5.0)))
            .await
            .map_err(ArbiterError::PlannerRefused)?;
        let mut feedback = std::pin::pin!(goal.feedback());
        let result = goal.result(Duration::from_secs_f64(wait));
        tokio::pin!(result);
        let answer = loop {
            tokio::select! {
                r = &mut result => break r,
                Some(f) = feedback.next() => {
                    self.search = Search { depth: f.depth, nodes: f.nodes, best: f.best_move_text, elapsed: f.elapsed_s };
                    self.publish_state().await;
                }
                _ = tokio::time::sleep_until(deadline) => {
                    let _ = goal.cancel(Duration::from_millis(500)).await;
                    return Err(ArbiterError::PlannerLate(wait));
                }
            }
        };
        match answer {
            Ok((GoalOutcome::Succeeded, r)) => {
                checkers_msgs::convert::find_move(self.referee.position(), &r.best_move)
                    .map_err(ArbiterError::PlannerMove)
            }
            Ok((outcome, r)) => Err(ArbiterError::PlannerEnded {
                outcome,
                message: r.message,
            }),
            Err(e) => Err(ArbiterError::Planner(e)),
        }
    }

    /// The planner's goal for the position on the board: `algorithm` "" is the node's own.
    fn plan_goal(&self, budget_s: f64, algorithm: String) -> PlanMove_Goal {
        PlanMove_Goal {
            position: position_msg(self.referee.position()),
            start_fen: self.referee.record().start_fen.clone(),
            history: self.referee.game().moves().iter().map(Move::text).collect(),
            time_budget_s: budget_s as f32,
            algorithm,
        }
    }

    /// The planner's move for the human (`/game/hint`), remembered for the markers and
    /// announced.
    async fn give_hint(
        &mut self,
        req: &Hint_Request,
    ) -> Result<(Hint_Response, Announcement), ArbiterError> {
        if !self.settings.hints {
            return Err(ArbiterError::HintsOff);
        }
        if self.referee.status() != Status::WaitingForHuman {
            return Err(ArbiterError::HintNotNow);
        }
        let budget = if req.time_budget_s.is_finite() && req.time_budget_s > 0.0 {
            f64::from(req.time_budget_s).min(30.0)
        } else {
            self.settings.hint_time_s
        };
        let goal = self.plan_goal(budget, self.settings.hint_algorithm.clone());
        let wait = Duration::from_secs_f64(budget + self.settings.planner_margin_s);
        let goal = self
            .helpers
            .planner
            .send_goal(goal, Duration::from_secs(5))
            .await
            .map_err(ArbiterError::HintRefused)?;
        let r = match goal.result(wait).await {
            Ok((GoalOutcome::Succeeded, r)) => r,
            Ok((outcome, r)) => {
                return Err(ArbiterError::HintEnded {
                    outcome,
                    message: r.message,
                })
            }
            Err(e) => {
                let _ = goal.cancel(Duration::from_millis(500)).await;
                return Err(ArbiterError::HintFailed(e));
            }
        };
        let mv = checkers_msgs::convert::find_move(self.referee.position(), &r.best_move)
            .map_err(ArbiterError::HintMove)?;
        self.referee.set_hint(mv);
        let human = self.referee.robot().opponent();
        let text = format!("hint: {}", mv.text());
        let mut note = Announcement::new(EventKind::Hint, human, text.clone());
        note.game_move = Some(mv);
        let response = Hint_Response {
            success: true,
            message: text,
            best_move: move_msg(&mv),
            win_probability: r.win_probability,
        };
        Ok((response, note))
    }

    /// `/game/takeback`: the record rewound, the robot's last piece carried back by the arm,
    /// then the board checked; what the arm cannot restore the human is asked to put right.
    async fn take_back(
        &mut self,
        req: &TakeBack_Request,
    ) -> Result<(String, Vec<Announcement>), ArbiterError> {
        if !self.settings.takebacks {
            return Err(ArbiterError::TakeBacksOff);
        }
        let undone = self.referee.take_back(usize::from(req.plies))?;
        let texts: Vec<String> = undone.iter().map(Move::text).collect();
        let human = self.referee.robot().opponent();
        // An even number of plies back to the human's turn: the last one taken back is the
        // robot's.
        let robot_last = undone.last().copied();
        let mut notes = Vec::new();
        let mut arm_failed = None;
        if let Some(mv) = robot_last {
            // Leg by leg along its landings, backwards: each leg is a quiet move to the arm.
            let mut squares: Vec<_> = std::iter::once(mv.from())
                .chain(mv.landings().iter().copied())
                .collect();
            squares.reverse();
            for leg in squares.windows(2) {
                if let Err(e) = self.execute(quiet_move(leg[0], leg[1])).await {
                    arm_failed = Some(e);
                    break;
                }
            }
        }
        let mut text = format!("took back {}", texts.join(" "));
        let seen = self.scan().await.unwrap_or(0);
        let expected = self.referee.position().occupancy_mask();
        if seen != expected || arm_failed.is_some() {
            let put = squares_named(expected & !seen);
            let clear = squares_named(seen & !expected);
            let mut asks = Vec::new();
            if !put.is_empty() {
                asks.push(format!("put a piece back on {put}"));
            }
            if !clear.is_empty() {
                asks.push(format!("take the piece off {clear}"));
            }
            let crowned: Vec<String> = undone
                .iter()
                .filter(|m| m.promotes())
                .map(|m| m.from().to_string())
                .collect();
            if !crowned.is_empty() {
                asks.push(format!(
                    "the piece on {} is a man again",
                    crowned.join(", ")
                ));
            }
            if let Some(e) = &arm_failed {
                asks.push(format!("the arm could not move its piece back ({e})"));
            }
            text = format!("{text}: please {}, and press confirm", asks.join("; "));
            notes.push(Announcement::new(EventKind::TakeBack, human, text.clone()));
            notes.extend(self.referee.board_mismatch(seen, "after the take-back"));
        } else {
            notes.push(Announcement::new(EventKind::TakeBack, human, text.clone()));
        }
        Ok((text, notes))
    }

    async fn execute(&self, game_move: checkers_msgs::msg::Move) -> Result<(), ArbiterError> {
        let timeout = Duration::from_secs_f64(self.settings.arm_timeout_s);
        let goal = self
            .helpers
            .arm
            .send_goal(ExecuteMove_Goal { game_move }, Duration::from_secs(5))
            .await
            .map_err(ArbiterError::ArmRefused)?;
        match goal.result(timeout).await {
            Ok((GoalOutcome::Succeeded, r)) if r.success => Ok(()),
            Ok((_, r)) => Err(ArbiterError::ArmFailed(r.message)),
            Err(e) => {
                let _ = goal.cancel(Duration::from_secs(1)).await;
                Err(ArbiterError::Arm(e))
            }
        }
    }

    async fn scan(&self) -> Result<u32, ArbiterError> {
        let per_try = Duration::from_secs_f64(self.settings.scan_timeout_s);
        let reply = self
            .helpers
            .scan
            .call_retrying(ScanBoard_Request { reads: 0 }, per_try, 3)
            .await
            .map_err(ArbiterError::Scan)?;
        if reply.success {
            Ok(reply.occupancy.occupied)
        } else {
            Err(ArbiterError::ScanFailed(reply.message))
        }
    }
}

/// A text answer and its announcements, as the services give them.
fn done((message, notes): (String, Vec<Announcement>)) -> (Done, Vec<Announcement>) {
    (Done::Text(message), notes)
}

fn random_color() -> Color {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    if nanos.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    }
}

/// The arm's move carrying the piece on `from` to `to` (a quiet move along one diagonal).
fn quiet_move(from: draughts::Square, to: draughts::Square) -> checkers_msgs::msg::Move {
    checkers_msgs::msg::Move {
        from_square: from.number(),
        to_square: to.number(),
        path: vec![to.number()],
        captured: Vec::new(),
        promotes: false,
        text: format!("{from}-{to}"),
    }
}

/// Squares of an occupancy mask (bit n-1 = square n), named: "c3, e5".
fn squares_named(mask: u32) -> String {
    (1..=32u8)
        .filter(|n| mask & (1u32 << (n - 1)) != 0)
        .filter_map(draughts::Square::from_number)
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
