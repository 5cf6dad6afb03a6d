//! One round of training: minibatches drawn from the replay window, the AlphaZero loss (value
//! squared error plus policy cross-entropy against the search's visit shares), Adam with L2.

use burn::optim::decay::WeightDecayConfig;
use burn::optim::{AdamConfig, GradientsParams};
use burn::prelude::*;
use burn::tensor::activation::log_softmax;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use zero::encode::{ACTIONS, INPUT_LEN, PLANES};

use crate::net::{cpu, Net};

use crate::games::Sample;

#[derive(Clone, Copy, Debug)]
pub struct TrainConfig {
    pub steps: usize,
    pub batch: usize,
    pub learning_rate: f64,
    pub weight_decay: f32,
    /// Lowers the learning rate along a cosine to a tenth of it by the last step: for a long
    /// run over a large set (the warm start), where a fixed rate stops short of the minimum.
    pub cosine: bool,
}

impl TrainConfig {
    fn rate_at(&self, step: usize) -> f64 {
        if !self.cosine || self.steps <= 1 {
            return self.learning_rate;
        }
        let t = step as f64 / (self.steps - 1) as f64;
        let floor = self.learning_rate / 10.0;
        floor + (self.learning_rate - floor) * 0.5 * (1.0 + (std::f64::consts::PI * t).cos())
    }
}

/// The mean losses of a round.
#[derive(Clone, Copy, Debug, Default)]
pub struct Losses {
    pub value: f32,
    pub policy: f32,
}

/// Trains `net` (on an autodiff device) for `cfg.steps` minibatches from `rounds` (the replay
/// window). Each sample is drawn from a round picked uniformly, so that a large round (the warm
/// start's) does not drown the self-play rounds beside it.
pub fn train(
    net: Net,
    rounds: &[&[Sample]],
    cfg: &TrainConfig,
    seed: u64,
    mut on_step: impl FnMut(usize, Losses),
) -> (Net, Losses) {
    train_from(net, rounds, cfg, seed, 0, |step, losses, _| {
        on_step(step, losses)
    })
}

/// [`train`] from step `first` of `cfg.steps` (a resumed run: the optimizer starts afresh);
/// `on_step` also sees the network, to checkpoint it.
pub fn train_from(
    mut net: Net,
    rounds: &[&[Sample]],
    cfg: &TrainConfig,
    seed: u64,
    first: usize,
    mut on_step: impl FnMut(usize, Losses, &Net),
) -> (Net, Losses) {
    let device = cpu().autodiff();
    let mut optim = AdamConfig::new()
        .with_weight_decay(Some(WeightDecayConfig::new(cfg.weight_decay)))
        .init();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut mean = Losses::default();
    let rounds: Vec<&[Sample]> = rounds.iter().copied().filter(|r| !r.is_empty()).collect();
    let total: usize = rounds.iter().map(|r| r.len()).sum();
    if total == 0 {
        return (net, mean);
    }
    let b = cfg.batch.min(total).max(1);
    for step in first..cfg.steps {
        let mut x = Vec::with_capacity(b * INPUT_LEN);
        let mut p = Vec::with_capacity(b * ACTIONS);
        let mut z = Vec::with_capacity(b);
        for _ in 0..b {
            let round = rounds[rng.random_range(0..rounds.len())];
            let s = &round[rng.random_range(0..round.len())];
            x.extend_from_slice(&s.input);
            p.extend_from_slice(&s.dense_policy());
            z.push(s.value);
        }
        let x = Tensor::<4>::from_data(TensorData::new(x, [b, PLANES, 8, 8]), &device);
        let p = Tensor::<2>::from_data(TensorData::new(p, [b, ACTIONS]), &device);
        let z = Tensor::<2>::from_data(TensorData::new(z, [b, 1]), &device);
        let (logits, v) = net.forward(x);
        let value_loss = (v - z).powi_scalar(2).mean();
        let policy_loss = (p * log_softmax(logits, 1)).sum_dim(1).mean().neg();
        let loss = value_loss.clone() + policy_loss.clone();
        let losses = Losses {
            value: value_loss.into_scalar::<f32>(),
            policy: policy_loss.into_scalar::<f32>(),
        };
        let grads = GradientsParams::from_grads(loss.backward(), &net);
        net = optim.step(cfg.rate_at(step), net, grads);
        let k = (step + 1 - first) as f32;
        mean.value += (losses.value - mean.value) / k;
        mean.policy += (losses.policy - mean.policy) / k;
        on_step(step, losses, &net);
    }
    (net, mean)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cosine_falls_from_the_rate_to_a_tenth() {
        let cfg = TrainConfig {
            steps: 101,
            batch: 1,
            learning_rate: 1e-3,
            weight_decay: 0.0,
            cosine: true,
        };
        assert!((cfg.rate_at(0) - 1e-3).abs() < 1e-12);
        assert!((cfg.rate_at(50) - 5.5e-4).abs() < 1e-9);
        assert!((cfg.rate_at(100) - 1e-4).abs() < 1e-12);
        let flat = TrainConfig {
            cosine: false,
            ..cfg
        };
        assert_eq!(flat.rate_at(100), 1e-3);
    }
}
