//! The network and its training, in `burn`. The model predicts a win probability as
//! `sigmoid(a * K * linear + net(x))`: the linear evaluation (scaled by a learnt `a`) plus a
//! one-hidden-layer network over the pieces. Only `net` goes to the planner, rescaled into the
//! linear evaluation's hundredths of a man, so the search adds it to what it already computes.

use burn::module::Initializer;
use burn::nn::{Linear, LinearConfig};
use burn::optim::{AdamConfig, GradientsParams};
use burn::prelude::*;
use burn::tensor::activation;

use search::{active_inputs, evaluate, EvalNet, INPUTS, WEIGHTS};

use crate::data::Sample;

/// The CPU device the model trains on (burn's pure-Rust `flex` backend, as `zero`'s networks).
pub fn cpu() -> Device {
    Device::flex()
}

#[derive(Module, Debug)]
pub struct Model {
    hidden: Linear,
    out: Linear,
    /// `a`: how much the linear evaluation counts (1 x 1, no bias).
    linear: Linear,
}

impl Model {
    /// A model that starts as the linear evaluation alone: the output layer is zero.
    pub fn new(hidden: usize, device: &Device) -> Model {
        Model {
            hidden: LinearConfig::new(INPUTS, hidden).init(device),
            out: LinearConfig::new(hidden, 1)
                .with_initializer(Initializer::Zeros)
                .init(device),
            linear: LinearConfig::new(1, 1)
                .with_bias(false)
                .with_initializer(Initializer::Ones)
                .init(device),
        }
    }

    /// The network's part of the logit, `[n, 1]`.
    pub fn correction(&self, x: Tensor<2>) -> Tensor<2> {
        self.out.forward(activation::relu(self.hidden.forward(x)))
    }

    /// The logit of the side to move's expected score, `[n, 1]`.
    pub fn forward(&self, x: Tensor<2>, linear: Tensor<2>) -> Tensor<2> {
        self.correction(x) + self.linear.forward(linear)
    }

    /// The planner's network: the correction in hundredths of a man.
    pub fn export(&self) -> Result<EvalNet, TrainError> {
        let values = |t: Tensor<2>| t.into_data().try_to_vec::<f32>().unwrap_or_default();
        let bias = |l: &Linear| {
            l.bias
                .as_ref()
                .map(|b| b.val().into_data().try_to_vec::<f32>().unwrap_or_default())
                .unwrap_or_default()
        };
        let a = values(self.linear.weight.val())
            .first()
            .copied()
            .unwrap_or(0.0);
        // Logit per hundredth of a man.
        let per_unit = a * search::VALUE_SCALE_K as f32;
        if !(per_unit.is_finite() && per_unit > 1e-6) {
            return Err(TrainError::Scale(a));
        }
        let w2: Vec<f32> = values(self.out.weight.val())
            .iter()
            .map(|w| w / per_unit)
            .collect();
        let b2 = bias(&self.out).first().copied().unwrap_or(0.0) / per_unit;
        EvalNet::new(values(self.hidden.weight.val()), bias(&self.hidden), w2, b2)
            .map_err(TrainError::Net)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    #[error("no training samples")]
    Empty,
    #[error("the linear evaluation's learnt weight {0} is not positive: nothing to scale by")]
    Scale(f32),
    #[error(transparent)]
    Net(#[from] search::NetError),
}

/// Samples as the model's inputs: the one-hot pieces, `K x` the linear evaluation, and the
/// target.
#[derive(Clone, Debug, Default)]
pub struct Encoded {
    pub x: Vec<f32>,
    pub linear: Vec<f32>,
    pub target: Vec<f32>,
}

impl Encoded {
    /// `mcts_weight` mixes the two labels: 1 is MCTS's value alone, 0 the game's result.
    pub fn new(samples: &[Sample], mcts_weight: f32) -> Encoded {
        let mut e = Encoded {
            x: vec![0.0; samples.len() * INPUTS],
            linear: Vec::with_capacity(samples.len()),
            target: Vec::with_capacity(samples.len()),
        };
        for (row, s) in e.x.chunks_mut(INPUTS).zip(samples) {
            let (n, active) = active_inputs(&s.pos);
            for &i in &active[..n] {
                row[usize::from(i)] = 1.0;
            }
            e.linear
                .push(evaluate(&s.pos, &WEIGHTS) as f32 * search::VALUE_SCALE_K as f32);
            e.target
                .push(mcts_weight * s.mcts + (1.0 - mcts_weight) * s.result);
        }
        e
    }

    pub fn len(&self) -> usize {
        self.target.len()
    }

    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }

    /// Rows `idx` as tensors: inputs `[n, INPUTS]`, linear `[n, 1]`, target `[n, 1]`.
    fn batch(&self, idx: &[usize], device: &Device) -> (Tensor<2>, Tensor<2>, Tensor<2>) {
        let n = idx.len();
        let mut x = Vec::with_capacity(n * INPUTS);
        for &i in idx {
            x.extend_from_slice(&self.x[i * INPUTS..(i + 1) * INPUTS]);
        }
        let col = |v: &[f32]| idx.iter().map(|&i| v[i]).collect::<Vec<f32>>();
        (
            Tensor::from_data(TensorData::new(x, [n, INPUTS]), device),
            Tensor::from_data(TensorData::new(col(&self.linear), [n, 1]), device),
            Tensor::from_data(TensorData::new(col(&self.target), [n, 1]), device),
        )
    }
}

/// Cross-entropy of soft targets, averaged.
fn loss(logit: Tensor<2>, target: Tensor<2>) -> Tensor<1> {
    let pos = target.clone() * activation::log_sigmoid(logit.clone());
    let neg = (target.neg() + 1.0) * activation::log_sigmoid(logit.neg());
    (pos + neg).mean().neg()
}

#[derive(Clone, Debug)]
pub struct FitConfig {
    pub hidden: usize,
    pub epochs: usize,
    pub batch: usize,
    pub learning_rate: f64,
    pub seed: u64,
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    pub epoch: usize,
    pub train_loss: f64,
    pub valid_loss: f64,
}

/// A small xorshift: the shuffles are reproducible for a seed.
fn shuffle(v: &mut [usize], state: &mut u64) {
    for i in (1..v.len()).rev() {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        v.swap(i, (*state % (i as u64 + 1)) as usize);
    }
}

/// The mean loss of `model` on `data`.
pub fn mean_loss(model: &Model, data: &Encoded, device: &Device) -> f64 {
    let idx: Vec<usize> = (0..data.len()).collect();
    let mut total = 0.0;
    for chunk in idx.chunks(4096) {
        let (x, lin, t) = data.batch(chunk, device);
        let l: f32 = loss(model.forward(x, lin), t).into_scalar::<f32>();
        total += f64::from(l) * chunk.len() as f64;
    }
    total / data.len().max(1) as f64
}

/// Trains a model on `train`, reporting the loss on `valid` after each epoch.
pub fn fit(
    train: &Encoded,
    valid: &Encoded,
    cfg: &FitConfig,
    mut on_epoch: impl FnMut(Epoch),
) -> Result<Model, TrainError> {
    if train.is_empty() {
        return Err(TrainError::Empty);
    }
    let device = cpu().autodiff();
    device.seed(cfg.seed);
    let mut model = Model::new(cfg.hidden, &device);
    let mut optim = AdamConfig::new().init();
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = cfg.seed | 1;
    for epoch in 1..=cfg.epochs {
        shuffle(&mut order, &mut rng);
        let mut total = 0.0;
        for chunk in order.chunks(cfg.batch.max(1)) {
            let (x, lin, t) = train.batch(chunk, &device);
            let l = loss(model.forward(x, lin), t);
            total += f64::from(l.clone().into_scalar::<f32>()) * chunk.len() as f64;
            let grads = GradientsParams::from_grads(l.backward(), &model);
            model = optim.step(cfg.learning_rate, model, grads);
        }
        on_epoch(Epoch {
            epoch,
            train_loss: total / train.len() as f64,
            valid_loss: mean_loss(&model.valid(), valid, &cpu()),
        });
    }
    Ok(model)
}

/// The loss of the linear evaluation alone with its best scale and offset: what the network
/// has to beat. Fitted by Newton's method on the two parameters.
pub fn linear_baseline(train: &Encoded, valid: &Encoded) -> f64 {
    let (mut a, mut b) = (1.0f64, 0.0f64);
    for _ in 0..30 {
        let (mut ga, mut gb, mut haa, mut hab, mut hbb) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for (&x, &t) in train.linear.iter().zip(&train.target) {
            let x = f64::from(x);
            let p = 1.0 / (1.0 + (-(a * x + b)).exp());
            let (g, h) = (p - f64::from(t), p * (1.0 - p));
            ga += g * x;
            gb += g;
            haa += h * x * x;
            hab += h * x;
            hbb += h;
        }
        let det = haa * hbb - hab * hab;
        if det.abs() < 1e-12 {
            break;
        }
        a -= (hbb * ga - hab * gb) / det;
        b -= (haa * gb - hab * ga) / det;
    }
    let n = valid.len().max(1) as f64;
    valid
        .linear
        .iter()
        .zip(&valid.target)
        .map(|(&x, &t)| {
            let z = a * f64::from(x) + b;
            let (t, lp, ln) = (f64::from(t), -softplus(-z), -softplus(z));
            -(t * lp + (1.0 - t) * ln)
        })
        .sum::<f64>()
        / n
}

fn softplus(z: f64) -> f64 {
    if z > 30.0 {
        z
    } else {
        z.exp().ln_1p()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use draughts::Position;

    fn samples() -> Vec<Sample> {
        // Positions from a few random playouts, labelled by a rule the linear evaluation does
        // not know: the side to move does well with men on the long diagonal's squares.
        let mut out = Vec::new();
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..40 {
            let mut pos = Position::start();
            for _ in 0..30 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                pos = pos.after(&moves[(rng % moves.len() as u64) as usize]);
                if pos.occupied().count_ones() >= 5 && !pos.has_capture() {
                    let (n, a) = active_inputs(&pos);
                    let good = a[..n].iter().filter(|&&i| i < 32 && i % 5 == 0).count();
                    let mcts = (0.2 + 0.15 * good as f32).min(1.0);
                    out.push(Sample {
                        pos,
                        mcts,
                        result: 0.5,
                    });
                }
            }
        }
        out
    }

    #[test]
    fn training_beats_the_linear_baseline_and_exports_what_it_learnt() {
        let all = samples();
        let split = all.len() * 9 / 10;
        let (train, valid) = (
            Encoded::new(&all[..split], 1.0),
            Encoded::new(&all[split..], 1.0),
        );
        let cfg = FitConfig {
            hidden: 8,
            epochs: 60,
            batch: 64,
            learning_rate: 1e-2,
            seed: 3,
        };
        let mut last = None;
        let model = fit(&train, &valid, &cfg, |e| last = Some(e)).expect("fit");
        let last = last.expect("epochs ran");
        let baseline = linear_baseline(&train, &valid);
        assert!(
            last.valid_loss < baseline - 0.01,
            "network {last:?} against linear {baseline}"
        );

        // The planner's plain-Rust network gives burn's correction, in hundredths of a man.
        let net = model.export().expect("export");
        let model = model.valid();
        let device = cpu();
        let a = model.linear.weight.val().into_scalar::<f32>() * search::VALUE_SCALE_K as f32;
        for s in all.iter().take(20) {
            let e = Encoded::new(std::slice::from_ref(s), 1.0);
            let (x, _, _) = e.batch(&[0], &device);
            let burn_value: f32 = model.correction(x).into_scalar::<f32>() / a;
            let plain = net.output(&s.pos);
            assert!(
                (burn_value - plain).abs() < 1e-2 * (1.0 + plain.abs()),
                "burn {burn_value} plain {plain}"
            );
        }
        // And it survives the text file.
        let back = EvalNet::parse(&net.to_text()).expect("parse");
        assert_eq!(back.hidden(), 8);
    }

    #[test]
    fn fitting_nothing_is_an_error() {
        let empty = Encoded::default();
        let cfg = FitConfig {
            hidden: 4,
            epochs: 1,
            batch: 8,
            learning_rate: 1e-3,
            seed: 1,
        };
        assert!(matches!(
            fit(&empty, &empty, &cfg, |_| {}),
            Err(TrainError::Empty)
        ));
    }
}
