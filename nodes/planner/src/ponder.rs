//! Thinking on the human's time. While `/game/state` says the human is on move, the planner
//! searches the position ([`search::Planner::ponder`]): alpha-beta fills its table with the
//! likely replies, the AlphaZero tree grows under them. It starts as soon as the robot's own
//! move is planned, while the arm plays it (seconds on the robot) and the board is checked,
//! on the position that move leaves. A goal cancels the ponder first; the search stops within
//! a millisecond or two and the goal's search starts from its work.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use checkers_msgs::convert::{position_from_msg, side_code};
use checkers_msgs::msg::GameState;
use draughts::{Game, Position};
use search::{Control, Planner};

/// A ponder stops by itself after this long: a person who walked away does not keep both
/// cores busy for ever.
pub const PONDER_MAX: Duration = Duration::from_secs(180);

pub type Shared = Arc<Mutex<Box<dyn Planner>>>;

/// The nice value a ponder runs at. It is spare time: on the robot it runs while the arm moves
/// and the board is scanned, and the arm's controller, the sensor and the arbiter come first.
pub const PONDER_NICE: i32 = 10;

/// Lowers this thread's priority to [`PONDER_NICE`]. Linux only: there the nice value is per
/// thread and the search's helper threads inherit it, where elsewhere it would slow the whole
/// node. Where it cannot, the ponder runs as it is.
fn give_way() {
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{getpriority_process, setpriority_process};
        let now = getpriority_process(None).unwrap_or(0);
        if now < PONDER_NICE {
            if let Err(e) = setpriority_process(None, PONDER_NICE) {
                tracing::debug!("the ponder keeps its priority: {e}");
            }
        }
    }
}

/// What one ponder is about, and its cancel flag.
#[derive(Debug)]
struct Running {
    game_id: u32,
    /// The position pondered, the human to move.
    position: Position,
    cancel: Arc<AtomicBool>,
}

/// Starts and stops ponders as the game's state changes.
#[derive(Debug)]
pub struct Ponderer {
    enabled: bool,
    running: Option<Running>,
    last_state: Option<GameState>,
    /// The game as the robot's last move left it, with its whole history (the state carries
    /// only the position), and the game's id.
    expected: Option<(u32, Game)>,
    /// How many ponders were started: a ponder that goes on through several states is one.
    started: usize,
}

impl Ponderer {
    pub fn new(enabled: bool) -> Ponderer {
        Ponderer {
            enabled,
            running: None,
            last_state: None,
            expected: None,
            started: 0,
        }
    }

    /// A new state: ponder while the human is on move or the robot's planned move is being
    /// played, stop otherwise.
    pub fn on_state(&mut self, state: GameState, planner: &Shared) {
        self.last_state = Some(state);
        self.resume(planner);
    }

    /// Remembers the game after a planned move, so that the ponder knows its history. A move
    /// planned for the human (a hint) is not the robot's and is not kept.
    pub fn planned(&mut self, after: Game) {
        let Some(state) = &self.last_state else {
            return;
        };
        if side_code(after.position().side_to_move()) != state.robot_color {
            self.expected = Some((state.game_id, after));
        }
    }

    /// Cancels the ponder in progress; its search returns within a millisecond or two.
    pub fn stop(&mut self) {
        if let Some(r) = self.running.take() {
            r.cancel.store(true, Ordering::Relaxed);
            tracing::debug!(game = r.game_id, "ponder stopped");
        }
    }

    /// Starts pondering if the last state says the human is on move, or that the robot's
    /// planned move is being played (thinking, the arm moving, the board being checked), and no
    /// ponder of that position is running.
    pub fn resume(&mut self, planner: &Shared) {
        let Some(state) = self.last_state.clone() else {
            return;
        };
        let Ok(position) = position_from_msg(&state.position) else {
            self.stop();
            return;
        };
        let wanted = match self.enabled {
            true => self.to_ponder(&state, position),
            false => None,
        };
        let Some(game) = wanted else {
            self.stop();
            return;
        };
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.game_id == state.game_id && r.position == *game.position())
        {
            return;
        }
        self.stop();
        let cancel = Arc::new(AtomicBool::new(false));
        self.running = Some(Running {
            game_id: state.game_id,
            position: *game.position(),
            cancel: Arc::clone(&cancel),
        });
        self.started += 1;
        tracing::debug!(
            game = state.game_id,
            ply = state.ply,
            ponders = self.started,
            "pondering"
        );
        let control = Control {
            cancel: Arc::clone(&cancel),
            progress: None,
        };
        let planner = Arc::clone(planner);
        // A thread of its own rather than tokio's blocking pool: its lowered priority must not
        // pass on to the goal's search, which a pooled thread might run next.
        let spawned = std::thread::Builder::new()
            .name("ponder".into())
            .spawn(move || {
                give_way();
                let mut planner = planner.lock().unwrap_or_else(|p| p.into_inner());
                planner.ponder(&game, &control);
            });
        if let Err(e) = spawned {
            tracing::warn!("no ponder: {e}");
            self.running = None;
            return;
        }
        tokio::spawn(async move {
            tokio::time::sleep(PONDER_MAX).await;
            cancel.store(true, Ordering::Relaxed);
        });
    }

    /// The game to ponder in `state` (whose board is `position`), if any.
    fn to_ponder(&self, state: &GameState, position: Position) -> Option<Game> {
        let expected = self
            .expected
            .as_ref()
            .filter(|(id, _)| *id == state.game_id)
            .map(|(_, g)| g);
        match state.status {
            GameState::STATUS_WAITING_FOR_HUMAN | GameState::STATUS_AMBIGUOUS => {
                let human_to_move = side_code(position.side_to_move()) != state.robot_color;
                human_to_move.then(|| match expected {
                    Some(g) if *g.position() == position => g.clone(),
                    _ => Game::from_position(position),
                })
            }
            // The robot's move is planned and on its way to the board: the state still shows
            // the position before it (thinking, moving) or already the one after (verifying).
            // The ply as well as the position must fit, so that a position that comes back
            // later in the game does not revive an old expectation.
            GameState::STATUS_ROBOT_THINKING
            | GameState::STATUS_ROBOT_MOVING
            | GameState::STATUS_VERIFYING => expected
                .filter(|g| {
                    let plies = g.ply_count();
                    let after = plies == state.ply as usize && *g.position() == position;
                    let before = plies == state.ply as usize + 1
                        && g.positions().get(plies - 1) == Some(&position);
                    after || before
                })
                .filter(|g| !g.result().is_over())
                .cloned(),
            _ => None,
        }
    }

    #[cfg(test)]
    fn pondering(&self) -> Option<(Position, usize)> {
        self.running.as_ref().map(|r| (r.position, self.started))
    }
}

impl Drop for Ponderer {
    /// A node that stops does not leave a search running.
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers_msgs::convert::position_msg;
    use search::{Decision, Limits, PlanError};

    /// Ponders until cancelled, doing nothing.
    struct Idle;

    impl Planner for Idle {
        fn name(&self) -> String {
            "idle".into()
        }

        fn choose(&mut self, _: &Game, _: &Limits, _: &Control) -> Result<Decision, PlanError> {
            Err(PlanError::NoLegalMove)
        }

        fn ponder(&mut self, _: &Game, control: &Control) {
            while !control.cancelled() {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }

    fn state(status: u8, position: &Position, ply: u32) -> GameState {
        GameState {
            game_id: 7,
            status,
            robot_color: GameState::SIDE_WHITE,
            ply,
            position: position_msg(position),
            ..GameState::default()
        }
    }

    #[tokio::test]
    async fn the_robot_ponders_from_its_planned_move_through_the_arm_to_the_humans_turn() {
        let planner: Shared = Arc::new(Mutex::new(Box::new(Idle)));
        let mut ponderer = Ponderer::new(true);
        let game = Game::new();
        let start = *game.position();
        ponderer.on_state(state(GameState::STATUS_ROBOT_THINKING, &start, 0), &planner);
        assert_eq!(
            ponderer.pondering(),
            None,
            "nothing to ponder before the move"
        );

        let mut after = game.clone();
        let mv = start.legal_moves()[0];
        after.play(&mv).expect("a legal move");
        let next = *after.position();
        ponderer.planned(after);
        ponderer.resume(&planner);
        assert_eq!(
            ponderer.pondering(),
            Some((next, 1)),
            "at once, on the move's result"
        );

        // The arm plays it, the board is checked, the human is on move: the same ponder goes on.
        ponderer.on_state(state(GameState::STATUS_ROBOT_MOVING, &start, 0), &planner);
        ponderer.on_state(state(GameState::STATUS_VERIFYING, &next, 1), &planner);
        ponderer.on_state(
            state(GameState::STATUS_WAITING_FOR_HUMAN, &next, 1),
            &planner,
        );
        assert_eq!(ponderer.pondering(), Some((next, 1)));

        // The human moved: the robot's turn again, nothing expected there.
        let later = next.after(&next.legal_moves()[0]);
        ponderer.on_state(state(GameState::STATUS_ROBOT_THINKING, &later, 2), &planner);
        assert_eq!(ponderer.pondering(), None);

        // The position before the robot's move again, later in the game (kings shuffling).
        ponderer.on_state(state(GameState::STATUS_ROBOT_THINKING, &start, 4), &planner);
        assert_eq!(
            ponderer.pondering(),
            None,
            "an old expectation is not revived"
        );

        // Another game with the same position: the old expectation is not used.
        let mut other = state(GameState::STATUS_ROBOT_MOVING, &start, 0);
        other.game_id = 8;
        ponderer.on_state(other, &planner);
        assert_eq!(ponderer.pondering(), None);
    }

    #[tokio::test]
    async fn a_fault_or_a_level_without_ponder_does_not_ponder() {
        let planner: Shared = Arc::new(Mutex::new(Box::new(Idle)));
        let start = Position::start();
        let mut after = Game::new();
        after.play(&start.legal_moves()[0]).expect("a legal move");
        let next = *after.position();

        let mut ponderer = Ponderer::new(true);
        ponderer.on_state(state(GameState::STATUS_ROBOT_THINKING, &start, 0), &planner);
        ponderer.planned(after.clone());
        ponderer.resume(&planner);
        assert!(ponderer.pondering().is_some());
        ponderer.on_state(state(GameState::STATUS_ERROR, &start, 0), &planner);
        assert_eq!(ponderer.pondering(), None, "a fault stops it");

        let mut off = Ponderer::new(false);
        off.on_state(state(GameState::STATUS_ROBOT_THINKING, &start, 0), &planner);
        off.planned(after);
        off.resume(&planner);
        off.on_state(
            state(GameState::STATUS_WAITING_FOR_HUMAN, &next, 1),
            &planner,
        );
        assert_eq!(off.pondering(), None);
    }

    /// Records the nice value its ponder ran at.
    #[cfg(target_os = "linux")]
    struct Nice(std::sync::mpsc::Sender<i32>);

    #[cfg(target_os = "linux")]
    impl Planner for Nice {
        fn name(&self) -> String {
            "nice".into()
        }

        fn choose(&mut self, _: &Game, _: &Limits, _: &Control) -> Result<Decision, PlanError> {
            Err(PlanError::NoLegalMove)
        }

        fn ponder(&mut self, _: &Game, _: &Control) {
            let _ = self
                .0
                .send(rustix::process::getpriority_process(None).unwrap_or(i32::MIN));
        }
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn a_ponder_gives_way_to_the_rest_of_the_robot() {
        use rustix::process::getpriority_process;
        let ours = getpriority_process(None).expect("this thread's nice value");
        let (tx, rx) = std::sync::mpsc::channel();
        let planner: Shared = Arc::new(Mutex::new(Box::new(Nice(tx))));
        let mut ponderer = Ponderer::new(true);
        let start = Position::start();
        ponderer.on_state(
            state(
                GameState::STATUS_WAITING_FOR_HUMAN,
                &start.after(&start.legal_moves()[0]),
                1,
            ),
            &planner,
        );
        let pondered_at = rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the ponder ran");
        assert!(
            pondered_at >= PONDER_NICE.max(ours),
            "nice {pondered_at} while pondering"
        );
        assert_eq!(
            getpriority_process(None).ok(),
            Some(ours),
            "the node's own threads keep their priority"
        );
    }
}
