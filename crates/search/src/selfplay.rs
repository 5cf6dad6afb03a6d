//! Alpha-beta playing itself, for training data: the pattern evaluation's positions
//! (`eval-train selfplay`) and the AlphaZero network's warm start (`zero-train warm`) both
//! come from here. Games start from the start or a random built-in opening, with a random move
//! now and then early on, so that no two games are alike; a game's result is decided as soon as
//! the endgame database knows its position, so the results of the endings are exact.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use draughts::{Color, Game, GameResult, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::alphabeta::net::{self, NetError};
use crate::alphabeta::patterns::{self, PatternError};
use crate::alphabeta::AlphaBeta;
use crate::endgame::{EndgameDb, Outcome};
use crate::openings::built_in;
use crate::{Control, Decision, Limits, Planner};

/// The evaluation alpha-beta plays with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// The tuned linear evaluation alone.
    Linear,
    /// With the learned correction (`evalnet.txt`).
    Net,
    /// The pattern evaluation (`patterns.bin`, or the file `CHECKERS_ROBOT_PATTERNS` names).
    Patterns,
    /// Master's: the patterns with the network over them (`evalnet_patterns.txt`).
    Master,
}

/// A built-in evaluation that does not load.
#[derive(Debug, thiserror::Error)]
pub enum EvaluationError {
    #[error(transparent)]
    Net(#[from] NetError),
    #[error(transparent)]
    Patterns(#[from] PatternError),
}

impl Evaluation {
    pub fn name(self) -> &'static str {
        match self {
            Evaluation::Linear => "linear",
            Evaluation::Net => "net",
            Evaluation::Patterns => "patterns",
            Evaluation::Master => "master",
        }
    }

    /// The engine that plays with it. Its weights are checked here, so that a broken file is
    /// an error rather than the engine's silent fall back to the linear evaluation.
    pub fn engine(self) -> Result<fn() -> AlphaBeta, EvaluationError> {
        Ok(match self {
            Evaluation::Linear => AlphaBeta::new,
            Evaluation::Net => {
                net::built_in()?;
                || match net::built_in() {
                    Ok(n) => AlphaBeta::new().with_net(n),
                    Err(_) => AlphaBeta::new(),
                }
            }
            Evaluation::Patterns => {
                patterns::built_in()?;
                || match patterns::built_in() {
                    Ok(p) => AlphaBeta::new().with_patterns(p),
                    Err(_) => AlphaBeta::new(),
                }
            }
            Evaluation::Master => {
                patterns::built_in()?;
                net::built_in_over_patterns()?;
                || match (patterns::built_in(), net::built_in_over_patterns()) {
                    (Ok(p), Ok(n)) => AlphaBeta::new().with_patterns(p).with_net(n),
                    _ => AlphaBeta::new(),
                }
            }
        })
    }
}

#[derive(Clone, Debug)]
pub struct SelfPlayConfig {
    /// Alpha-beta's depth for each move.
    pub depth: u32,
    /// In the first `random_plies` plies after the opening, each move is random with
    /// probability `explore`.
    pub random_plies: usize,
    pub explore: f32,
    pub threads: usize,
    pub seed: u64,
    /// A game still going after this many plies is scored a draw.
    pub max_plies: usize,
    /// The engine that plays (alpha-beta with or without the learned evaluations).
    pub engine: fn() -> AlphaBeta,
    /// Decides a game's result as soon as it knows the position; the engine plays with it too.
    pub endgame: Option<Arc<EndgameDb>>,
    /// Whether a game the database has decided stops there (data about the middle game only)
    /// or is played out (the engine then plays the ending perfectly).
    pub stop_when_decided: bool,
}

impl SelfPlayConfig {
    pub fn new(depth: u32, seed: u64) -> SelfPlayConfig {
        SelfPlayConfig {
            depth,
            random_plies: 20,
            explore: 0.1,
            threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
            seed,
            max_plies: 300,
            engine: AlphaBeta::new,
            endgame: None,
            stop_when_decided: true,
        }
    }
}

/// What a game's data is made of: called with each position before its move is played, then
/// with the result.
pub trait Recorder {
    type Output;
    /// `decision` is alpha-beta's, or `None` where the move was forced (it was not searched).
    fn ply(&mut self, game: &Game, decision: Option<&Decision>);
    /// `white_points` is White's score doubled: 0 lost, 1 drawn, 2 won.
    fn finish(self, white_points: u8) -> Self::Output;
}

/// The side's score in [0, 1] from White's doubled points.
pub fn score_of(side: Color, white_points: u8) -> f32 {
    let white = f32::from(white_points.min(2)) / 2.0;
    match side {
        Color::White => white,
        Color::Black => 1.0 - white,
    }
}

/// Plays the games numbered `games` on `cfg.threads` threads. Game `i` depends only on
/// `cfg.seed` and `i`, so a range can be played again, or continued by the next range.
/// `recorder(i)` makes each game's recorder and `on_game` receives what it made.
pub fn play_games<R: Recorder>(
    cfg: &SelfPlayConfig,
    games: Range<usize>,
    recorder: impl Fn(usize) -> R + Sync,
    on_game: impl Fn(R::Output) + Sync,
) {
    let next = AtomicUsize::new(games.start);
    std::thread::scope(|scope| {
        for _ in 0..cfg.threads.max(1) {
            scope.spawn(|| {
                let mut ab = (cfg.engine)();
                if let Some(db) = &cfg.endgame {
                    ab = ab.with_endgame(db.clone());
                }
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games.end {
                        break;
                    }
                    on_game(play_game(&mut ab, cfg, i, recorder(i)));
                }
            });
        }
    });
}

/// White's doubled points if the database knows `pos`.
fn adjudicate(db: Option<&EndgameDb>, pos: &Position) -> Option<u8> {
    let mover_points = match db?.probe(pos)? {
        Outcome::Win(_) => 2,
        Outcome::Draw => 1,
        Outcome::Loss(_) => 0,
    };
    Some(match pos.side_to_move() {
        Color::White => mover_points,
        Color::Black => 2 - mover_points,
    })
}

fn play_game<R: Recorder>(
    ab: &mut AlphaBeta,
    cfg: &SelfPlayConfig,
    i: usize,
    mut rec: R,
) -> R::Output {
    let openings = built_in();
    let mut rng = StdRng::seed_from_u64(cfg.seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
    let mut game = if i.is_multiple_of(4) || openings.is_empty() {
        Game::new()
    } else {
        openings[rng.random_range(0..openings.len())].game()
    };
    let start = game.ply_count();
    let limits = Limits {
        depth: Some(cfg.depth.max(1)),
        ..Limits::default()
    };
    let control = Control::default();
    let mut decided = None;
    while !game.result().is_over() && game.ply_count() < cfg.max_plies {
        if decided.is_none() {
            decided = adjudicate(cfg.endgame.as_deref(), game.position());
            if decided.is_some() && cfg.stop_when_decided {
                break;
            }
        }
        let moves = game.legal_moves();
        let mv = if moves.len() == 1 {
            rec.ply(&game, None);
            moves[0]
        } else {
            let Ok(decision) = ab.choose(&game, &limits, &control) else {
                break;
            };
            rec.ply(&game, Some(&decision));
            let explore =
                game.ply_count() < start + cfg.random_plies && rng.random::<f32>() < cfg.explore;
            if explore {
                moves[rng.random_range(0..moves.len())]
            } else {
                decision.best
            }
        };
        if game.play(&mv).is_err() {
            break;
        }
    }
    let white_points = decided.unwrap_or(match game.result() {
        GameResult::Win {
            winner: Color::White,
            ..
        } => 2,
        GameResult::Win { .. } => 0,
        // A draw by the rules, or a game cut at `max_plies`.
        _ => 1,
    });
    rec.finish(white_points)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Every position with the decision's presence, and the result.
    struct Trace(Vec<(Position, bool)>);

    impl Recorder for Trace {
        type Output = (Vec<(Position, bool)>, u8);
        fn ply(&mut self, game: &Game, decision: Option<&Decision>) {
            if let Some(d) = decision {
                assert!(game.legal_moves().contains(&d.best));
            }
            self.0.push((*game.position(), decision.is_some()));
        }
        fn finish(self, white_points: u8) -> Self::Output {
            (self.0, white_points)
        }
    }

    fn games(cfg: &SelfPlayConfig, range: Range<usize>) -> Vec<(Vec<(Position, bool)>, u8)> {
        let all = Mutex::new(Vec::new());
        play_games(
            cfg,
            range,
            |_| Trace(Vec::new()),
            |g| all.lock().expect("lock").push(g),
        );
        let mut all = all.into_inner().expect("lock");
        all.sort_by_key(|(plies, _)| plies.first().map(|(p, _)| format!("{p:?}")));
        all
    }

    #[test]
    fn games_are_searched_where_there_is_a_choice_and_repeat_by_number() {
        let mut cfg = SelfPlayConfig::new(2, 7);
        cfg.threads = 2;
        cfg.max_plies = 40;
        let first = games(&cfg, 0..4);
        assert_eq!(first.len(), 4);
        for (plies, points) in &first {
            assert!(plies.len() >= 20);
            assert!(*points <= 2);
            for (pos, searched) in plies {
                assert_eq!(*searched, pos.legal_moves().len() > 1);
            }
        }
        // One thread or two, the same numbers give the same games.
        cfg.threads = 1;
        assert_eq!(games(&cfg, 0..4), first);
    }

    #[test]
    fn the_score_is_the_side_s() {
        assert_eq!(score_of(Color::White, 2), 1.0);
        assert_eq!(score_of(Color::Black, 2), 0.0);
        assert_eq!(score_of(Color::Black, 1), 0.5);
    }
}
