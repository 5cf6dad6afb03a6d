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

use std::time::Duration;

use checkers_msgs::action::{ExecuteMove, ExecuteMove_Goal, PlanMove, PlanMove_Goal};
use checkers_msgs::convert::{move_msg, position_msg, side_code};
use checkers_msgs::msg::{BoardOccupancy, GameEvent, GameState};
use checkers_msgs::srv::{
    Hint, Hint_Request, Hint_Response, NewGame, NewGame_Request, NewGame_Response, Resign,
    Resign_Request, Resign_Response, ResolveAmbiguity, ResolveAmbiguity_Response, TakeBack,
    TakeBack_Request, TakeBack_Response,
};
use checkers_msgs::visualization_msgs::msg::MarkerArray;
use draughts::{Color, Move};
use futures::{Stream, StreamExt};
pub use ros::NodeError;
use ros::{ActionClient, GoalOutcome, Node, Publisher, Qos, ServiceClient, ServiceServer};

use crate::markers::board_markers;
use crate::record::StateDir;
use crate::referee::{kind, status, Announcement, Referee};

#[derive(Debug, Clone)]
pub struct Settings {
    pub state_dir: String,
    pub robot_color: Color,
    pub level: String,
    pub time_budget_s: f64,
    pub planner_margin_s: f64,
    pub planner_timeout_s: f64,
    pub arm_timeout_s: f64,
    pub scan_timeout_s: f64,
    pub verify: bool,
    pub start_new_game: bool,
    pub hints: bool,
    pub hint_algorithm: String,
    pub hint_time_s: f64,
    pub verdicts: bool,
    pub coach_depth: u32,
    pub takebacks: bool,
}

fn parse_color(name: &'static str, text: &str) -> Result<Color, NodeError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        other => Err(NodeError::Param {
            name,
            why: format!("{other:?} is neither white nor black"),
        }),
    }
}

impl Settings {
    pub fn declare(node: &mut Node) -> Result<Settings, NodeError> {
        let mut p = node.params();
        let default_dir = std::env::var("HOME")
            .map(|h| format!("{h}/.local/state/checkers_robot"))
            .unwrap_or_else(|_| "checkers_robot_state".into());
        let color = p.declare("robot_color", "black".to_string())?;
        Ok(Settings {
            state_dir: p.declare("state_dir", default_dir)?,
            robot_color: parse_color("robot_color", &color)?,
            level: p.declare("level", "medium".to_string())?,
            time_budget_s: p.declare("time_budget_s", 1.0f64)?.max(0.0),
            planner_margin_s: p.declare("planner_margin_s", 1.0f64)?.max(0.05),
            planner_timeout_s: p.declare("planner_timeout_s", 20.0f64)?.max(0.1),
            arm_timeout_s: p.declare("arm_timeout_s", 120.0f64)?.max(0.1),
            scan_timeout_s: p.declare("scan_timeout_s", 3.0f64)?.max(0.1),
            verify: p.declare("verify", true)?,
            start_new_game: p.declare("start_new_game", true)?,
            hints: p.declare("hints", true)?,
            hint_algorithm: p.declare("hint_algorithm", "alphabeta".to_string())?,
            hint_time_s: p.declare("hint_time_s", 1.0f64)?.clamp(0.05, 30.0),
            verdicts: p.declare("verdicts", true)?,
            coach_depth: u32::try_from(p.declare("coach_depth", 6i64)?.clamp(1, 12)).unwrap_or(6),
            takebacks: p.declare("takebacks", true)?,
        })
    }
}

struct Outputs {
    state: Publisher<GameState>,
    events: Publisher<GameEvent>,
    markers: Publisher<MarkerArray>,
}

struct Helpers {
    planner: ActionClient<PlanMove>,
    arm: ActionClient<ExecuteMove>,
    scan: ServiceClient<checkers_msgs::srv::ScanBoard>,
}

struct Services {
    new: ServiceServer<NewGame>,
    resign: ServiceServer<Resign>,
    resolve: ServiceServer<ResolveAmbiguity>,
    hint: ServiceServer<Hint>,
    takeback: ServiceServer<TakeBack>,
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
        status: r.status(),
        robot_color: side_code(r.robot()),
        level: r.level().to_string(),
        ply: game.moves().len() as u32,
        last_move: game.moves().last().map(move_msg).unwrap_or_default(),
        legal_moves: if r.status() == status::IDLE {
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
        kind: a.kind,
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

async fn announce(
    out: &Outputs,
    node: &Node,
    r: &Referee,
    search: &Search,
    notes: Vec<Announcement>,
) {
    // State first: a listener reacting to an event finds the state that goes with it.
    if let Err(e) = out.state.publish(state_msg(r, search, node)).await {
        tracing::warn!("{e}");
    }
    let ply = r.game().moves().len() as u32;
    for a in &notes {
        tracing::info!(kind = a.kind, "{}", a.text);
        if let Err(e) = out.events.publish(event_msg(a, ply, node)).await {
            tracing::warn!("{e}");
        }
    }
    if let Err(e) = out.markers.publish(board_markers(r, node.now())).await {
        tracing::warn!("{e}");
    }
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

    let dir = StateDir::open(&settings.state_dir).map_err(NodeError::setup)?;
    let (mut referee, notes) =
        Referee::open(dir, settings.robot_color, &settings.level).map_err(NodeError::setup)?;
    let mut notes = notes;
    if referee.status() == status::IDLE && settings.start_new_game {
        match referee.new_game(settings.robot_color, Some(&settings.level), "") {
            Ok(n) => notes.extend(n),
            Err(e) => tracing::error!("cannot start a game: {e}"),
        }
    }
    let mut search = Search::default();
    announce(&out, &node, &referee, &search, notes).await;
    tracing::info!(state_dir = %settings.state_dir, "arbiter running");

    loop {
        if referee.robots_turn() {
            let notes = robot_turn(
                &node,
                &settings,
                &mut referee,
                &mut search,
                &out,
                &helpers,
                &services,
                &mut readings,
            )
            .await;
            search = Search::default();
            announce(&out, &node, &referee, &search, notes).await;
            continue;
        }
        let notes = tokio::select! {
            (id, req) = services.new.next_request() => {
                let robot = match req.robot_color {
                    NewGame_Request::SIDE_WHITE => Some(Color::White),
                    NewGame_Request::SIDE_BLACK => Some(Color::Black),
                    NewGame_Request::SIDE_RANDOM => Some(random_color()),
                    _ => None,
                };
                let (response, notes) = match robot {
                    None => (NewGame_Response { success: false, message: format!("robot_color {} is not a side", req.robot_color) }, Vec::new()),
                    Some(robot) => match referee.new_game(robot, Some(&req.level), &req.fen) {
                        Ok(notes) => (NewGame_Response { success: true, message: format!("game {} started", referee.record().game_id) }, notes),
                        Err(e) => (NewGame_Response { success: false, message: e }, Vec::new()),
                    },
                };
                respond(&services.new, id, response).await;
                notes
            }
            (id, req) = services.resign.next_request() => {
                let side = if req.side == Resign_Request::SIDE_WHITE { Color::White } else { Color::Black };
                let (response, notes) = match referee.resign(side) {
                    Ok(notes) => (Resign_Response { success: true, message: "resigned".into() }, notes),
                    Err(e) => (Resign_Response { success: false, message: e }, Vec::new()),
                };
                respond(&services.resign, id, response).await;
                notes
            }
            (id, req) = services.resolve.next_request() => {
                let (response, notes) = match referee.resolve(usize::from(req.index), &req.move_text) {
                    Ok(notes) => (ResolveAmbiguity_Response { success: true, message: "played".into() }, notes),
                    Err(e) => (ResolveAmbiguity_Response { success: false, message: e }, Vec::new()),
                };
                respond(&services.resolve, id, response).await;
                notes
            }
            (id, req) = services.hint.next_request() => {
                let (response, notes) = match give_hint(&settings, &mut referee, &helpers, &req).await {
                    Ok((response, note)) => (response, vec![note]),
                    Err(why) => (Hint_Response { success: false, message: why, ..Hint_Response::default() }, Vec::new()),
                };
                respond(&services.hint, id, response).await;
                notes
            }
            (id, req) = services.takeback.next_request() => {
                let (response, notes) = match take_back(&settings, &mut referee, &helpers, &req).await {
                    Ok((message, notes)) => (TakeBack_Response { success: true, message }, notes),
                    Err(why) => (TakeBack_Response { success: false, message: why }, Vec::new()),
                };
                respond(&services.takeback, id, response).await;
                notes
            }
            Some(reading) = readings.next() => {
                if reading.confirmed {
                    referee.on_reading(reading.occupied, reading.seq, ros::clock::seconds(&reading.header.stamp))
                } else {
                    Vec::new()
                }
            }
        };
        let mut notes = notes;
        if settings.verdicts && notes.iter().any(|n| n.kind == kind::HUMAN_MOVED) {
            notes.extend(verdict(&settings, &mut referee).await);
        }
        announce(&out, &node, &referee, &search, notes).await;
    }
}

/// The coach's judgement of the human's last move, kept as the move's PDN comment.
async fn verdict(settings: &Settings, referee: &mut Referee) -> Option<Announcement> {
    use search::coach::{comment, judge, Thresholds, Verdict};
    let (before, played) = referee.last_human_move()?;
    let ply = before.moves().len();
    let depth = settings.coach_depth;
    // A search of every legal move: off the async threads.
    let judged =
        tokio::task::spawn_blocking(move || judge(&before, &played, depth, &Thresholds::default()))
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
    referee.comment_move(ply, comment(&j));
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
    let mut note = Announcement::new(kind::VERDICT, referee.robot().opponent(), text);
    note.game_move = Some(j.played);
    note.verdict = Some((code, better, j.loss as f32));
    Some(note)
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

async fn respond<S: ros::Service>(
    server: &ServiceServer<S>,
    id: ros::RequestId,
    response: S::Response,
) {
    if let Err(e) = server.respond(id, response).await {
        tracing::warn!("{e}");
    }
}

/// During the robot's turn the services answer "busy" and readings are set aside: nothing the
/// human does with the board counts until the robot has finished.
async fn stay_busy(
    services: &Services,
    readings: &mut (impl Stream<Item = BoardOccupancy> + Unpin),
) {
    const BUSY: &str = "busy: the robot is taking its turn; try again after its move";
    loop {
        tokio::select! {
            (id, _) = services.new.next_request() => respond(&services.new, id, NewGame_Response { success: false, message: BUSY.into() }).await,
            (id, _) = services.resign.next_request() => respond(&services.resign, id, Resign_Response { success: false, message: BUSY.into() }).await,
            (id, _) = services.resolve.next_request() => respond(&services.resolve, id, ResolveAmbiguity_Response { success: false, message: BUSY.into() }).await,
            (id, _) = services.hint.next_request() => respond(&services.hint, id, Hint_Response { success: false, message: BUSY.into(), ..Hint_Response::default() }).await,
            (id, _) = services.takeback.next_request() => respond(&services.takeback, id, TakeBack_Response { success: false, message: BUSY.into() }).await,
            Some(r) = readings.next() => tracing::info!(seq = r.seq, "a reading during the robot's turn: ignored"),
        }
    }
}

#[allow(clippy::too_many_arguments)]
async fn robot_turn(
    node: &Node,
    settings: &Settings,
    referee: &mut Referee,
    search: &mut Search,
    out: &Outputs,
    helpers: &Helpers,
    services: &Services,
    readings: &mut (impl Stream<Item = BoardOccupancy> + Unpin),
) -> Vec<Announcement> {
    let work = async {
        let mut notes = Vec::new();
        referee.set_status(status::ROBOT_THINKING, "");
        announce(out, node, referee, search, Vec::new()).await;
        let planned = plan(node, settings, referee, search, out, helpers).await;
        let mv = match planned {
            Ok(mv) => mv,
            Err(why) => {
                let quick = referee.fallback_move();
                notes.push(Announcement::new(
                    kind::PLANNER_TIMEOUT,
                    referee.robot(),
                    format!("{why}; the arbiter plays a quick move of its own"),
                ));
                match quick {
                    Some(mv) => mv,
                    None => {
                        referee.set_status(status::ERROR, "no move to play");
                        return notes;
                    }
                }
            }
        };
        referee.set_status(status::ROBOT_MOVING, format!("moving {}", mv.text()));
        announce(out, node, referee, search, Vec::new()).await;
        let executed = execute(settings, helpers, &mv).await;
        // The move stands in the record whatever the arm did; its announcements wait until the
        // board shows it.
        let moved = match referee.robot_moved(&mv) {
            Ok(n) => n,
            Err(e) => {
                referee.set_status(status::ERROR, e);
                return notes;
            }
        };
        if let Err(why) = executed {
            notes.push(Announcement::new(
                kind::ARM_FAILED,
                referee.robot(),
                why.clone(),
            ));
            notes.extend(referee.board_mismatch(
                scan(settings, helpers).await.unwrap_or(0),
                &format!("the arm could not make {}", mv.text()),
            ));
            referee.hold_back(moved);
            return notes;
        }
        if settings.verify && !referee.is_over() {
            let before = referee.status();
            referee.set_status(status::VERIFYING, "checking the board");
            announce(out, node, referee, search, Vec::new()).await;
            match scan(settings, helpers).await {
                Ok(seen) if seen == referee.position().occupancy_mask() => {
                    referee.set_status(before, "");
                }
                Ok(seen) => {
                    notes.push(Announcement::new(
                        kind::ARM_FAILED,
                        referee.robot(),
                        format!("after {} the board is not as it should be", mv.text()),
                    ));
                    notes.extend(
                        referee.board_mismatch(seen, "the board does not match the robot's move"),
                    );
                    referee.hold_back(moved);
                    return notes;
                }
                Err(why) => {
                    tracing::warn!("the board could not be checked: {why}");
                    referee.set_status(before, format!("the board was not checked: {why}"));
                }
            }
        }
        notes.extend(moved);
        notes
    };
    tokio::select! {
        notes = work => notes,
        _ = stay_busy(services, readings) => Vec::new(),
    }
}

/// Asks the planner; `Err` says why its answer cannot be used.
async fn plan(
    node: &Node,
    settings: &Settings,
    referee: &Referee,
    search: &mut Search,
    out: &Outputs,
    helpers: &Helpers,
) -> Result<Move, String> {
    let game = referee.game();
    let goal = PlanMove_Goal {
        position: position_msg(referee.position()),
        start_fen: referee.record().start_fen.clone(),
        history: game.moves().iter().map(Move::text).collect(),
        time_budget_s: settings.time_budget_s as f32,
        algorithm: String::new(),
    };
    let wait = if settings.time_budget_s > 0.0 {
        settings.time_budget_s + settings.planner_margin_s
    } else {
        settings.planner_timeout_s
    };
    let deadline = tokio::time::Instant::now() + Duration::from_secs_f64(wait);
    let goal = match helpers
        .planner
        .send_goal(goal, Duration::from_secs_f64(wait.min(5.0)))
        .await
    {
        Ok(g) => g,
        Err(e) => return Err(format!("the planner did not take the goal: {e}")),
    };
    let mut feedback = std::pin::pin!(goal.feedback());
    let result = goal.result(Duration::from_secs_f64(wait));
    tokio::pin!(result);
    let answer = loop {
        tokio::select! {
            r = &mut result => break r,
            Some(f) = feedback.next() => {
                *search = Search { depth: f.depth, nodes: f.nodes, best: f.best_move_text, elapsed: f.elapsed_s };
                if let Err(e) = out.state.publish(state_msg(referee, search, node)).await {
                    tracing::warn!("{e}");
                }
            }
            _ = tokio::time::sleep_until(deadline) => {
                let _ = goal.cancel(Duration::from_millis(500)).await;
                return Err(format!("the planner did not answer within {wait:.1} s"));
            }
        }
    };
    match answer {
        Ok((GoalOutcome::Succeeded, r)) => {
            checkers_msgs::convert::find_move(referee.position(), &r.best_move)
                .map_err(|e| format!("the planner answered an unusable move: {e}"))
        }
        Ok((outcome, r)) => Err(format!(
            "the planner's goal ended {outcome:?}: {}",
            r.message
        )),
        Err(e) => Err(format!("the planner failed: {e}")),
    }
}

/// The planner's move for the human (`/game/hint`), remembered for the markers and announced.
async fn give_hint(
    settings: &Settings,
    referee: &mut Referee,
    helpers: &Helpers,
    req: &Hint_Request,
) -> Result<(Hint_Response, Announcement), String> {
    if !settings.hints {
        return Err("hints are off at this level".into());
    }
    if referee.status() != status::WAITING_FOR_HUMAN {
        return Err("a hint is given only while you are to move".into());
    }
    let budget = if req.time_budget_s.is_finite() && req.time_budget_s > 0.0 {
        f64::from(req.time_budget_s).min(30.0)
    } else {
        settings.hint_time_s
    };
    let goal = PlanMove_Goal {
        position: position_msg(referee.position()),
        start_fen: referee.record().start_fen.clone(),
        history: referee.game().moves().iter().map(Move::text).collect(),
        time_budget_s: budget as f32,
        algorithm: settings.hint_algorithm.clone(),
    };
    let wait = Duration::from_secs_f64(budget + settings.planner_margin_s);
    let goal = helpers
        .planner
        .send_goal(goal, Duration::from_secs(5))
        .await
        .map_err(|e| format!("the planner did not take the question: {e}"))?;
    let r = match goal.result(wait).await {
        Ok((GoalOutcome::Succeeded, r)) => r,
        Ok((outcome, r)) => {
            return Err(format!(
                "the planner gave no hint ({outcome:?}): {}",
                r.message
            ))
        }
        Err(e) => {
            let _ = goal.cancel(Duration::from_millis(500)).await;
            return Err(format!("the planner gave no hint: {e}"));
        }
    };
    let mv = checkers_msgs::convert::find_move(referee.position(), &r.best_move)
        .map_err(|e| format!("the planner's hint is not a move here: {e}"))?;
    referee.set_hint(mv);
    let human = referee.robot().opponent();
    let text = format!("hint: {}", mv.text());
    let mut note = Announcement::new(kind::HINT, human, text.clone());
    note.game_move = Some(mv);
    let response = Hint_Response {
        success: true,
        message: text,
        best_move: move_msg(&mv),
        win_probability: r.win_probability,
    };
    Ok((response, note))
}

/// `/game/takeback`: the record rewound, the robot's last piece carried back by the arm, then
/// the board checked; what the arm cannot restore the human is asked to put right.
async fn take_back(
    settings: &Settings,
    referee: &mut Referee,
    helpers: &Helpers,
    req: &TakeBack_Request,
) -> Result<(String, Vec<Announcement>), String> {
    if !settings.takebacks {
        return Err("take-backs are off at this level".into());
    }
    let undone = referee.take_back(usize::from(req.plies))?;
    let texts: Vec<String> = undone.iter().map(Move::text).collect();
    let human = referee.robot().opponent();
    // An even number of plies back to the human's turn: the last one taken back is the robot's.
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
            if let Err(e) = relocate(settings, helpers, leg[0], leg[1]).await {
                arm_failed = Some(e);
                break;
            }
        }
    }
    let mut text = format!("took back {}", texts.join(" "));
    let seen = scan(settings, helpers).await.unwrap_or(0);
    let expected = referee.position().occupancy_mask();
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
        notes.push(Announcement::new(kind::TAKEBACK, human, text.clone()));
        notes.extend(referee.board_mismatch(seen, "after the take-back"));
    } else {
        notes.push(Announcement::new(kind::TAKEBACK, human, text.clone()));
    }
    Ok((text, notes))
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

/// The arm carries the piece on `from` to `to` (a quiet move along one diagonal).
async fn relocate(
    settings: &Settings,
    helpers: &Helpers,
    from: draughts::Square,
    to: draughts::Square,
) -> Result<(), String> {
    let msg = checkers_msgs::msg::Move {
        from_square: from.number(),
        to_square: to.number(),
        path: vec![to.number()],
        captured: Vec::new(),
        promotes: false,
        text: format!("{from}-{to}"),
    };
    execute_msg(settings, helpers, msg).await
}

async fn execute(settings: &Settings, helpers: &Helpers, mv: &Move) -> Result<(), String> {
    execute_msg(settings, helpers, move_msg(mv)).await
}

async fn execute_msg(
    settings: &Settings,
    helpers: &Helpers,
    game_move: checkers_msgs::msg::Move,
) -> Result<(), String> {
    let timeout = Duration::from_secs_f64(settings.arm_timeout_s);
    let goal = helpers
        .arm
        .send_goal(ExecuteMove_Goal { game_move }, Duration::from_secs(5))
        .await
        .map_err(|e| format!("the arm did not take the move: {e}"))?;
    match goal.result(timeout).await {
        Ok((GoalOutcome::Succeeded, r)) if r.success => Ok(()),
        Ok((_, r)) => Err(format!("the arm failed: {}", r.message)),
        Err(e) => {
            let _ = goal.cancel(Duration::from_secs(1)).await;
            Err(format!("the arm: {e}"))
        }
    }
}

async fn scan(settings: &Settings, helpers: &Helpers) -> Result<u32, String> {
    let per_try = Duration::from_secs_f64(settings.scan_timeout_s);
    let reply = helpers
        .scan
        .call_retrying(
            checkers_msgs::srv::ScanBoard_Request { reads: 0 },
            per_try,
            3,
        )
        .await
        .map_err(|e| e.to_string())?;
    if reply.success {
        Ok(reply.occupancy.occupied)
    } else {
        Err(reply.message)
    }
}
