//! The warm start: positions from alpha-beta's games against itself, each labelled by the search
//! that played it. The policy target is the move alpha-beta chose; the value target blends
//! alpha-beta's win probability with the game's result. A few random moves early in each game
//! (and the built-in openings) keep the games apart.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use draughts::{Color, Game, GameResult};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use search::alphabeta::AlphaBeta;
use search::openings::built_in;
use search::{Control, Limits, Planner};
use zero::encode::{action_for, encode};

use crate::games::Sample;

#[derive(Clone, Copy, Debug)]
pub struct WarmConfig {
    pub games: usize,
    /// Alpha-beta's depth for each move.
    pub depth: u32,
    /// In the first `random_plies` plies after the opening, each move is random with
    /// probability `explore`.
    pub random_plies: usize,
    pub explore: f32,
    /// Weight of the game's result in the value target (the rest is the search's value).
    pub result_weight: f32,
    pub threads: usize,
    pub seed: u64,
    pub max_plies: usize,
}

impl WarmConfig {
    pub fn new(games: usize, depth: u32, seed: u64) -> WarmConfig {
        WarmConfig {
            games,
            depth,
            random_plies: 16,
            explore: 0.1,
            result_weight: 0.5,
            threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
            seed,
            max_plies: 300,
        }
    }
}

/// Plays and labels `cfg.games` games; `on_game` is called as each ends.
pub fn label_games(cfg: &WarmConfig, on_game: impl Fn() + Sync) -> Vec<Sample> {
    let next = AtomicUsize::new(0);
    let all = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..cfg.threads.max(1) {
            scope.spawn(|| {
                let mut ab = AlphaBeta::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= cfg.games {
                        break;
                    }
                    let samples = label_game(&mut ab, cfg, i);
                    if let Ok(mut all) = all.lock() {
                        all.extend(samples);
                    }
                    on_game();
                }
            });
        }
    });
    all.into_inner().unwrap_or_default()
}

fn label_game(ab: &mut AlphaBeta, cfg: &WarmConfig, i: usize) -> Vec<Sample> {
    let openings = built_in();
    let mut rng = StdRng::seed_from_u64(cfg.seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
    let mut game = if i.is_multiple_of(2) || openings.is_empty() {
        Game::new()
    } else {
        openings[(i / 2) % openings.len()].game()
    };
    let start = game.ply_count();
    let limits = Limits {
        depth: Some(cfg.depth.max(1)),
        ..Limits::default()
    };
    let control = Control::default();
    let mut pending: Vec<(Color, Sample)> = Vec::new();
    while !game.result().is_over() && game.ply_count() < cfg.max_plies {
        let moves = game.legal_moves();
        let Ok(decision) = ab.choose(&game, &limits, &control) else {
            break;
        };
        let mover = game.position().side_to_move();
        if moves.len() > 1 {
            pending.push((
                mover,
                Sample {
                    input: encode(&game),
                    policy: vec![(action_for(mover, &decision.best) as u16, 1.0)],
                    value: (2.0 * decision.win_probability - 1.0) as f32,
                },
            ));
        }
        let explore = game.ply_count() < start + cfg.random_plies
            && moves.len() > 1
            && rng.random::<f32>() < cfg.explore;
        let mv = if explore {
            moves[rng.random_range(0..moves.len())]
        } else {
            decision.best
        };
        if game.play(&mv).is_err() {
            break;
        }
    }
    let result = game.result();
    let w = cfg.result_weight.clamp(0.0, 1.0);
    pending
        .into_iter()
        .map(|(colour, mut s)| {
            let z = match result {
                GameResult::Win { winner, .. } if winner == colour => 1.0,
                GameResult::Win { .. } => -1.0,
                _ => 0.0,
            };
            s.value = (1.0 - w) * s.value + w * z;
            s
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use zero::encode::ACTIONS;

    #[test]
    fn labelled_positions_carry_alpha_beta_moves() {
        let mut cfg = WarmConfig::new(2, 2, 5);
        cfg.max_plies = 30;
        cfg.threads = 1;
        let samples = label_games(&cfg, || {});
        assert!(samples.len() > 20, "{} samples", samples.len());
        for s in &samples {
            assert_eq!(s.policy.len(), 1);
            assert!((s.policy[0].0 as usize) < ACTIONS);
            assert!((-1.0..=1.0).contains(&s.value));
        }
    }
}
