//! The planner node: the `/planner/plan` action (feedback while it searches; a cancel stops the
//! search at once) and `/planner/evaluation` after each plan.
//!
//! Parameters: those of a `config/difficulty/<level>.yaml`, read exactly as `level:NAME` reads
//! the file ([`search::parse_level`]): `algorithm`, `time_budget_s`, `rank`, `description`, and
//! every key of the algorithm's spec by its parameter name (`depth`, `endgame_pieces`,
//! `prune`, `pst`, ...: the table of `search::reference`, in `docs/planners.md`). A key the algorithm does not have stops the node
//! with an error naming it. A `zero` generation that cannot be loaded is replaced by
//! alpha-beta, with a warning; `ponder` searches while the human is on move (`/game/state`,
//! see [`crate::ponder`]). A goal's
//! `time_budget_s` (when above 0) replaces the configured time limit; its `algorithm` (when
//! not empty) replaces the configured planner for that goal.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use checkers_msgs::action::{PlanMove, PlanMove_Feedback, PlanMove_Goal, PlanMove_Result};
use checkers_msgs::convert::{move_msg, position_from_msg, side_code};
use checkers_msgs::msg::{Evaluation, GameState};
use draughts::Game;
use futures::StreamExt;
pub use ros::NodeError;
use ros::{Node, Qos, RunningGoal};
use tokio::sync::mpsc;

use ros::{Params, ParamsError};
use search::{Algorithm, PlannerSpec};
use search::{Control, Decision, Progress};

use crate::error::GoalError;
use crate::ponder::{Ponderer, Shared};
use search::level_from_params;

/// How often feedback goes out while a search runs.
const FEEDBACK_PERIOD: Duration = Duration::from_millis(100);

/// The planner the parameters describe: read as `level:NAME` reads a level file
/// ([`search::level_from_params`]), so a level is the same planner on the robot and
/// in the arena. Every parameter given is declared as given (`ros2 param list` shows the
/// level); without any, alpha-beta at 1 s a move.
pub fn spec_from_params(p: &mut Params) -> Result<(PlannerSpec, String), NodeError> {
    let mut given: Vec<(String, String)> = Vec::new();
    for name in p.given() {
        if let Some(value) = p.declare_given(&name) {
            given.push((name, value.text()));
        }
    }
    if !given.iter().any(|(k, _)| k == "algorithm") {
        given.push(("algorithm".into(), "alphabeta".into()));
    }
    let entries = given.iter().map(|(k, v)| (k.as_str(), v.clone()));
    let level = level_from_params("planner", entries).map_err(|e| {
        let value = given
            .iter()
            .find(|(k, _)| k == e.key())
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        NodeError::Params(ParamsError::Invalid {
            name: e.key().to_string(),
            value,
            why: e.to_string(),
        })
    })?;
    let mut spec = level.spec;
    // A planner with no limit at all would search until cancelled.
    if spec.limits().is_unlimited() {
        spec.set_time(Duration::from_secs(1));
    }
    let algorithm = spec.algorithm();
    let label = if level.description.is_empty() {
        format!("{algorithm} (rank {})", level.rank)
    } else {
        format!("{algorithm} (rank {}): {}", level.rank, level.description)
    };
    Ok((spec, label))
}

/// The game a goal describes: replayed from its start and history so repetitions count; the
/// position alone when the history does not lead to it.
pub fn goal_game(goal: &PlanMove_Goal) -> Result<Game, GoalError> {
    let position = position_from_msg(&goal.position)?;
    let replayed = (|| {
        let mut game = if goal.start_fen.is_empty() {
            Game::new()
        } else {
            Game::from_fen(&goal.start_fen).ok()?
        };
        for text in &goal.history {
            game.play_text(text).ok()?;
        }
        (*game.position() == position).then_some(game)
    })();
    Ok(replayed.unwrap_or_else(|| {
        tracing::warn!("the goal's history does not lead to its position: searching without it");
        Game::from_position(position)
    }))
}

/// The searches so far, for `/diagnostics`.
#[derive(Debug, Default)]
struct Searches {
    planner: String,
    thinking: bool,
    done: u64,
    failed: u64,
    last: Option<std::time::Duration>,
    longest: std::time::Duration,
}

impl Searches {
    fn record(&mut self, elapsed: Option<std::time::Duration>) {
        self.thinking = false;
        match elapsed {
            Some(t) => {
                self.done += 1;
                self.last = Some(t);
                self.longest = self.longest.max(t);
            }
            None => self.failed += 1,
        }
    }

    fn report(&self) -> ros::diagnostics::Status {
        use ros::diagnostics::Status;
        const NAME: &str = "planner: search";
        let what = if self.thinking { "thinking" } else { "ready" };
        let base = if self.failed > 0 && self.done == 0 {
            Status::warn(NAME, format!("{what}; no search has ended with a move yet"))
        } else {
            Status::ok(NAME, what)
        };
        base.value("level", &self.planner)
            .value("searches", self.done)
            .value("searches_without_move", self.failed)
            .value(
                "last_think_s",
                self.last
                    .map_or("none".into(), |t| format!("{:.2}", t.as_secs_f64())),
            )
            .value(
                "longest_think_s",
                format!("{:.2}", self.longest.as_secs_f64()),
            )
    }
}

pub async fn run(mut node: Node) -> Result<(), NodeError> {
    let (spec, label) = spec_from_params(&mut node.params())?;
    let server = node.action_server::<PlanMove>("/planner/plan")?;
    let evaluations = node.publisher::<Evaluation>("/planner/evaluation", Qos::Events)?;
    let states = node.subscription::<GameState>("/game/state", Qos::State)?;
    let mut states = states.stream();
    let mut ponderer = Ponderer::new(spec.ponder());
    let planner: Shared = Arc::new(Mutex::new(spec.without_endgame().build()));
    let pieces = spec.endgame();
    if pieces > 0 {
        // The database takes seconds to build (five pieces: to read from its file, or minutes
        // to build the first time on a machine): the first moves are searched without it
        // rather than the node waiting, and the planner is swapped once it is ready. One
        // thread, so the searches meanwhile keep the other cores.
        let planner = Arc::clone(&planner);
        std::thread::spawn(move || {
            search::shared_endgame(pieces, 1);
            let with_db = spec.build();
            *planner.lock().unwrap_or_else(|p| p.into_inner()) = with_db;
            tracing::info!(pieces, "the endgame database is in use");
        });
    }
    let searches = Arc::new(Mutex::new(Searches {
        planner: label.clone(),
        ..Searches::default()
    }));
    let seen = Arc::clone(&searches);
    ros::diagnostics::publish_periodically(&mut node, move || {
        vec![seen.lock().unwrap_or_else(|p| p.into_inner()).report()]
    });
    // Per side: a hint's search (the human's side) must not become the robot's baseline.
    let mut last_probability: [Option<(usize, f32)>; 2] = [None, None];
    tracing::info!(planner = %label, "planner node running");
    // Kept across the loop: a goal that arrives while a state is handled is not lost.
    let mut next_goal = Box::pin(server.next_goal());
    loop {
        // States first: a goal that arrives with a state behind it then sees the game's id and
        // status that the ponder after its move needs.
        let new = tokio::select! {
            biased;
            Some(state) = states.next() => {
                ponderer.on_state(state, &planner);
                continue;
            }
            new = &mut next_goal => {
                next_goal = Box::pin(server.next_goal());
                new
            }
        };
        ponderer.stop();
        let game = match goal_game(new.goal()) {
            Ok(g) => g,
            Err(why) => {
                tracing::warn!("rejecting a goal: {why}");
                let _ = new.reject().await;
                continue;
            }
        };
        let (goal_spec, shared) = match goal_planner(new.goal(), &spec, &planner) {
            Ok(x) => x,
            Err(why) => {
                tracing::warn!("rejecting a goal: {why}");
                let _ = new.reject().await;
                continue;
            }
        };
        let running = match new.accept().await {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!("{e}");
                continue;
            }
        };
        let ply = game.moves().len();
        let side = game.position().side_to_move();
        searches.lock().unwrap_or_else(|p| p.into_inner()).thinking = true;
        let outcome = search(running, game.clone(), goal_spec, shared).await;
        searches
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .record(outcome.as_ref().map(|(d, _)| d.stats.elapsed));
        if let Some((decision, _)) = &outcome {
            let mut after = game;
            if after.play(&decision.best).is_ok() {
                ponderer.planned(after);
            }
        }
        ponderer.resume(&planner);
        if let Some((decision, algorithm)) = outcome {
            let p = decision.win_probability as f32;
            // A new game (fewer plies than last time) starts the change afresh.
            let slot = usize::from(side == draughts::Color::Black);
            let change = match last_probability[slot] {
                Some((last_ply, last_p)) if last_ply < ply => p - last_p,
                _ => 0.0,
            };
            last_probability[slot] = Some((ply, p));
            let mut e = Evaluation {
                side: side_code(side),
                value: decision.value as f32,
                win_probability: p,
                win_probability_change: change,
                depth: decision.stats.depth,
                nodes: decision.stats.nodes.max(decision.stats.sims),
                elapsed_s: decision.stats.elapsed.as_secs_f32(),
                best_move_text: decision.best.text(),
                algorithm,
                ..Evaluation::default()
            };
            e.header.stamp = node.now();
            if let Err(err) = evaluations.publish(e).await {
                tracing::warn!("{err}");
            }
        }
    }
}

/// The planner for one goal: the node's own (kept between goals, so MCTS reuses its tree), or
/// a fresh one when the goal names another algorithm.
fn goal_planner(
    goal: &PlanMove_Goal,
    spec: &PlannerSpec,
    planner: &Shared,
) -> Result<(PlannerSpec, Shared), GoalError> {
    let mut goal_spec = *spec;
    let mut shared = Arc::clone(planner);
    if !goal.algorithm.trim().is_empty() {
        let algorithm: Algorithm = goal.algorithm.parse()?;
        if algorithm != spec.algorithm() {
            goal_spec = PlannerSpec::new(algorithm);
            shared = Arc::new(Mutex::new(goal_spec.build()));
        }
    }
    if goal.time_budget_s > 0.0 {
        goal_spec.set_time(Duration::from_secs_f64(f64::from(goal.time_budget_s)));
    }
    Ok((goal_spec, shared))
}

/// Runs one search on a blocking thread, forwarding progress as feedback, and ends the goal.
/// Returns the decision of a goal that succeeded, with the algorithm that made it.
async fn search(
    goal: RunningGoal<PlanMove>,
    game: Game,
    spec: PlannerSpec,
    planner: Shared,
) -> Option<(Decision, String)> {
    let started = Instant::now();
    let (tx, mut progress) = mpsc::unbounded_channel::<Progress>();
    let control = Control {
        cancel: goal.cancel_flag(),
        progress: Some(Arc::new(move |p: &Progress| {
            let _ = tx.send(p.clone());
        })),
    };
    let limits = spec.limits();
    let mut task = tokio::task::spawn_blocking(move || {
        let mut planner = planner.lock().unwrap_or_else(|p| p.into_inner());
        // The planner that plays may not be the one asked for (a network generation that
        // would not load is replaced by alpha-beta): the result names the one that played.
        (planner.name(), planner.choose(&game, &limits, &control))
    });
    let mut last_feedback = Instant::now() - FEEDBACK_PERIOD;
    let joined = loop {
        tokio::select! {
            joined = &mut task => break joined,
            Some(p) = progress.recv() => {
                if last_feedback.elapsed() >= FEEDBACK_PERIOD {
                    last_feedback = Instant::now();
                    let feedback = PlanMove_Feedback {
                        depth: p.depth,
                        nodes: p.nodes.max(p.sims),
                        best_move_text: p.best.map(|m| m.text()).unwrap_or_default(),
                        value: p.value as f32,
                        win_probability: search::value_to_win_probability(p.value) as f32,
                        elapsed_s: p.elapsed.as_secs_f32(),
                    };
                    if let Err(e) = goal.feedback(feedback).await {
                        tracing::debug!("{e}");
                    }
                }
            }
        }
    };
    let (played_by, joined) = match joined {
        Ok((name, chosen)) => (name, Ok(chosen)),
        Err(e) => (spec.to_string(), Err(e)),
    };
    let algorithm = played_by.split(':').next().unwrap_or_default().to_string();
    let mut result = PlanMove_Result {
        algorithm: algorithm.clone(),
        elapsed_s: started.elapsed().as_secs_f32(),
        ..PlanMove_Result::default()
    };
    let cancelled = goal.is_cancel_requested();
    match joined {
        Ok(Ok(decision)) => {
            result.best_move = move_msg(&decision.best);
            result.value = decision.value as f32;
            result.win_probability = decision.win_probability as f32;
            result.depth = decision.stats.depth;
            result.nodes = decision.stats.nodes.max(decision.stats.sims);
            if algorithm != spec.algorithm().name() {
                result.message = format!("{spec} is not available: {played_by} played instead");
            }
            if cancelled {
                result.message = "cancelled; the best move so far".into();
                goal.canceled(result);
                return None;
            }
            goal.succeed(result);
            Some((decision, algorithm))
        }
        Ok(Err(e)) => {
            result.message = e.to_string();
            goal.abort(result);
            None
        }
        Err(e) => {
            tracing::error!("the search thread failed: {e}");
            result.message = format!("the search failed: {e}");
            goal.abort(result);
            None
        }
    }
}
