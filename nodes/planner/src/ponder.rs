//! Thinking on the human's time. While `/game/state` says the human is on move, the planner
//! searches the position ([`search::Planner::ponder`]): alpha-beta fills its table with the
//! likely replies, the AlphaZero tree grows under them. A goal cancels the ponder first; the
//! search stops within a millisecond or two and the goal's search starts from its work.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use checkers_msgs::convert::{position_from_msg, side_code};
use checkers_msgs::msg::GameState;
use draughts::Game;
use search::{Control, Planner};

/// A ponder stops by itself after this long: a person who walked away does not keep both
/// cores busy for ever.
pub const PONDER_MAX: Duration = Duration::from_secs(180);

pub type Shared = Arc<Mutex<Box<dyn Planner>>>;

/// What one ponder is about, and its cancel flag.
#[derive(Debug)]
struct Running {
    game_id: u32,
    ply: u32,
    cancel: Arc<AtomicBool>,
}

/// Starts and stops ponders as the game's state changes.
#[derive(Debug)]
pub struct Ponderer {
    enabled: bool,
    running: Option<Running>,
    last_state: Option<GameState>,
    /// The game as the robot's last move left it, with its whole history (the state carries
    /// only the position).
    expected: Option<Game>,
}

impl Ponderer {
    pub fn new(enabled: bool) -> Ponderer {
        Ponderer {
            enabled,
            running: None,
            last_state: None,
            expected: None,
        }
    }

    /// A new state: ponder while the human is on move, stop otherwise.
    pub fn on_state(&mut self, state: GameState, planner: &Shared) {
        self.last_state = Some(state);
        self.resume(planner);
    }

    /// Remembers the game after a planned move, so that the ponder knows its history. A move
    /// planned for the human (a hint) is not the robot's and is not kept.
    pub fn planned(&mut self, after: Game) {
        let human_to_move = self
            .last_state
            .as_ref()
            .is_some_and(|s| side_code(after.position().side_to_move()) != s.robot_color);
        if human_to_move {
            self.expected = Some(after);
        }
    }

    /// Cancels the ponder in progress; its search returns within a millisecond or two.
    pub fn stop(&mut self) {
        if let Some(r) = self.running.take() {
            r.cancel.store(true, Ordering::Relaxed);
            tracing::debug!(game = r.game_id, ply = r.ply, "ponder stopped");
        }
    }

    /// Starts pondering if the last state says the human is on move and no ponder of that
    /// position is running.
    pub fn resume(&mut self, planner: &Shared) {
        let Some(state) = self.last_state.clone() else {
            return;
        };
        let human_on_move = matches!(
            state.status,
            GameState::STATUS_WAITING_FOR_HUMAN | GameState::STATUS_AMBIGUOUS
        );
        let Ok(position) = position_from_msg(&state.position) else {
            self.stop();
            return;
        };
        let human_to_move = side_code(position.side_to_move()) != state.robot_color;
        if !(self.enabled && human_on_move && human_to_move) {
            self.stop();
            return;
        }
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.game_id == state.game_id && r.ply == state.ply)
        {
            return;
        }
        self.stop();
        let game = match &self.expected {
            Some(g) if *g.position() == position => g.clone(),
            _ => Game::from_position(position),
        };
        let cancel = Arc::new(AtomicBool::new(false));
        self.running = Some(Running {
            game_id: state.game_id,
            ply: state.ply,
            cancel: Arc::clone(&cancel),
        });
        tracing::debug!(game = state.game_id, ply = state.ply, "pondering");
        let control = Control {
            cancel: Arc::clone(&cancel),
            progress: None,
        };
        let planner = Arc::clone(planner);
        tokio::task::spawn_blocking(move || {
            let mut planner = planner.lock().unwrap_or_else(|p| p.into_inner());
            planner.ponder(&game, &control);
        });
        tokio::spawn(async move {
            tokio::time::sleep(PONDER_MAX).await;
            cancel.store(true, Ordering::Relaxed);
        });
    }
}

impl Drop for Ponderer {
    /// A node that stops does not leave a search running.
    fn drop(&mut self) {
        self.stop();
    }
}
