//! The network folded for inference: each BatchNorm folded into the convolution before it, and
//! each 3x3 convolution run as one matrix product over the whole batch (im2col).
//!
//! Why: burn's `flex` backend runs a convolution as one small product per position of the batch
//! (32 filters x 288 x 64 squares), whose set-up costs more than its arithmetic, and runs each
//! BatchNorm as its own pass. Here each layer is one row gather and one product of
//! `batch*64 x 288` by `288 x 32`: about twice the positions per second at batch 1 and 16
//! (docs/zero.md has the figures). It is still burn: the same tensors, on the same device.
//! Training keeps the [`Net`].

use burn::prelude::*;
use burn::tensor::activation::relu;

use crate::encode::{ACTIONS, PLANES};
use crate::net::{BlockParts, ConvBn, Net, NetParts};

/// The squares of the board.
const SQUARES: usize = 64;

fn to_vec(t: Tensor<1>) -> Vec<f32> {
    t.into_data()
        .convert::<f32>()
        .try_into_vec::<f32>()
        .unwrap_or_default()
}

fn to_vec_n<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.into_data()
        .convert::<f32>()
        .try_into_vec::<f32>()
        .unwrap_or_default()
}

/// A convolution with its BatchNorm folded in: `x * w + b` on rows of `kernel^2 * c_in` columns.
#[derive(Debug, Clone)]
struct Folded {
    /// `[kernel^2 * c_in, c_out]`, rows in the order (kernel position, input channel).
    w: Tensor<2>,
    /// `[1, c_out]`.
    b: Tensor<2>,
    kernel: usize,
}

impl Folded {
    fn new(layer: &ConvBn, device: &Device) -> Folded {
        let [c_out, c_in, kernel, _] = layer.weight.dims();
        let w = to_vec_n(layer.weight.clone());
        let gamma = to_vec(layer.gamma.clone());
        let beta = to_vec(layer.beta.clone());
        let mean = to_vec(layer.mean.clone());
        let var = to_vec(layer.var.clone());
        let scale: Vec<f32> = gamma
            .iter()
            .zip(&var)
            .map(|(g, v)| g / (v + layer.epsilon as f32).sqrt())
            .collect();
        let bias: Vec<f32> = (0..c_out).map(|f| beta[f] - mean[f] * scale[f]).collect();
        let k2 = kernel * kernel;
        let mut folded = vec![0.0f32; k2 * c_in * c_out];
        for f in 0..c_out {
            for c in 0..c_in {
                for k in 0..k2 {
                    folded[(k * c_in + c) * c_out + f] = w[(f * c_in + c) * k2 + k] * scale[f];
                }
            }
        }
        Folded {
            w: Tensor::from_data(TensorData::new(folded, [k2 * c_in, c_out]), device),
            b: Tensor::from_data(TensorData::new(bias, [1, c_out]), device),
            kernel,
        }
    }

    /// `x` is `[n * 64, c_in]`, one row per square (channels last); `gather` picks, for each
    /// square and kernel position, the row of its neighbour or the zero row past the end
    /// ([`neighbours`]). The result is `[n * 64, c_out]`.
    fn forward(&self, x: Tensor<2>, gather: &Tensor<1, Int>) -> Tensor<2> {
        let [rows, c] = x.dims();
        let cols = if self.kernel == 1 {
            x
        } else {
            let zero = Tensor::<2>::zeros([1, c], &x.device());
            Tensor::cat(vec![x, zero], 0)
                .select(0, gather.clone())
                .reshape([rows, self.kernel * self.kernel * c])
        };
        cols.matmul(self.w.clone()).add(self.b.clone())
    }
}

/// For `n` boards of 64 squares, the row each (square, 3x3 kernel position) reads: its
/// neighbour's row, or row `n * 64` (a zero row) off the board. Why a gather: burn's `flex`
/// copies nine strided slices of a padded board several times slower than one row gather.
fn neighbours(n: usize, device: &Device) -> Tensor<1, Int> {
    let off = (n * SQUARES) as i64;
    let mut idx = Vec::with_capacity(n * SQUARES * 9);
    for b in 0..n as i64 {
        for sq in 0..SQUARES as i64 {
            let (r, f) = (sq / 8, sq % 8);
            for k in 0..9 {
                let (rr, ff) = (r + k / 3 - 1, f + k % 3 - 1);
                let on_board = (0..8).contains(&rr) && (0..8).contains(&ff);
                idx.push(if on_board { b * 64 + rr * 8 + ff } else { off });
            }
        }
    }
    Tensor::from_data(TensorData::new(idx, [n * SQUARES * 9]), device)
}

/// A linear layer whose input rows were flattened channels-last (square, channel) where the
/// trained layer saw them channels-first (channel, square).
#[derive(Debug, Clone)]
struct Dense {
    w: Tensor<2>,
    b: Tensor<2>,
}

impl Dense {
    fn new(weight: Tensor<2>, bias: Tensor<1>, channels: Option<usize>, device: &Device) -> Dense {
        let [d_in, d_out] = weight.dims();
        let w = to_vec_n(weight);
        let w = match channels {
            None => w,
            Some(c) => {
                let mut out = vec![0.0f32; d_in * d_out];
                for ch in 0..c {
                    for sq in 0..SQUARES {
                        let (from, to) = ((ch * SQUARES + sq) * d_out, (sq * c + ch) * d_out);
                        out[to..to + d_out].copy_from_slice(&w[from..from + d_out]);
                    }
                }
                out
            }
        };
        let b = to_vec(bias);
        Dense {
            w: Tensor::from_data(TensorData::new(w, [d_in, d_out]), device),
            b: Tensor::from_data(TensorData::new(b, [1, d_out]), device),
        }
    }

    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        x.matmul(self.w.clone()).add(self.b.clone())
    }
}

/// The folded network.
#[derive(Debug, Clone)]
pub(crate) struct FoldedNet {
    stem: Folded,
    blocks: Vec<(Folded, Folded)>,
    policy: Folded,
    policy_fc: Dense,
    value: Folded,
    value_fc1: Dense,
    value_fc2: Dense,
    device: Device,
}

impl FoldedNet {
    pub(crate) fn new(net: &Net, device: &Device) -> FoldedNet {
        let NetParts {
            stem,
            blocks,
            policy,
            policy_fc,
            value,
            value_fc1,
            value_fc2,
        } = net.parts();
        let policy_channels = policy.weight.dims()[0];
        let value_channels = value.weight.dims()[0];
        FoldedNet {
            stem: Folded::new(&stem, device),
            blocks: blocks
                .iter()
                .map(|BlockParts { first, second }| {
                    (Folded::new(first, device), Folded::new(second, device))
                })
                .collect(),
            policy: Folded::new(&policy, device),
            policy_fc: Dense::new(policy_fc.0, policy_fc.1, Some(policy_channels), device),
            value: Folded::new(&value, device),
            value_fc1: Dense::new(value_fc1.0, value_fc1.1, Some(value_channels), device),
            value_fc2: Dense::new(value_fc2.0, value_fc2.1, None, device),
            device: device.clone(),
        }
    }

    /// Policy logits (`n * ACTIONS`) and values (`n`) for `n` positions encoded channels-first
    /// (`n * PLANES * 64` floats, as [`crate::encode::encode_into`] writes them).
    pub(crate) fn evaluate(&self, inputs: &[f32], n: usize) -> (Vec<f32>, Vec<f32>) {
        let mut nhwc = vec![0.0f32; n * PLANES * SQUARES];
        for b in 0..n {
            let (src, dst) = (b * PLANES * SQUARES, b * PLANES * SQUARES);
            for p in 0..PLANES {
                for sq in 0..SQUARES {
                    nhwc[dst + sq * PLANES + p] = inputs[src + p * SQUARES + sq];
                }
            }
        }
        let x = Tensor::<2>::from_data(TensorData::new(nhwc, [n * SQUARES, PLANES]), &self.device);
        let g = neighbours(n, &self.device);
        let mut x: Tensor<2> = relu(self.stem.forward(x, &g));
        for (first, second) in &self.blocks {
            let y = relu(first.forward(x.clone(), &g));
            x = relu(second.forward(y, &g).add(x));
        }
        let p = relu(self.policy.forward(x.clone(), &g));
        let pc = p.dims()[1];
        let logits = self.policy_fc.forward(p.reshape([n, SQUARES * pc]));
        let v = relu(self.value.forward(x, &g));
        let vc = v.dims()[1];
        let v = relu(self.value_fc1.forward(v.reshape([n, SQUARES * vc])));
        let values = self.value_fc2.forward(v).tanh();
        let logits = to_vec_n(logits);
        debug_assert_eq!(logits.len(), n * ACTIONS);
        (logits, to_vec_n(values))
    }
}
