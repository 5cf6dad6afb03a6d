//! Fits the pattern evaluation (`search::Patterns`) by logistic regression: the
//! logit of the side to move's expected score is a sum of weights picked by the position, so
//! the loss is cross-entropy against the game's result (blended, if asked, with the self-play
//! search's value of the position) and its gradient touches only the
//! weights the position picks. Adam, updated lazily (a weight's moments move only when a
//! minibatch touches it), with a little L2 on the window tables so that rare configurations
//! stay near zero. Plain Rust: no network, nothing for `burn` to do.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use search::{Active, Patterns, N_WEIGHTS};

use crate::selfplay::Record;

#[derive(Clone, Copy, Debug)]
pub struct PatternFitConfig {
    pub epochs: usize,
    pub batch: usize,
    pub learning_rate: f32,
    pub l2: f32,
    pub seed: u64,
    /// The share of the self-play search's value in the target (`Record::blended_target`).
    /// The validation loss is always against the results, so fits compare whatever this is.
    pub search_weight: f32,
}

impl Default for PatternFitConfig {
    fn default() -> Self {
        PatternFitConfig {
            epochs: 4,
            batch: 256,
            learning_rate: 2e-3,
            l2: 1e-6,
            seed: 1,
            search_weight: 0.0,
        }
    }
}

/// What one epoch ended with.
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    pub epoch: usize,
    pub train_loss: f64,
    pub valid_loss: f64,
}

pub(crate) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of `p` against the target `t`, clamped away from the logarithm's pole.
pub(crate) fn cross_entropy(p: f32, t: f32) -> f64 {
    let p = f64::from(p).clamp(1e-7, 1.0 - 1e-7);
    let t = f64::from(t);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// The mean loss of `patterns` over `records`.
pub fn loss(patterns: &Patterns, records: &[Record]) -> f64 {
    if records.is_empty() {
        return 0.0;
    }
    let total: f64 = records
        .iter()
        .map(|r| cross_entropy(sigmoid(patterns.logit(&r.pos)), r.target()))
        .sum();
    total / records.len() as f64
}

/// What a fit found.
#[derive(Clone, Debug)]
pub struct Fitted {
    /// The weights of the epoch with the lowest validation loss (the start's, if none beat it).
    pub patterns: Patterns,
    pub start_loss: f64,
    pub best_loss: f64,
}

/// Trains `start` on `train`, reporting each epoch's losses (`valid` held out), and returns
/// the weights of the epoch with the lowest validation loss.
pub fn fit(
    start: Patterns,
    train: &[Record],
    valid: &[Record],
    cfg: &PatternFitConfig,
    mut on_batch: impl FnMut(usize),
    mut on_epoch: impl FnMut(Epoch),
) -> Fitted {
    let mut model = start;
    let start_loss = loss(&model, valid);
    let mut best = (start_loss, model.clone());
    let mut m = vec![0f32; N_WEIGHTS];
    let mut v = vec![0f32; N_WEIGHTS];
    let mut grad = vec![0f32; N_WEIGHTS];
    let mut touched: Vec<u32> = Vec::new();
    let mut seen = vec![false; N_WEIGHTS];
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    for epoch in 1..=cfg.epochs {
        order.shuffle(&mut rng);
        let mut train_loss = 0.0;
        for chunk in order.chunks(cfg.batch.max(1)) {
            for &i in chunk {
                let r = &train[i];
                let inputs = Active::of(&r.pos);
                let p = sigmoid(model.logit_of(&inputs));
                let target = r.blended_target(cfg.search_weight);
                train_loss += cross_entropy(p, target);
                let err = (p - target) / chunk.len() as f32;
                for &(w, x) in inputs.items() {
                    grad[w as usize] += err * x;
                    if !seen[w as usize] {
                        seen[w as usize] = true;
                        touched.push(w);
                    }
                }
            }
            step += 1;
            let lr = cfg.learning_rate * (1.0 - b2.powi(step)).sqrt() / (1.0 - b1.powi(step));
            let weights = model.weights_mut();
            for &w in &touched {
                let w = w as usize;
                let g = grad[w] + cfg.l2 * weights[w];
                m[w] = b1 * m[w] + (1.0 - b1) * g;
                v[w] = b2 * v[w] + (1.0 - b2) * g * g;
                weights[w] -= lr * m[w] / (v[w].sqrt() + eps);
                grad[w] = 0.0;
                seen[w] = false;
            }
            touched.clear();
            on_batch(chunk.len());
        }
        let valid_loss = loss(&model, valid);
        on_epoch(Epoch {
            epoch,
            train_loss: train_loss / train.len().max(1) as f64,
            valid_loss,
        });
        if valid_loss < best.0 {
            best = (valid_loss, model.clone());
        }
    }
    Fitted {
        patterns: best.1,
        start_loss,
        best_loss: best.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use draughts::parse_fen;

    /// Labels that the linear evaluation cannot know: a side with a man on square 13 (c5 for
    /// White, seen from the mover) always wins. The windows learn it.
    #[test]
    fn fitting_learns_what_the_windows_see() {
        let fens = [
            "W:W13,21,22,23:B1,2,3,4",
            "W:W14,21,22,23:B1,2,3,4",
            "W:W13,24,27,28:B5,6,7,8",
            "W:W15,24,27,28:B5,6,7,8",
        ];
        let records: Vec<Record> = fens
            .iter()
            .cycle()
            .take(400)
            .map(|f| {
                let pos = parse_fen(f).expect("fen");
                let white_points = if f.contains("W13") { 2 } else { 0 };
                Record {
                    pos,
                    white_points,
                    search: None,
                }
            })
            .collect();
        let start = Patterns::from_linear();
        let before = loss(&start, &records);
        let cfg = PatternFitConfig {
            epochs: 30,
            batch: 16,
            learning_rate: 0.05,
            ..PatternFitConfig::default()
        };
        let fitted = fit(start, &records, &records, &cfg, |_| {}, |_| {});
        let after = loss(&fitted.patterns, &records);
        assert!(after < 0.1 && after < before / 3.0, "{before} -> {after}");
        assert_eq!(fitted.start_loss, before);
        assert_eq!(fitted.best_loss, after);
    }
}
