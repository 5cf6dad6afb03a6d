//! Texel tuning of the alpha-beta evaluation: fit the weights so that `sigmoid(K x eval)`
//! predicts the results of self-play games from the positions they went through. The driver
//! (self-play, then the fit) is `examples/texel_tune.rs`. [`weights_match`] judges weights by
//! play, for that fit and for the match-play tuner `examples/match_tune.rs`.

use std::sync::Mutex;

use draughts::{Color, Game, GameResult};

use crate::alphabeta::eval::{features, Weights, N_FEATURES};
use crate::alphabeta::AlphaBeta;
use crate::arena::{play_games, points};
use crate::elo::Tally;
use crate::openings::Opening;
use crate::planner::Limits;

/// One training position: its features (White minus Black) and White's points in the game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub features: [i32; N_FEATURES],
    pub white_points: f64,
}

/// The quiet positions of a finished game (no capture pending, where the static evaluation is
/// meant to hold), past the first `skip` plies, labelled with the result.
pub fn samples_from_game(game: &Game, skip: usize) -> Vec<Sample> {
    let white_points = match game.result() {
        GameResult::Win {
            winner: Color::White,
            ..
        } => 1.0,
        GameResult::Win { .. } => 0.0,
        _ => 0.5,
    };
    game.positions()
        .iter()
        .skip(skip)
        .filter(|p| !p.has_capture() && p.count_legal() > 0)
        .map(|p| Sample {
            features: features(p),
            white_points,
        })
        .collect()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn value(f: &[i32; N_FEATURES], w: &[f64; N_FEATURES]) -> f64 {
    f.iter().zip(w).map(|(a, b)| f64::from(*a) * b).sum()
}

/// Mean squared error of the predicted results.
pub fn error(samples: &[Sample], w: &[f64; N_FEATURES], k: f64) -> f64 {
    let n = samples.len().max(1) as f64;
    samples
        .iter()
        .map(|s| (sigmoid(k * value(&s.features, w)) - s.white_points).powi(2))
        .sum::<f64>()
        / n
}

/// The scale `K` that fits best for fixed weights (a log-spaced scan, then refinement).
pub fn fit_k(samples: &[Sample], w: &[f64; N_FEATURES]) -> f64 {
    let mut best = (f64::INFINITY, 0.01);
    for i in 0..=60 {
        let k = 1e-4 * 10f64.powf(f64::from(i) / 20.0);
        let e = error(samples, w, k);
        if e < best.0 {
            best = (e, k);
        }
    }
    let (mut lo, mut hi) = (best.1 / 1.2, best.1 * 1.2);
    for _ in 0..40 {
        let m1 = lo + (hi - lo) / 3.0;
        let m2 = hi - (hi - lo) / 3.0;
        if error(samples, w, m1) < error(samples, w, m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    (lo + hi) / 2.0
}

/// What a fit produced.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    pub weights: Weights,
    pub k: f64,
    pub error_before: f64,
    pub error_after: f64,
}

/// Fits the weights by Adam on the squared error, the `pinned` ones held at their start values
/// (the man, so the scale of values stays in hundredths of a man); `K` is fitted first and held.
pub fn tune(samples: &[Sample], start: &Weights, pinned: &[usize], iterations: usize) -> Fit {
    let mut w: [f64; N_FEATURES] = start.map(f64::from);
    let k = fit_k(samples, &w);
    let error_before = error(samples, &w, k);
    let n = samples.len().max(1) as f64;
    let (b1, b2, lr, eps) = (0.9, 0.999, 1.0, 1e-8);
    let mut m = [0.0; N_FEATURES];
    let mut v = [0.0; N_FEATURES];
    for t in 1..=iterations {
        let mut grad = [0.0; N_FEATURES];
        for s in samples {
            let p = sigmoid(k * value(&s.features, &w));
            let g = 2.0 * (p - s.white_points) * p * (1.0 - p) * k / n;
            for (gi, f) in grad.iter_mut().zip(s.features.iter()) {
                *gi += g * f64::from(*f);
            }
        }
        for i in 0..N_FEATURES {
            if pinned.contains(&i) {
                continue;
            }
            m[i] = b1 * m[i] + (1.0 - b1) * grad[i];
            v[i] = b2 * v[i] + (1.0 - b2) * grad[i] * grad[i];
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            w[i] -= lr * mh / (vh.sqrt() + eps);
        }
    }
    let weights = w.map(|x| x.round() as i32);
    let rounded = weights.map(f64::from);
    Fit {
        weights,
        k,
        error_before,
        error_after: error(samples, &rounded, k),
    }
}

/// Plays weights `a` against weights `b`, every opening with both colours, alpha-beta with
/// `limits` on both sides, `threads` games at a time; `a`'s results.
pub fn weights_match(
    a: &Weights,
    b: &Weights,
    limits: &Limits,
    openings: &[Opening],
    threads: usize,
) -> Tally {
    let tally = Mutex::new(Tally::default());
    play_games(
        openings,
        2 * openings.len(),
        threads,
        limits,
        |_| (AlphaBeta::with_weights(*a), AlphaBeta::with_weights(*b)),
        |game, color| {
            if let Ok(mut t) = tally.lock() {
                t.add(points(game.result(), color));
            }
        },
    );
    tally.into_inner().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_weights_that_generated_the_labels() {
        // Synthetic samples whose expected results come from known weights: the fit must move
        // a wrong start towards them and lower the error.
        let truth: [f64; N_FEATURES] =
            [100.0, 300.0, 10.0, 5.0, 0.0, 0.0, 0.0, 20.0, 3.0, 0.0, -5.0];
        let k = 0.01;
        let mut samples = Vec::new();
        let mut x = 12345u64;
        for _ in 0..3000 {
            let mut f = [0i32; N_FEATURES];
            for fi in f.iter_mut() {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                *fi = ((x >> 33) % 7) as i32 - 3;
            }
            samples.push(Sample {
                features: f,
                white_points: sigmoid(k * value(&f, &truth)),
            });
        }
        let start: Weights = [100, 100, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        let fit = tune(&samples, &start, &[0], 300);
        assert!(fit.error_after < fit.error_before / 4.0, "{fit:?}");
        assert_eq!(fit.weights[0], 100);
        assert!((fit.weights[1] - 300).abs() < 60, "{fit:?}");
    }

    #[test]
    fn samples_skip_positions_with_a_capture_pending() {
        let mut g = Game::new();
        for m in ["c3-d4", "f6-e5"] {
            g.play_text(m).expect("legal");
        }
        // After f6-e5 White must capture: that position is not a sample.
        let s = samples_from_game(&g, 0);
        assert_eq!(s.len(), 2);
        assert!(s.iter().all(|s| s.white_points == 0.5));
    }
}
