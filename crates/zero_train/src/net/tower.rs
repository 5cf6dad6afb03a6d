//! The policy-value network in burn, for training: a residual tower of 3x3 convolutions over
//! the 8x8 board, a policy head over the [`ACTIONS`] and a value head in [-1, 1], as in
//! AlphaZero and the robot paper. The planner runs the same layers in plain Rust
//! ([`zero::Layers`], [`Net::layers`]).

use burn::module::{Param, RunningState};
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{BatchNorm, BatchNormConfig, Linear, LinearConfig, PaddingConfig2d};
use burn::prelude::*;
use burn::tensor::activation::relu;

use zero::encode::{ACTIONS, PLANES};
use zero::layers::{self, Shape, POLICY_CHANNELS, VALUE_CHANNELS, VALUE_HIDDEN};

fn conv3(c_in: usize, c_out: usize, device: &Device) -> Conv2d {
    Conv2dConfig::new([c_in, c_out], [3, 3])
        .with_padding(PaddingConfig2d::Same)
        .with_bias(false)
        .init(device)
}

fn conv1(c_in: usize, c_out: usize, device: &Device) -> Conv2d {
    Conv2dConfig::new([c_in, c_out], [1, 1])
        .with_bias(false)
        .init(device)
}

fn values<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.into_data()
        .convert::<f32>()
        .try_into_vec::<f32>()
        .unwrap_or_default()
}

fn conv_bn(conv: &Conv2d, bn: &BatchNorm) -> layers::ConvBn {
    let [c_out, c_in, kernel, _] = conv.weight.dims();
    layers::ConvBn {
        c_in,
        c_out,
        kernel,
        weight: values(conv.weight.val()),
        gamma: values(bn.gamma.val()),
        beta: values(bn.beta.val()),
        running_mean: values(bn.running_mean.value()),
        running_var: values(bn.running_var.value()),
        epsilon: bn.epsilon as f32,
    }
}

fn linear(layer: &Linear) -> layers::Linear {
    let [d_in, d_out] = layer.weight.dims();
    layers::Linear {
        d_in,
        d_out,
        weight: values(layer.weight.val()),
        bias: match &layer.bias {
            Some(b) => values(b.val()),
            None => vec![0.0; d_out],
        },
    }
}

/// `fresh` (a convolution with at least `old`'s channels) holding `old`'s weights, with nothing
/// from its new input channels reaching the old output channels ([`Net::grown`]).
fn grown_conv(old: &Conv2d, fresh: Conv2d) -> Conv2d {
    let w_old = old.weight.val();
    let [o, i, kh, kw] = w_old.dims();
    let mut w = fresh.weight.val();
    let [_, ni, _, _] = w.dims();
    if ni > i {
        w = w.slice_fill([0..o, i..ni, 0..kh, 0..kw], 0.0f32);
    }
    let w = w.slice_assign([0..o, 0..i, 0..kh, 0..kw], w_old);
    let mut conv = fresh;
    conv.weight = Param::from_tensor(w);
    conv
}

/// `fresh` (a BatchNorm over at least `old`'s channels) holding `old`'s values on its channels.
fn grown_bn(old: &BatchNorm, fresh: BatchNorm) -> BatchNorm {
    let n = old.gamma.dims()[0];
    let put = |new: Tensor<1>, old: Tensor<1>| new.slice_assign(0..n, old);
    let mut bn = fresh;
    bn.gamma = Param::from_tensor(put(bn.gamma.val(), old.gamma.val()));
    bn.beta = Param::from_tensor(put(bn.beta.val(), old.beta.val()));
    bn.running_mean = RunningState::new(put(bn.running_mean.value(), old.running_mean.value()));
    bn.running_var = RunningState::new(put(bn.running_var.value(), old.running_var.value()));
    bn
}

#[derive(Module, Debug)]
pub struct Block {
    conv1: Conv2d,
    bn1: BatchNorm,
    conv2: Conv2d,
    bn2: BatchNorm,
}

impl Block {
    fn new(filters: usize, device: &Device) -> Block {
        Block {
            conv1: conv3(filters, filters, device),
            bn1: BatchNormConfig::new(filters).init(device),
            conv2: conv3(filters, filters, device),
            bn2: BatchNormConfig::new(filters).init(device),
        }
    }

    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let y = relu(self.bn1.forward(self.conv1.forward(x.clone())));
        let y = self.bn2.forward(self.conv2.forward(y));
        relu(y + x)
    }
}

#[derive(Module, Debug)]
pub struct Net {
    stem: Conv2d,
    stem_bn: BatchNorm,
    blocks: Vec<Block>,
    policy_conv: Conv2d,
    policy_bn: BatchNorm,
    policy_fc: Linear,
    value_conv: Conv2d,
    value_bn: BatchNorm,
    value_fc1: Linear,
    value_fc2: Linear,
}

impl Net {
    /// A network of `shape` with fresh random weights on `device`.
    pub fn new(shape: Shape, device: &Device) -> Net {
        let f = shape.filters;
        Net {
            stem: conv3(PLANES, f, device),
            stem_bn: BatchNormConfig::new(f).init(device),
            blocks: (0..shape.blocks).map(|_| Block::new(f, device)).collect(),
            policy_conv: conv1(f, POLICY_CHANNELS, device),
            policy_bn: BatchNormConfig::new(POLICY_CHANNELS).init(device),
            policy_fc: LinearConfig::new(POLICY_CHANNELS * 64, ACTIONS).init(device),
            value_conv: conv1(f, VALUE_CHANNELS, device),
            value_bn: BatchNormConfig::new(VALUE_CHANNELS).init(device),
            value_fc1: LinearConfig::new(VALUE_CHANNELS * 64, VALUE_HIDDEN).init(device),
            value_fc2: LinearConfig::new(VALUE_HIDDEN, 1).init(device),
        }
    }

    /// This network grown to `shape` (no fewer blocks or filters), computing the very same
    /// outputs: each new filter gets random weights in and none out to the old ones, and each
    /// new block starts as the identity (its second BatchNorm's scale and shift zero). A larger
    /// network trained on from a generation starts at that generation's strength instead of from
    /// nothing (Net2Net, Chen et al. 2016). The new weights are still random, so both grow.
    pub fn grown(&self, shape: Shape, device: &Device) -> Net {
        let old = self.shape();
        assert!(
            shape.blocks >= old.blocks && shape.filters >= old.filters,
            "a network only grows"
        );
        let mut net = Net::new(shape, device);
        net.stem = grown_conv(&self.stem, net.stem);
        net.stem_bn = grown_bn(&self.stem_bn, net.stem_bn);
        for (i, block) in net.blocks.iter_mut().enumerate() {
            match self.blocks.get(i) {
                Some(b) => {
                    block.conv1 = grown_conv(&b.conv1, block.conv1.clone());
                    block.bn1 = grown_bn(&b.bn1, block.bn1.clone());
                    block.conv2 = grown_conv(&b.conv2, block.conv2.clone());
                    block.bn2 = grown_bn(&b.bn2, block.bn2.clone());
                }
                None => {
                    let zeros = |p: &Param<Tensor<1>>| Param::from_tensor(p.val().zeros_like());
                    block.bn2.gamma = zeros(&block.bn2.gamma);
                    block.bn2.beta = zeros(&block.bn2.beta);
                }
            }
        }
        net.policy_conv = grown_conv(&self.policy_conv, net.policy_conv);
        net.policy_bn = self.policy_bn.clone();
        net.policy_fc = self.policy_fc.clone();
        net.value_conv = grown_conv(&self.value_conv, net.value_conv);
        net.value_bn = self.value_bn.clone();
        net.value_fc1 = self.value_fc1.clone();
        net.value_fc2 = self.value_fc2.clone();
        net
    }

    /// The shape this network was built with.
    pub fn shape(&self) -> Shape {
        Shape {
            blocks: self.blocks.len(),
            filters: self.stem_bn.gamma.dims()[0],
        }
    }

    /// Every layer's values, for the planner's network ([`zero::Model::from_layers`]).
    pub fn layers(&self) -> zero::Layers {
        zero::Layers {
            stem: conv_bn(&self.stem, &self.stem_bn),
            blocks: self
                .blocks
                .iter()
                .map(|b| layers::Block {
                    first: conv_bn(&b.conv1, &b.bn1),
                    second: conv_bn(&b.conv2, &b.bn2),
                })
                .collect(),
            policy: conv_bn(&self.policy_conv, &self.policy_bn),
            policy_fc: linear(&self.policy_fc),
            value: conv_bn(&self.value_conv, &self.value_bn),
            value_fc1: linear(&self.value_fc1),
            value_fc2: linear(&self.value_fc2),
        }
    }

    /// Policy logits `[n, ACTIONS]` and values `[n, 1]` for input planes `[n, PLANES, 8, 8]`.
    pub fn forward(&self, x: Tensor<4>) -> (Tensor<2>, Tensor<2>) {
        let mut x = relu(self.stem_bn.forward(self.stem.forward(x)));
        for block in &self.blocks {
            x = block.forward(x);
        }
        let p = relu(self.policy_bn.forward(self.policy_conv.forward(x.clone())));
        let p = self.policy_fc.forward(p.flatten::<2>(1, 3));
        let v = relu(self.value_bn.forward(self.value_conv.forward(x)));
        let v = relu(self.value_fc1.forward(v.flatten::<2>(1, 3)));
        let v = self.value_fc2.forward(v).tanh();
        (p, v)
    }
}
