//! Fits the evaluation network ([`search::EvalNet`]) at scale, NNUE style, on the
//! self-play positions the pattern evaluation is fitted on: the logit of the side to move's
//! expected score is `a * base + net(x)`, where `base` is the logit of the evaluation the
//! network corrects (the linear terms or the pattern evaluation) and `x` the at most 24
//! pieces. The first layer is sparse (a position picks at most 24 of its 128 rows), so the
//! forward and backward passes walk only those rows: plain Rust, one core, millions of
//! positions an epoch. Adam on every weight, the output layer starting at zero so that an
//! untrained network changes nothing.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use search::{
    active_inputs, evaluate, EvalNet, NetError, Patterns, INPUTS, MIN_PIECES, NET_MAX_ACTIVE,
    VALUE_SCALE_K, WEIGHTS,
};

// An epoch's figures as the pattern fit reports them: both losses against the games' results,
// so that fits with different targets compare.
pub use crate::patterns_fit::Epoch;
use crate::patterns_fit::{cross_entropy, sigmoid};
use crate::selfplay::Record;

/// The evaluation the network corrects, as a logit.
#[derive(Clone, Debug)]
pub enum Base {
    /// The tuned linear evaluation (`net=1`).
    Linear,
    /// The pattern evaluation (`patterns=1,net=1`).
    Patterns(Patterns),
}

impl Base {
    /// The base evaluation's logit of `pos` for the side to move.
    pub fn logit(&self, pos: &draughts::Position) -> f32 {
        match self {
            Base::Linear => (f64::from(evaluate(pos, &WEIGHTS)) * VALUE_SCALE_K) as f32,
            Base::Patterns(p) => p.logit(pos),
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct NetFitConfig {
    pub hidden: usize,
    pub epochs: usize,
    pub batch: usize,
    pub learning_rate: f32,
    pub seed: u64,
    /// The share of the self-play search's value in the target (`Record::blended_target`).
    pub search_weight: f32,
}

impl Default for NetFitConfig {
    fn default() -> Self {
        NetFitConfig {
            hidden: 64,
            epochs: 4,
            batch: 256,
            learning_rate: 1e-3,
            seed: 1,
            search_weight: 1.0,
        }
    }
}

/// The training network: input-major `w1` (`INPUTS x hidden`), as the planner's.
#[derive(Clone, Debug)]
struct Weights {
    hidden: usize,
    /// `a`, the base evaluation's scale.
    scale: f32,
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
}

impl Weights {
    fn new(hidden: usize, rng: &mut StdRng) -> Weights {
        // Up to 24 rows are summed: keep each hidden unit's start near unit size.
        let spread = 1.0 / (NET_MAX_ACTIVE as f32).sqrt();
        Weights {
            hidden,
            scale: 1.0,
            w1: (0..INPUTS * hidden)
                .map(|_| rng.random_range(-spread..spread))
                .collect(),
            b1: vec![0.0; hidden],
            w2: vec![0.0; hidden],
            b2: 0.0,
        }
    }

    fn len(&self) -> usize {
        1 + self.w1.len() + self.b1.len() + self.w2.len() + 1
    }

    /// The hidden layer before its ReLU, into `acc`.
    fn hidden_of(&self, active: &[u16], acc: &mut [f32]) {
        acc.copy_from_slice(&self.b1);
        for &i in active {
            let row = &self.w1[usize::from(i) * self.hidden..][..self.hidden];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The network's part of the logit, given its hidden layer.
    fn output(&self, acc: &[f32]) -> f32 {
        acc.iter()
            .zip(&self.w2)
            .map(|(a, w)| a.max(0.0) * w)
            .sum::<f32>()
            + self.b2
    }

    fn logit(&self, base: f32, active: &[u16], acc: &mut [f32]) -> f32 {
        self.hidden_of(active, acc);
        self.scale * base + self.output(acc)
    }

    /// The planner's network: the correction in the base evaluation's hundredths of a man.
    fn export(&self) -> Result<EvalNet, NetFitError> {
        let per_unit = self.scale * VALUE_SCALE_K as f32;
        if !(per_unit.is_finite() && per_unit > 1e-6) {
            return Err(NetFitError::Scale(self.scale));
        }
        Ok(EvalNet::new(
            self.w1.clone(),
            self.b1.clone(),
            self.w2.iter().map(|w| w / per_unit).collect(),
            self.b2 / per_unit,
        )?)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum NetFitError {
    #[error("no training positions of {MIN_PIECES} or more pieces")]
    Empty,
    #[error("the base evaluation's learnt scale {0} is not positive: nothing to scale by")]
    Scale(f32),
    #[error(transparent)]
    Net(#[from] NetError),
}

/// A position the network sees: its inputs, the base logit, the target and the result.
struct Example {
    active: [u16; NET_MAX_ACTIVE],
    n: u8,
    base: f32,
    target: f32,
    result: f32,
}

fn examples(records: &[Record], base: &Base, search_weight: f32) -> Vec<Example> {
    records
        .iter()
        .filter(|r| r.pos.occupied().count_ones() >= MIN_PIECES)
        .map(|r| {
            let (n, active) = active_inputs(&r.pos);
            Example {
                active,
                n: n as u8,
                base: base.logit(&r.pos),
                target: r.blended_target(search_weight),
                result: r.target(),
            }
        })
        .collect()
}

fn mean_loss(w: &Weights, examples: &[Example], against: impl Fn(&Example) -> f32) -> f64 {
    let mut acc = vec![0f32; w.hidden];
    let total: f64 = examples
        .iter()
        .map(|e| {
            let p = sigmoid(w.logit(e.base, &e.active[..usize::from(e.n)], &mut acc));
            cross_entropy(p, against(e))
        })
        .sum();
    total / examples.len().max(1) as f64
}

/// What a fit found.
#[derive(Clone, Debug)]
pub struct FittedNet {
    /// The network of the epoch with the lowest validation loss.
    pub net: EvalNet,
    /// The base evaluation alone (at scale 1, no network), on the validation positions.
    pub base_loss: f64,
    pub best_loss: f64,
    /// The base evaluation's learnt scale `a`.
    pub scale: f32,
}

/// Trains a network over `base` on `train`, reporting each epoch (`valid` held out), and
/// returns the epoch with the lowest validation loss.
pub fn fit(
    base: &Base,
    train: &[Record],
    valid: &[Record],
    cfg: &NetFitConfig,
    mut on_batch: impl FnMut(usize),
    mut on_epoch: impl FnMut(Epoch),
) -> Result<FittedNet, NetFitError> {
    let train = examples(train, base, cfg.search_weight);
    let valid = examples(valid, base, cfg.search_weight);
    if train.is_empty() {
        return Err(NetFitError::Empty);
    }
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let h = cfg.hidden;
    let mut w = Weights::new(h, &mut rng);
    let base_loss = mean_loss(&w, &valid, |e| e.result);
    let mut best: Option<(f64, Weights)> = None;
    // Gradients and Adam moments, flat in the order scale, w1, b1, w2, b2.
    let n = w.len();
    let (mut g, mut m, mut v) = (vec![0f32; n], vec![0f32; n], vec![0f32; n]);
    let (o_w1, o_b1) = (1, 1 + INPUTS * h);
    let (o_w2, o_b2) = (o_b1 + h, o_b1 + 2 * h);
    let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut acc = vec![0f32; h];
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut step = 0i32;
    for epoch in 1..=cfg.epochs {
        order.shuffle(&mut rng);
        let mut train_loss = 0.0;
        for chunk in order.chunks(cfg.batch.max(1)) {
            for &i in chunk {
                let e = &train[i];
                let active = &e.active[..usize::from(e.n)];
                let p = sigmoid(w.logit(e.base, active, &mut acc));
                train_loss += cross_entropy(p, e.result);
                let err = (p - e.target) / chunk.len() as f32;
                g[0] += err * e.base;
                g[o_b2] += err;
                for (j, (&hj, &w2j)) in acc.iter().zip(&w.w2).enumerate() {
                    if hj > 0.0 {
                        g[o_w2 + j] += err * hj;
                        let dh = err * w2j;
                        g[o_b1 + j] += dh;
                        for &a in active {
                            g[o_w1 + usize::from(a) * h + j] += dh;
                        }
                    }
                }
            }
            step += 1;
            let lr = cfg.learning_rate * (1.0 - beta2.powi(step)).sqrt() / (1.0 - beta1.powi(step));
            let mut update = |k: usize, x: &mut f32| {
                let gk = g[k];
                m[k] = beta1 * m[k] + (1.0 - beta1) * gk;
                v[k] = beta2 * v[k] + (1.0 - beta2) * gk * gk;
                *x -= lr * m[k] / (v[k].sqrt() + eps);
                g[k] = 0.0;
            };
            update(0, &mut w.scale);
            for (k, x) in w.w1.iter_mut().enumerate() {
                update(o_w1 + k, x);
            }
            for (k, x) in w.b1.iter_mut().enumerate() {
                update(o_b1 + k, x);
            }
            for (k, x) in w.w2.iter_mut().enumerate() {
                update(o_w2 + k, x);
            }
            update(o_b2, &mut w.b2);
            on_batch(chunk.len());
        }
        let valid_loss = mean_loss(&w, &valid, |e| e.result);
        on_epoch(Epoch {
            epoch,
            train_loss: train_loss / train.len() as f64,
            valid_loss,
        });
        if best.as_ref().is_none_or(|(l, _)| valid_loss < *l) {
            best = Some((valid_loss, w.clone()));
        }
    }
    let (best_loss, w) = best.unwrap_or((f64::INFINITY, w));
    Ok(FittedNet {
        net: w.export()?,
        base_loss,
        best_loss,
        scale: w.scale,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use draughts::Position;

    /// Positions from random playouts, labelled by a rule the linear evaluation does not know:
    /// the side to move does well with men on every fifth square of its own plane.
    fn records() -> Vec<Record> {
        let mut out = Vec::new();
        let mut rng = StdRng::seed_from_u64(7);
        for _ in 0..120 {
            let mut pos = Position::start();
            for _ in 0..30 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos = pos.after(&moves[rng.random_range(0..moves.len())]);
                if pos.occupied().count_ones() >= MIN_PIECES && !pos.has_capture() {
                    let (n, a) = active_inputs(&pos);
                    let good = a[..n].iter().filter(|&&i| i < 32 && i % 5 == 0).count();
                    out.push(Record {
                        pos,
                        white_points: 1,
                        search: Some((0.1 + 0.15 * good as f32).min(1.0)),
                    });
                }
            }
        }
        out
    }

    #[test]
    fn the_network_learns_what_the_base_misses() {
        let all = records();
        let (train, valid) = all.split_at(all.len() * 9 / 10);
        let cfg = NetFitConfig {
            hidden: 8,
            epochs: 30,
            batch: 32,
            learning_rate: 1e-2,
            seed: 3,
            search_weight: 1.0,
        };
        let fitted = fit(&Base::Linear, train, valid, &cfg, |_| {}, |_| {}).expect("fit");
        // The planner's sum (the base plus the exported correction, read at the fitted scale)
        // against the search's values, which the rule made (the results are all draws).
        let rows: Vec<(f32, f32)> = valid
            .iter()
            .map(|r| {
                let hundredths = evaluate(&r.pos, &WEIGHTS) as f32 + fitted.net.output(&r.pos);
                let logit = fitted.scale * hundredths * VALUE_SCALE_K as f32;
                (sigmoid(logit), r.search.unwrap_or(0.5))
            })
            .collect();
        let loss = |f: &dyn Fn(f32) -> f32| {
            rows.iter()
                .map(|&(p, t)| cross_entropy(f(p), t))
                .sum::<f64>()
                / rows.len() as f64
        };
        let mean = rows.iter().map(|r| r.1).sum::<f32>() / rows.len() as f32;
        let (with_net, constant) = (loss(&|p| p), loss(&|_| mean));
        assert!(
            with_net < constant - 0.01,
            "network {with_net} against constant {constant}"
        );
    }

    #[test]
    fn the_export_gives_the_training_logit_in_hundredths_of_a_man() {
        let mut rng = StdRng::seed_from_u64(5);
        let mut w = Weights::new(6, &mut rng);
        w.scale = 0.8;
        w.w2 = (0..6).map(|_| rng.random_range(-1.0..1.0)).collect();
        w.b2 = 0.3;
        let net = w.export().expect("export");
        let mut acc = vec![0f32; 6];
        for r in records().iter().take(50) {
            let (n, active) = active_inputs(&r.pos);
            let base = Base::Linear.logit(&r.pos);
            let trained = w.logit(base, &active[..n], &mut acc);
            let hundredths = evaluate(&r.pos, &WEIGHTS) as f32 + net.exact_output(&r.pos);
            let planner = w.scale * hundredths * VALUE_SCALE_K as f32;
            assert!(
                (trained - planner).abs() < 1e-3 * (1.0 + trained.abs()),
                "trained {trained} planner {planner}"
            );
        }
    }

    #[test]
    fn fitting_nothing_is_an_error() {
        let cfg = NetFitConfig::default();
        assert!(matches!(
            fit(&Base::Linear, &[], &[], &cfg, |_| {}, |_| {}),
            Err(NetFitError::Empty)
        ));
    }
}
