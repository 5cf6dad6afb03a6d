//! The network folded for inference, in plain Rust: each BatchNorm folded into the convolution
//! before it, and each 3x3 convolution run as one matrix product over the whole batch (im2col:
//! each square's nine neighbours gathered into one row).
//!
//! Why not burn: the planner only ever evaluates, and burn's CPU backend was a quarter of the
//! robot's first build (docs/results.md, "The first build"). The products go through nalgebra,
//! which the arm already builds, to matrixmultiply's blocked kernels.

use std::sync::OnceLock;

use nalgebra::{DMatrixSlice, DMatrixSliceMut};

use crate::encode::{ACTIONS, PLANES};
use crate::layers::{ConvBn, Layers, Linear, SQUARES};

/// `c = a * w`, all row-major: `a` is `m x k`, `w` is `k x n`, `c` is `m x n`. A row-major
/// matrix is its transpose in nalgebra's column-major order, so this computes `c' = w' * a'`.
fn matmul(a: &[f32], m: usize, k: usize, w: &[f32], n: usize, c: &mut [f32]) {
    let at = DMatrixSlice::from_slice(&a[..m * k], k, m);
    let wt = DMatrixSlice::from_slice(&w[..k * n], n, k);
    let mut ct = DMatrixSliceMut::from_slice(&mut c[..m * n], n, m);
    ct.gemm(1.0, &wt, &at, 0.0);
}

/// For each square and 3x3 kernel position, the square read, if it is on the board.
fn neighbours() -> Vec<Option<usize>> {
    let mut idx = Vec::with_capacity(SQUARES * 9);
    for sq in 0..SQUARES as i64 {
        let (r, f) = (sq / 8, sq % 8);
        for k in 0..9 {
            let (rr, ff) = (r + k / 3 - 1, f + k % 3 - 1);
            let on_board = (0..8).contains(&rr) && (0..8).contains(&ff);
            idx.push(on_board.then_some((rr * 8 + ff) as usize));
        }
    }
    idx
}

/// A convolution with its BatchNorm folded in: `x * w + b` on rows of `kernel^2 * c_in` columns.
#[derive(Debug, Clone)]
struct Folded {
    /// `[kernel^2 * c_in, c_out]`, rows in the order (kernel position, input channel).
    w: Vec<f32>,
    b: Vec<f32>,
    c_in: usize,
    c_out: usize,
    kernel: usize,
}

impl Folded {
    fn new(layer: &ConvBn) -> Folded {
        let ConvBn {
            c_in,
            c_out,
            kernel,
            ..
        } = *layer;
        let scale: Vec<f32> = layer
            .gamma
            .iter()
            .zip(&layer.running_var)
            .map(|(g, v)| g / (v + layer.epsilon).sqrt())
            .collect();
        let b = (0..c_out)
            .map(|f| layer.beta[f] - layer.running_mean[f] * scale[f])
            .collect();
        let k2 = kernel * kernel;
        let mut w = vec![0.0f32; k2 * c_in * c_out];
        for f in 0..c_out {
            for c in 0..c_in {
                for k in 0..k2 {
                    w[(k * c_in + c) * c_out + f] =
                        layer.weight[(f * c_in + c) * k2 + k] * scale[f];
                }
            }
        }
        Folded {
            w,
            b,
            c_in,
            c_out,
            kernel,
        }
    }

    /// `x` holds `rows` rows of `c_in` (one per square, channels last); the result holds `rows`
    /// rows of `c_out`, with the bias added.
    fn forward(
        &self,
        x: &[f32],
        rows: usize,
        gather: &[Option<usize>],
        cols: &mut Vec<f32>,
    ) -> Vec<f32> {
        let c = self.c_in;
        let mut out = vec![0.0f32; rows * self.c_out];
        if self.kernel == 1 {
            matmul(x, rows, c, &self.w, self.c_out, &mut out);
        } else {
            let width = 9 * c;
            let group = GROUP_BOARDS * SQUARES;
            cols.clear();
            cols.resize(group.min(rows) * width, 0.0);
            for (first, out) in (0..rows)
                .step_by(group)
                .zip(out.chunks_mut(group * self.c_out))
            {
                let here = group.min(rows - first);
                for (row, dst) in cols[..here * width].chunks_exact_mut(width).enumerate() {
                    let board = first + row - row % SQUARES;
                    let reads = &gather[(row % SQUARES) * 9..(row % SQUARES + 1) * 9];
                    for (read, d) in reads.iter().zip(dst.chunks_exact_mut(c)) {
                        match read {
                            Some(sq) => {
                                d.copy_from_slice(&x[(board + sq) * c..(board + sq + 1) * c])
                            }
                            None => d.fill(0.0),
                        }
                    }
                }
                matmul(cols, here, width, &self.w, self.c_out, out);
            }
        }
        for row in out.chunks_exact_mut(self.c_out) {
            for (o, b) in row.iter_mut().zip(&self.b) {
                *o += b;
            }
        }
        out
    }
}

/// A linear layer, its input rows reordered where the trained layer saw them channels-first
/// (channel, square) and the folded network gives them channels-last (square, channel).
#[derive(Debug, Clone)]
struct Dense {
    w: Vec<f32>,
    b: Vec<f32>,
    d_in: usize,
    d_out: usize,
}

impl Dense {
    fn new(layer: &Linear, channels: Option<usize>) -> Dense {
        let Linear { d_in, d_out, .. } = *layer;
        let w = match channels {
            None => layer.weight.clone(),
            Some(c) => {
                let mut out = vec![0.0f32; d_in * d_out];
                for ch in 0..c {
                    for sq in 0..SQUARES {
                        let (from, to) = ((ch * SQUARES + sq) * d_out, (sq * c + ch) * d_out);
                        out[to..to + d_out].copy_from_slice(&layer.weight[from..from + d_out]);
                    }
                }
                out
            }
        };
        Dense {
            w,
            b: layer.bias.clone(),
            d_in,
            d_out,
        }
    }

    fn forward(&self, x: &[f32], n: usize) -> Vec<f32> {
        let mut out = vec![0.0f32; n * self.d_out];
        matmul(x, n, self.d_in, &self.w, self.d_out, &mut out);
        for row in out.chunks_exact_mut(self.d_out) {
            for (o, b) in row.iter_mut().zip(&self.b) {
                *o += b;
            }
        }
        out
    }
}

fn relu(x: &mut [f32]) {
    for v in x {
        *v = v.max(0.0);
    }
}

/// Boards whose im2col rows are gathered and multiplied at once, so that a group's rows are
/// still in the cache for the product: measured best at 2 (docs/zero.md).
const GROUP_BOARDS: usize = 2;

/// The cores the batches of the trainer are split over, asked once (the question reads files).
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |t| t.get()))
}

/// The fewest positions one thread evaluates: below it a thread costs more than it saves.
const SPLIT_FROM: usize = 32;

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
    gather: Vec<Option<usize>>,
}

impl FoldedNet {
    /// Folds layers whose sizes [`Layers::shape`] has checked.
    pub(crate) fn new(layers: &Layers) -> FoldedNet {
        FoldedNet {
            stem: Folded::new(&layers.stem),
            blocks: layers
                .blocks
                .iter()
                .map(|b| (Folded::new(&b.first), Folded::new(&b.second)))
                .collect(),
            policy: Folded::new(&layers.policy),
            policy_fc: Dense::new(&layers.policy_fc, Some(layers.policy.c_out)),
            value: Folded::new(&layers.value),
            value_fc1: Dense::new(&layers.value_fc1, Some(layers.value.c_out)),
            value_fc2: Dense::new(&layers.value_fc2, None),
            gather: neighbours(),
        }
    }

    /// Policy logits (`n * ACTIONS`) and values (`n`) for `n` positions encoded channels-first
    /// (`n * PLANES * 64` floats, as [`crate::encode::encode_into`] writes them). A large batch
    /// (the trainer's self-play) is split over the cores; the planner's batches of 16 run on
    /// its one thread.
    pub(crate) fn evaluate(&self, inputs: &[f32], n: usize) -> (Vec<f32>, Vec<f32>) {
        let per = n.div_ceil(cores()).max(SPLIT_FROM);
        if n <= per {
            return self.evaluate_one(inputs, n);
        }
        let len = PLANES * SQUARES;
        let parts: Vec<(Vec<f32>, Vec<f32>)> = std::thread::scope(|scope| {
            let handles: Vec<_> = inputs[..n * len]
                .chunks(per * len)
                .map(|chunk| scope.spawn(move || self.evaluate_one(chunk, chunk.len() / len)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
        let (mut logits, mut values) = (Vec::with_capacity(n * ACTIONS), Vec::with_capacity(n));
        for (l, v) in parts {
            logits.extend(l);
            values.extend(v);
        }
        (logits, values)
    }

    fn evaluate_one(&self, inputs: &[f32], n: usize) -> (Vec<f32>, Vec<f32>) {
        let rows = n * SQUARES;
        let mut x = vec![0.0f32; rows * PLANES];
        for b in 0..n {
            let base = b * PLANES * SQUARES;
            for p in 0..PLANES {
                for sq in 0..SQUARES {
                    x[base + sq * PLANES + p] = inputs[base + p * SQUARES + sq];
                }
            }
        }
        let mut cols = Vec::new();
        let mut x = self.stem.forward(&x, rows, &self.gather, &mut cols);
        relu(&mut x);
        for (first, second) in &self.blocks {
            let mut y = first.forward(&x, rows, &self.gather, &mut cols);
            relu(&mut y);
            let mut z = second.forward(&y, rows, &self.gather, &mut cols);
            for (z, x) in z.iter_mut().zip(&x) {
                *z += x;
            }
            relu(&mut z);
            x = z;
        }
        let mut p = self.policy.forward(&x, rows, &self.gather, &mut cols);
        relu(&mut p);
        let logits = self.policy_fc.forward(&p, n);
        let mut v = self.value.forward(&x, rows, &self.gather, &mut cols);
        relu(&mut v);
        let mut v = self.value_fc1.forward(&v, n);
        relu(&mut v);
        let mut values = self.value_fc2.forward(&v, n);
        for v in &mut values {
            *v = v.tanh();
        }
        debug_assert_eq!(logits.len(), n * ACTIONS);
        (logits, values)
    }
}
