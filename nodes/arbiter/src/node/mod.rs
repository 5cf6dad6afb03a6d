//! The arbiter node: the game loop of DESIGN.md over the ROS graph. Human's turn: judge each
//! confirmed reading. Robot's turn: plan (`/planner/plan`, with the level's budget) -> execute
//! (`/arm/execute`) -> verify (`/board/scan`). Services `/game/new`, `/game/resign`,
//! `/game/resolve`, `/game/hint` and `/game/takeback` are answered between turns and told
//! "busy" during the robot's. Each human move is judged (`search::judge`) before the robot's
//! turn.
//!
//! Parameters: `state_dir`, `robot_color` (white|black), `level`, `time_budget_s`,
//! `planner_margin_s`, `planner_timeout_s` (when the budget is 0), `planner_wait_s` and
//! `difficulty_dir` (how long to wait for a planner whose computer is away, and where the
//! levels are to play at the game's level without it), `arm_timeout_s`,
//! `scan_timeout_s`, `verify` (bool), `start_new_game` (bool: start one at launch when none is
//! in progress), `hints` (bool: `/game/hint` answers), `hint_algorithm` and `hint_time_s` (the
//! planner and the time a hint is searched with), `verdicts` (bool: judge each human move and
//! say so, a `VERDICT` event and a comment in the archived PDN), `coach_depth` (the depth each
//! move is judged to), `takebacks` (bool: `/game/takeback` answers).

mod messages;
mod planner_away;
mod requests;
mod turn;
mod verdict;

use std::sync::{Arc, Mutex};

use checkers_msgs::action::{ExecuteMove, PlanMove};
use checkers_msgs::msg::{BoardOccupancy, GameEvent, GameState};
use checkers_msgs::srv::ScanBoard;
use checkers_msgs::visualization_msgs::msg::MarkerArray;
use futures::StreamExt;
use ros::{ActionClient, Node, NodeError, Publisher, Qos, ServiceClient};

use self::messages::{event_msg, state_msg};
use crate::health::GameHealth;
use crate::markers::board_markers;
use crate::record::ReadingId;
use crate::record::StateDir;
use crate::referee::{Announcement, EventKind, Referee, Status};
use crate::services::Services;
use crate::settings::Settings;

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
    // Latched: a press made while this arbiter was (re)starting reaches it once matched.
    let occupancy = node.subscription::<BoardOccupancy>("/board/occupancy", Qos::State)?;
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
        let stamp = &reading.header.stamp;
        let id = ReadingId {
            seq: reading.seq,
            stamp_ns: i64::from(stamp.sec) * 1_000_000_000 + i64::from(stamp.nanosec),
        };
        self.referee.on_reading(reading.occupied, id)
    }
}
