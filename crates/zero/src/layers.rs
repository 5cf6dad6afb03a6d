//! The network's trained parameters as plain arrays, layer by layer, as training leaves them
//! (each convolution with its BatchNorm beside it): what a generation's file holds, and what
//! the trainer hands over. [`crate::folded`] turns them into what the planner runs.

use draughts::Rng;

use crate::encode::{ACTIONS, PLANES};

/// The shape of a network: residual blocks and filters per convolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub blocks: usize,
    pub filters: usize,
}

impl Shape {
    /// The shipped generations' shape, chosen by measuring speed on two cores (docs/zero.md).
    pub const DEFAULT: Shape = Shape {
        blocks: 4,
        filters: 32,
    };
}

/// Channels of the policy head's 1x1 convolution.
pub const POLICY_CHANNELS: usize = 4;
/// Channels of the value head's 1x1 convolution.
pub const VALUE_CHANNELS: usize = 2;
/// The value head's hidden layer.
pub const VALUE_HIDDEN: usize = 64;
/// Squares of the board the convolutions run over.
pub const SQUARES: usize = 64;

/// A convolution (no bias of its own: the BatchNorm's `beta` is it) and the BatchNorm after it.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvBn {
    pub c_in: usize,
    pub c_out: usize,
    /// 3 or 1.
    pub kernel: usize,
    /// `[c_out, c_in, kernel, kernel]`.
    pub weight: Vec<f32>,
    pub gamma: Vec<f32>,
    pub beta: Vec<f32>,
    pub running_mean: Vec<f32>,
    pub running_var: Vec<f32>,
    pub epsilon: f32,
}

/// A linear layer: `x * weight + bias`.
#[derive(Clone, Debug, PartialEq)]
pub struct Linear {
    pub d_in: usize,
    pub d_out: usize,
    /// `[d_in, d_out]`.
    pub weight: Vec<f32>,
    pub bias: Vec<f32>,
}

/// A residual block's two convolutions.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub first: ConvBn,
    pub second: ConvBn,
}

/// Every layer of the network: a stem, the residual tower, the policy head over [`ACTIONS`]
/// and the value head.
#[derive(Clone, Debug, PartialEq)]
pub struct Layers {
    pub stem: ConvBn,
    pub blocks: Vec<Block>,
    pub policy: ConvBn,
    pub policy_fc: Linear,
    pub value: ConvBn,
    pub value_fc1: Linear,
    pub value_fc2: Linear,
}

/// BatchNorm's epsilon in burn's default configuration, which the trainer uses.
pub const BN_EPSILON: f32 = 1e-5;

impl ConvBn {
    /// Every size the layer must have; the name says which layer is wrong.
    fn check(&self, name: &str, c_in: usize, c_out: usize, kernel: usize) -> Result<(), String> {
        let sizes = [
            ("weight", self.weight.len(), c_out * c_in * kernel * kernel),
            ("gamma", self.gamma.len(), c_out),
            ("beta", self.beta.len(), c_out),
            ("running_mean", self.running_mean.len(), c_out),
            ("running_var", self.running_var.len(), c_out),
        ];
        if (self.c_in, self.c_out, self.kernel) != (c_in, c_out, kernel) {
            return Err(format!(
                "{name} is {}x{} with kernel {}, not {c_in}x{c_out} with kernel {kernel}",
                self.c_in, self.c_out, self.kernel
            ));
        }
        for (part, len, want) in sizes {
            if len != want {
                return Err(format!("{name}.{part} has {len} values, not {want}"));
            }
        }
        Ok(())
    }

    /// Random weights at He's scale, unit BatchNorm statistics.
    fn random(c_in: usize, c_out: usize, kernel: usize, rng: &mut Rng) -> ConvBn {
        let fan_in = (c_in * kernel * kernel) as f64;
        ConvBn {
            c_in,
            c_out,
            kernel,
            weight: uniform(c_out * c_in * kernel * kernel, (6.0 / fan_in).sqrt(), rng),
            gamma: vec![1.0; c_out],
            beta: vec![0.0; c_out],
            running_mean: vec![0.0; c_out],
            running_var: vec![1.0; c_out],
            epsilon: BN_EPSILON,
        }
    }
}

impl Linear {
    fn check(&self, name: &str, d_in: usize, d_out: usize) -> Result<(), String> {
        if (self.d_in, self.d_out) != (d_in, d_out) {
            return Err(format!(
                "{name} is {}x{}, not {d_in}x{d_out}",
                self.d_in, self.d_out
            ));
        }
        if self.weight.len() != d_in * d_out || self.bias.len() != d_out {
            return Err(format!(
                "{name} has {} weights and {} biases, not {} and {d_out}",
                self.weight.len(),
                self.bias.len(),
                d_in * d_out
            ));
        }
        Ok(())
    }

    fn random(d_in: usize, d_out: usize, rng: &mut Rng) -> Linear {
        let bound = (1.0 / d_in as f64).sqrt();
        Linear {
            d_in,
            d_out,
            weight: uniform(d_in * d_out, bound, rng),
            bias: uniform(d_out, bound, rng),
        }
    }
}

fn uniform(n: usize, bound: f64, rng: &mut Rng) -> Vec<f32> {
    (0..n)
        .map(|_| ((rng.unit() * 2.0 - 1.0) * bound) as f32)
        .collect()
}

impl Layers {
    /// Random layers of `shape` (tests and benchmarks; the trainer draws its first generation
    /// with burn's own initialisation).
    pub fn random(shape: Shape, seed: u64) -> Layers {
        let mut rng = Rng::new(seed);
        let f = shape.filters;
        Layers {
            stem: ConvBn::random(PLANES, f, 3, &mut rng),
            blocks: (0..shape.blocks)
                .map(|_| Block {
                    first: ConvBn::random(f, f, 3, &mut rng),
                    second: ConvBn::random(f, f, 3, &mut rng),
                })
                .collect(),
            policy: ConvBn::random(f, POLICY_CHANNELS, 1, &mut rng),
            policy_fc: Linear::random(POLICY_CHANNELS * SQUARES, ACTIONS, &mut rng),
            value: ConvBn::random(f, VALUE_CHANNELS, 1, &mut rng),
            value_fc1: Linear::random(VALUE_CHANNELS * SQUARES, VALUE_HIDDEN, &mut rng),
            value_fc2: Linear::random(VALUE_HIDDEN, 1, &mut rng),
        }
    }

    /// The shape the layers claim, once every layer's sizes are checked against it.
    pub fn shape(&self) -> Result<Shape, String> {
        let shape = Shape {
            blocks: self.blocks.len(),
            filters: self.stem.c_out,
        };
        let f = shape.filters;
        self.stem.check("stem", PLANES, f, 3)?;
        for (i, b) in self.blocks.iter().enumerate() {
            b.first.check(&format!("blocks.{i}.first"), f, f, 3)?;
            b.second.check(&format!("blocks.{i}.second"), f, f, 3)?;
        }
        self.policy.check("policy", f, POLICY_CHANNELS, 1)?;
        self.policy_fc
            .check("policy_fc", POLICY_CHANNELS * SQUARES, ACTIONS)?;
        self.value.check("value", f, VALUE_CHANNELS, 1)?;
        self.value_fc1
            .check("value_fc1", VALUE_CHANNELS * SQUARES, VALUE_HIDDEN)?;
        self.value_fc2.check("value_fc2", VALUE_HIDDEN, 1)?;
        Ok(shape)
    }
}
