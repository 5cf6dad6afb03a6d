//! Texel tuning of the alpha-beta evaluation on self-play games.
//!
//! 1. Self-play: from each built-in opening plus a few seeded random plies (for variety), the
//!    current alpha-beta plays itself at a fixed depth, on both cores.
//! 2. Every quiet position of those games is labelled with the game's result.
//! 3. `K` and then the weights (the man pinned at 100) are fitted to minimise the squared error
//!    of `sigmoid(K x eval)` against the results; the weights are printed as Rust source.
//! 4. The fitted weights play the current ones at the same depth, every built-in opening with
//!    both colours: the score says whether the fit plays better, not just predicts better.
//!
//! `cargo run --release -p search --example texel_tune -- GAMES DEPTH ITERATIONS`
//! (defaults 2000 6 400). Paste the printed `WEIGHTS` into `src/alphabeta/eval.rs` and
//! `VALUE_SCALE_K` into `src/planner.rs`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use draughts::Rng;
use search::{
    built_in_openings, samples_from_game, tune, weights_match, AlphaBeta, Control, Limits, Opening,
    Planner, Sample, Weights, DEFAULT_MAX_PLIES, FEATURE_NAMES, WEIGHTS,
};

fn arg(i: usize, default: usize) -> usize {
    std::env::args()
        .nth(i)
        .and_then(|a| a.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let games = arg(1, 2000);
    let depth = arg(2, 6) as u32;
    let iterations = arg(3, 400);
    let openings = built_in_openings();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let next = AtomicUsize::new(0);
    let samples: Mutex<Vec<Sample>> = Mutex::new(Vec::new());
    let results = Mutex::new([0usize; 3]);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                let mut engine = AlphaBeta::new();
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= games {
                        break;
                    }
                    let mut game = openings[g % openings.len()].game();
                    let mut rng = Rng::new(g as u64 + 1);
                    for _ in 0..2 + g % 4 {
                        let moves = game.legal_moves();
                        if moves.is_empty() {
                            break;
                        }
                        let mv = moves[rng.below(moves.len())];
                        if game.play(&mv).is_err() {
                            break;
                        }
                    }
                    engine.new_game();
                    let first = game.ply_count();
                    while !game.result().is_over() {
                        if game.ply_count() - first >= DEFAULT_MAX_PLIES {
                            game.agree_draw();
                            break;
                        }
                        let Ok(d) = engine.choose(&game, &limits, &Control::default()) else {
                            break;
                        };
                        if game.play(&d.best).is_err() {
                            break;
                        }
                    }
                    let found = samples_from_game(&game, first);
                    let tag = game.result().pdn_tag();
                    if let Ok(mut r) = results.lock() {
                        r[match tag {
                            "1-0" => 0,
                            "0-1" => 2,
                            _ => 1,
                        }] += 1;
                    }
                    if let Ok(mut all) = samples.lock() {
                        all.extend(found);
                    }
                }
            });
        }
    });
    let samples = samples.into_inner().unwrap_or_default();
    let r = results.into_inner().unwrap_or_default();
    println!(
        "# self-play: {games} games at depth {depth}: {} white wins, {} draws, {} black wins; {} positions",
        r[0],
        r[1],
        r[2],
        samples.len()
    );
    // The man fixes the scale. PIN_KING=1 also holds the king's value.
    let pinned: &[usize] = if std::env::var("PIN_KING").is_ok_and(|v| v == "1") {
        &[0, 1]
    } else {
        &[0]
    };
    let fit = tune(&samples, &WEIGHTS, pinned, iterations);
    println!("# K = {:.6}", fit.k);
    println!(
        "# mean squared error: {:.6} before, {:.6} after",
        fit.error_before, fit.error_after
    );
    for (name, (old, new)) in FEATURE_NAMES
        .iter()
        .zip(WEIGHTS.iter().zip(fit.weights.iter()))
    {
        println!("# {name:>20}: {old:>5} -> {new:>5}");
    }
    println!("pub const WEIGHTS: Weights = {:?};", fit.weights);
    println!("pub const VALUE_SCALE_K: f64 = {:.6};", fit.k);
    verify(&fit.weights, depth, &openings);
}

/// Plays the fitted weights against the current ones at the same depth, every opening with
/// both colours, and prints the fitted side's score.
fn verify(fitted: &Weights, depth: u32, openings: &[Opening]) {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let t = weights_match(fitted, &WEIGHTS, &limits, openings, 2);
    println!(
        "# fitted vs current weights, depth {depth}, {} games: {}",
        t.games(),
        t.summary()
    );
}
