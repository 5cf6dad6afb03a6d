//! The one interface every planner implements, and what goes in and out of it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use draughts::{Game, GameResult, Move};

/// A value that means "the side to move wins"; wins found sooner score higher
/// (`WIN_SCORE - plies`). Values are in hundredths of a man otherwise.
pub const WIN_SCORE: i32 = 30_000;

/// How hard a planner may think. Each planner honours the limits that make sense for it and
/// ignores the others (`depth` means plies for the tree searches; `sims` means playouts for
/// MCTS). With no limit at all a planner uses its own default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub time: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub sims: Option<u64>,
}

impl Limits {
    pub fn is_unlimited(&self) -> bool {
        self.time.is_none() && self.depth.is_none() && self.nodes.is_none() && self.sims.is_none()
    }
}

/// What a searching planner reports while it works (the action server's feedback).
#[derive(Clone, Debug)]
pub struct Progress {
    /// Completed iteration depth (tree searches) or 0 (MCTS).
    pub depth: u32,
    pub nodes: u64,
    pub sims: u64,
    pub best: Option<Move>,
    pub value: i32,
    pub elapsed: Duration,
}

pub type ProgressFn = Arc<dyn Fn(&Progress) + Send + Sync>;

/// What the caller controls while a planner searches: a flag that stops it at once (the planner
/// still answers with the best move found so far) and a callback for progress reports.
#[derive(Clone, Default)]
pub struct Control {
    pub cancel: Arc<AtomicBool>,
    pub progress: Option<ProgressFn>,
}

impl std::fmt::Debug for Control {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Control")
            .field("cancelled", &self.cancelled())
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

impl Control {
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    pub fn report(&self, p: &Progress) {
        if let Some(f) = &self.progress {
            f(p);
        }
    }
}

/// How a search went.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Deepest completed iteration (tree searches), or the depth of the deepest tree node (MCTS).
    pub depth: u32,
    /// Deepest ply reached, captures included.
    pub seldepth: u32,
    /// Positions visited (tree searches) or tree nodes created (MCTS).
    pub nodes: u64,
    /// Playouts run (MCTS).
    pub sims: u64,
    pub tt_hits: u64,
    pub elapsed: Duration,
    /// The expected line, the chosen move first.
    pub pv: Vec<Move>,
}

/// A planner's answer.
#[derive(Clone, Debug)]
pub struct Decision {
    pub best: Move,
    /// From the side to move's point of view, in hundredths of a man; `±(WIN_SCORE - plies)`
    /// for a forced result.
    pub value: i32,
    /// Expected score of the side to move (a win counts 1, a draw 1/2), in `[0, 1]`.
    pub win_probability: f64,
    pub stats: SearchStats,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PlanError {
    #[error("the game is over ({0}): there is no move to plan")]
    GameOver(GameResult),
    #[error("there is no legal move to judge")]
    NoLegalMove,
    #[error("{} is not a legal move here", .0.text())]
    NotLegal(Move),
}

/// A planner: position and game history in ([`Game`] carries both, and the draw-rule
/// counters), a move out. Deterministic for a given seed and limits without a time limit.
/// `&mut self` because planners keep state between moves (random streams, tables, trees).
pub trait Planner: Send {
    /// The planner's spec string, e.g. `alphabeta:depth=12`.
    fn name(&self) -> String;

    /// Picks a move for the side to move in `game`.
    fn choose(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &Control,
    ) -> Result<Decision, PlanError>;

    /// Forgets what was learnt in the last game (a new game starts).
    fn new_game(&mut self) {}

    /// Thinks on the opponent's time: searches `game`, with the opponent to move, until
    /// `control` is cancelled, and keeps what it learns (a warm table, a grown tree) for the
    /// next [`Planner::choose`]. It must return within a few milliseconds of the cancel, so
    /// that a ponder never delays the answer. Planners that keep nothing between moves return
    /// at once.
    fn ponder(&mut self, _game: &Game, _control: &Control) {}
}

/// The legal moves of a game that is still on, or why there are none.
pub(crate) fn moves_to_plan(game: &Game) -> Result<draughts::MoveList, PlanError> {
    let result = game.result();
    if result.is_over() {
        return Err(PlanError::GameOver(result));
    }
    Ok(game.position().legal_moves())
}

/// The logistic scale of the evaluation: fitted by the Texel tuner (`examples/texel_tune.rs`)
/// so that `1 / (1 + e^(-K v))` predicts self-play results best.
pub const VALUE_SCALE_K: f64 = 0.0089;

/// Expected score of the side to move for a value in hundredths of a man.
pub fn value_to_win_probability(value: i32) -> f64 {
    if value >= WIN_SCORE - 1000 {
        return 1.0;
    }
    if value <= -(WIN_SCORE - 1000) {
        return 0.0;
    }
    1.0 / (1.0 + (-VALUE_SCALE_K * f64::from(value)).exp())
}

/// The value whose [`value_to_win_probability`] is `p` (clamped to stay finite).
pub fn win_probability_to_value(p: f64) -> i32 {
    let p = p.clamp(1e-4, 1.0 - 1e-4);
    ((p / (1.0 - p)).ln() / VALUE_SCALE_K).round() as i32
}

/// One legal move searched to the same depth as every other.
#[derive(Clone, Debug, PartialEq)]
pub struct Scored {
    pub mv: Move,
    /// The mover's expected score after it (a win 1, a draw 1/2).
    pub score: f64,
    /// How the opponent answers, the answer first.
    pub line: Vec<Move>,
}

/// Every legal move of `game`'s position searched by `engine` to `depth` plies (the move
/// itself counts as one), for the coach's verdicts, the opening book and pondering. A cancel
/// through `control` cuts the searches short (their scores are then rough).
pub fn score_moves(
    game: &Game,
    engine: &mut dyn Planner,
    depth: u32,
    control: &Control,
) -> Result<Vec<Scored>, PlanError> {
    let moves = moves_to_plan(game)?;
    let limits = Limits {
        depth: Some(depth.saturating_sub(1).max(1)),
        ..Limits::default()
    };
    let mut scored = Vec::with_capacity(moves.len());
    for mv in moves.iter() {
        let mut after = game.clone();
        if after.play(mv).is_err() {
            continue;
        }
        let (score, line) = match engine.choose(&after, &limits, control) {
            Ok(d) => (1.0 - value_to_win_probability(d.value), d.stats.pv),
            // The move ends the game: the mover won it, or drew it.
            Err(PlanError::GameOver(_)) => (mover_score(&after, game), Vec::new()),
            Err(e) => return Err(e),
        };
        scored.push(Scored {
            mv: *mv,
            score,
            line,
        });
    }
    Ok(scored)
}

/// The mover's score when its move ended the game.
fn mover_score(after: &Game, before: &Game) -> f64 {
    let mover = before.position().side_to_move();
    match after.result() {
        draughts::GameResult::Win { winner, .. } if winner == mover => 1.0,
        draughts::GameResult::Win { .. } => 0.0,
        _ => 0.5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_probability_is_logistic_and_invertible() {
        assert!((value_to_win_probability(0) - 0.5).abs() < 1e-12);
        assert!(value_to_win_probability(100) > 0.5);
        assert!(value_to_win_probability(-100) < 0.5);
        assert_eq!(value_to_win_probability(WIN_SCORE - 3), 1.0);
        for v in [-400, -30, 0, 55, 250] {
            assert!((win_probability_to_value(value_to_win_probability(v)) - v).abs() <= 1);
        }
    }

    #[test]
    fn game_over_has_no_move_to_plan() {
        let game = Game::from_fen("W:W21:B1").expect("fen");
        assert!(moves_to_plan(&game).is_ok());
        let over = Game::from_fen("W::B1").expect("fen");
        assert!(matches!(moves_to_plan(&over), Err(PlanError::GameOver(_))));
    }
}
