//! A small learned correction to the linear evaluation: one hidden layer over the pieces seen
//! from the side to move. It is trained (with `burn`, in `crates/eval_train`) to predict what
//! MCTS's random playouts make of a position beyond what [`super::eval`] already says, so
//! alpha-beta gets some of the positional sense that MCTS plays with; `eval-train net` fits
//! the same shape on millions of self-play positions, over the linear or the pattern
//! evaluation (`docs/planners.md`). Inference is plain Rust: a position has at most 24
//! pieces, so the first layer is a sum of at most 24 weight rows.
//!
//! The weights travel as text (`evalnet.txt`): a header line, then the numbers in order.

use std::fmt::Write as _;
use std::sync::{Arc, OnceLock};

use draughts::VALID;
use draughts::{Color, Position};

mod accumulator;
pub use accumulator::Accumulator;

/// Four planes of 32 squares: own men, own kings, opponent's men, opponent's kings, the board
/// turned so that the side to move plays up it.
pub const INPUTS: usize = 128;
/// The network is trained on, and applied to, positions of at least this many pieces; fewer
/// are the endgame database's business.
pub const MIN_PIECES: u32 = 5;
/// The most pieces a position can hold, so the most active inputs.
pub const MAX_ACTIVE: usize = 24;

/// The widest hidden layer: the accumulator lives on the stack.
pub const MAX_HIDDEN: usize = 256;

/// Names a network file to use instead of the shipped one: for trying freshly fitted
/// networks in matches before shipping them (`docs/planners.md`).
pub const FILE_VARIABLE: &str = "CHECKERS_ROBOT_EVALNET";

const HEADER: &str = "evalnet 1";
/// The same numbers, run in fixed point: what `eval-train net` writes. The shipped network
/// (`evalnet.txt`, the previous master's) stays in floating point, so that the reference the
/// strongest level is measured against does not move.
const HEADER_FIXED: &str = "evalnet 2";

/// Square index 0-31 of each playable bit (bits are the engine's ghost-square layout).
const SQUARE_INDEX: [u8; 64] = {
    let mut t = [u8::MAX; 64];
    let (mut bit, mut n) = (0, 0);
    while bit < 64 {
        if VALID >> bit & 1 == 1 {
            t[bit] = n;
            n += 1;
        }
        bit += 1;
    }
    t
};

#[derive(Clone, Debug, thiserror::Error, PartialEq)]
pub enum NetError {
    #[error(
        "not an evaluation network: the first line must be {HEADER:?} or {HEADER_FIXED:?} followed by the hidden size"
    )]
    Header,
    #[error("value {index}: {text:?} is not a number")]
    Number { index: usize, text: String },
    #[error("expected {expected} values after the header, found {found}")]
    Count { expected: usize, found: usize },
    #[error("hidden size {0} is out of range (1-{MAX_HIDDEN})")]
    Hidden(usize),
    #[error("{file}: {why}")]
    File { file: String, why: String },
}

/// The active inputs of `pos`, from the side to move's point of view (the count, then the
/// indices).
pub fn active_inputs(pos: &Position) -> (usize, [u16; MAX_ACTIVE]) {
    let me = pos.side_to_move();
    let (own, theirs) = (me, me.opponent());
    let turn = |bb: u64| match me {
        Color::White => bb,
        Color::Black => draughts::mirror_board(bb),
    };
    let planes = [
        turn(pos.men(own)),
        turn(pos.kings(own)),
        turn(pos.men(theirs)),
        turn(pos.kings(theirs)),
    ];
    let mut out = [0u16; MAX_ACTIVE];
    let mut n = 0;
    for (plane, bb) in planes.into_iter().enumerate() {
        let mut b = bb;
        while b != 0 && n < MAX_ACTIVE {
            let bit = b.trailing_zeros() as usize;
            b &= b - 1;
            out[n] = (plane * 32 + usize::from(SQUARE_INDEX[bit])) as u16;
            n += 1;
        }
    }
    (n, out)
}

/// `INPUTS -> hidden (ReLU) -> 1`, the output in hundredths of a man for the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalNet {
    hidden: usize,
    /// Row `i` (the `hidden` weights of input `i`) at `i * hidden`.
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
    /// The same layers in fixed point, when the network runs that way.
    fast: Option<Quantized>,
}

/// Lanes the quantized rows are padded to.
const LANES: usize = 16;
/// The most the quantized hidden layer may reach before its ReLU, with room for rounding.
const ACC_LIMIT: f32 = 32_000.0;

/// The first layer in 16-bit fixed point, its rows padded to [`LANES`]: a vector instruction
/// adds twice as many `i16` as `f32`, and summing the rows is most of a leaf's cost with a
/// wide layer. The scale is a power of two, the largest (up to 1024) for which no sum of 24
/// rows and the bias can overflow.
#[derive(Clone, Debug, PartialEq)]
struct Quantized {
    stride: usize,
    w1: Vec<i16>,
    b1: Vec<i16>,
    /// The output weights divided by the scale, zero in the padding.
    w2: Vec<f32>,
}

impl Quantized {
    fn new(hidden: usize, w1: &[f32], b1: &[f32], w2: &[f32]) -> Quantized {
        let stride = hidden.div_ceil(LANES) * LANES;
        let largest = |v: &[f32]| v.iter().fold(0f32, |m, x| m.max(x.abs()));
        let reach = MAX_ACTIVE as f32 * largest(w1) + largest(b1);
        let mut scale = 1024f32;
        while scale > 1.0 / 1024.0 && reach * scale > ACC_LIMIT {
            scale /= 2.0;
        }
        let q = |x: f32| (x * scale).round() as i16;
        let mut qw1 = vec![0i16; INPUTS * stride];
        for (row, src) in qw1.chunks_exact_mut(stride).zip(w1.chunks_exact(hidden)) {
            for (d, &x) in row.iter_mut().zip(src) {
                *d = q(x);
            }
        }
        let mut qb1 = vec![0i16; stride];
        let mut qw2 = vec![0f32; stride];
        for (((qb, qw), &b), &w) in qb1.iter_mut().zip(qw2.iter_mut()).zip(b1).zip(w2) {
            *qb = q(b);
            *qw = w / scale;
        }
        Quantized {
            stride,
            w1: qw1,
            b1: qb1,
            w2: qw2,
        }
    }
}

impl EvalNet {
    /// A network from its layers: `w1` is input-major (`INPUTS x hidden`).
    pub fn new(w1: Vec<f32>, b1: Vec<f32>, w2: Vec<f32>, b2: f32) -> Result<EvalNet, NetError> {
        let hidden = b1.len();
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(NetError::Hidden(hidden));
        }
        let expected = INPUTS * hidden + 2 * hidden + 1;
        let found = w1.len() + b1.len() + w2.len() + 1;
        if w1.len() != INPUTS * hidden || w2.len() != hidden {
            return Err(NetError::Count { expected, found });
        }
        Ok(EvalNet {
            hidden,
            w1,
            b1,
            w2,
            b2,
            fast: None,
        })
    }

    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The network run with its first layer in 16-bit fixed point (with 128 units, the
    /// network's share of a node's cost falls by about 45%), its output within a hundredth
    /// or two of a man of the floating-point one.
    pub fn with_fixed_point(mut self) -> EvalNet {
        self.fast = Some(Quantized::new(self.hidden, &self.w1, &self.b1, &self.w2));
        self
    }

    pub fn is_fixed_point(&self) -> bool {
        self.fast.is_some()
    }

    /// The correction for `pos`, for the side to move, in hundredths of a man.
    #[inline]
    pub fn output(&self, pos: &Position) -> f32 {
        let Some(q) = &self.fast else {
            return self.exact_output(pos);
        };
        let (n, active) = active_inputs(pos);
        let s = q.stride;
        let mut acc = [0i16; MAX_HIDDEN];
        let acc = &mut acc[..s];
        acc.copy_from_slice(&q.b1);
        for &i in &active[..n] {
            let row = &q.w1[usize::from(i) * s..][..s];
            for (a, w) in acc.iter_mut().zip(row) {
                // Cannot overflow (the scale sees to it); wrapping keeps debug builds quiet.
                *a = a.wrapping_add(*w);
            }
        }
        q.output(acc) + self.b2
    }

    /// The output in floating point, as trained.
    #[inline]
    pub fn exact_output(&self, pos: &Position) -> f32 {
        let (n, active) = active_inputs(pos);
        let h = self.hidden;
        let mut acc = [0f32; MAX_HIDDEN];
        let acc = &mut acc[..h];
        acc.copy_from_slice(&self.b1);
        for &i in &active[..n] {
            let row = &self.w1[usize::from(i) * h..][..h];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
        acc.iter()
            .zip(&self.w2)
            .map(|(a, w)| a.max(0.0) * w)
            .sum::<f32>()
            + self.b2
    }

    /// [`output`](Self::output) rounded to the evaluation's integer scale.
    #[inline]
    pub fn correction(&self, pos: &Position) -> i32 {
        self.output(pos).round() as i32
    }

    pub fn parse(text: &str) -> Result<EvalNet, NetError> {
        let mut lines = text.lines();
        let header = lines.next().unwrap_or_default();
        let (fixed, rest) = match (
            header.strip_prefix(HEADER),
            header.strip_prefix(HEADER_FIXED),
        ) {
            (Some(rest), _) => (false, rest),
            (None, Some(rest)) => (true, rest),
            (None, None) => return Err(NetError::Header),
        };
        let hidden: usize = rest.trim().parse().map_err(|_| NetError::Header)?;
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(NetError::Hidden(hidden));
        }
        let values = lines
            .flat_map(str::split_whitespace)
            .enumerate()
            .map(|(index, t)| {
                t.parse::<f32>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| NetError::Number {
                        index,
                        text: t.to_string(),
                    })
            })
            .collect::<Result<Vec<f32>, NetError>>()?;
        let expected = INPUTS * hidden + 2 * hidden + 1;
        if values.len() != expected {
            return Err(NetError::Count {
                expected,
                found: values.len(),
            });
        }
        let (w1, rest) = values.split_at(INPUTS * hidden);
        let (b1, rest) = rest.split_at(hidden);
        let (w2, b2) = rest.split_at(hidden);
        let net = EvalNet::new(w1.to_vec(), b1.to_vec(), w2.to_vec(), b2[0])?;
        Ok(if fixed { net.with_fixed_point() } else { net })
    }

    /// The text [`parse`](Self::parse) reads: one line per input row, then the biases, the
    /// output weights and the output bias.
    pub fn to_text(&self) -> String {
        let header = if self.is_fixed_point() {
            HEADER_FIXED
        } else {
            HEADER
        };
        let mut s = format!("{header} {}\n", self.hidden);
        let mut line = |values: &[f32]| {
            let words: Vec<String> = values.iter().map(|v| format!("{v}")).collect();
            let _ = writeln!(s, "{}", words.join(" "));
        };
        for row in self.w1.chunks(self.hidden) {
            line(row);
        }
        line(&self.b1);
        line(&self.w2);
        line(&[self.b2]);
        s
    }
}

/// The network shipped with the planner to correct the linear evaluation (`evalnet.txt`,
/// written by `eval-train fit`: the previous master's), or the file [`FILE_VARIABLE`] names,
/// parsed once.
pub fn built_in() -> Result<Arc<EvalNet>, NetError> {
    static NET: OnceLock<Result<Arc<EvalNet>, NetError>> = OnceLock::new();
    NET.get_or_init(|| shipped_or_named(include_str!("evalnet.txt")))
        .clone()
}

/// The network shipped to correct the pattern evaluation (`evalnet_patterns.txt`, written by
/// `eval-train net --base patterns`, run in fixed point: master's), or the file
/// [`FILE_VARIABLE`] names, parsed once.
pub fn built_in_over_patterns() -> Result<Arc<EvalNet>, NetError> {
    static NET: OnceLock<Result<Arc<EvalNet>, NetError>> = OnceLock::new();
    NET.get_or_init(|| shipped_or_named(include_str!("evalnet_patterns.txt")))
        .clone()
}

fn shipped_or_named(shipped: &str) -> Result<Arc<EvalNet>, NetError> {
    match std::env::var_os(FILE_VARIABLE) {
        Some(path) => load(std::path::Path::new(&path)).map(Arc::new),
        None => EvalNet::parse(shipped).map(Arc::new),
    }
}

/// The network in the file at `path`.
pub fn load(path: &std::path::Path) -> Result<EvalNet, NetError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| NetError::File {
        file: file.clone(),
        why: e.to_string(),
    })?;
    EvalNet::parse(&text).map_err(|e| NetError::File {
        file,
        why: e.to_string(),
    })
}

/// A fixed-point network for tests, its weights different for every input and unit; `gain`
/// scales them all.
#[cfg(test)]
pub(crate) fn fixed_point_test_network(hidden: usize, gain: f32) -> EvalNet {
    let w1 = (0..INPUTS * hidden)
        .map(|i| ((i * 37 % 101) as f32 - 50.0) * gain / 400.0)
        .collect();
    let b1 = (0..hidden)
        .map(|i| (i as f32 - 20.0) * gain / 50.0)
        .collect();
    let w2 = (0..hidden)
        .map(|i| ((i * 13 % 17) as f32 - 8.0) * gain / 3.0)
        .collect();
    EvalNet::new(w1, b1, w2, 0.25 * gain)
        .expect("test network")
        .with_fixed_point()
}

#[cfg(test)]
mod tests {
    use super::*;
    use draughts::parse_fen;

    #[test]
    fn inputs_are_seen_from_the_side_to_move() {
        let start = Position::start();
        let (n, a) = active_inputs(&start);
        assert_eq!(n, 24);
        assert!(a[..12].iter().all(|&i| i < 32), "own men first");
        assert!(a[12..24].iter().all(|&i| (64..96).contains(&i)));
        // The same position with colours and board swapped has the same inputs.
        for fen in ["W:W21,22,K5:B1,9,10", "B:WK1,18,30:B2,K3,14"] {
            let p = parse_fen(fen).expect("fen");
            let mut x = active_inputs(&p).1[..active_inputs(&p).0].to_vec();
            let m = p.mirror();
            let mut y = active_inputs(&m).1[..active_inputs(&m).0].to_vec();
            x.sort_unstable();
            y.sort_unstable();
            assert_eq!(x, y, "{fen}");
        }
    }

    #[test]
    fn text_round_trips_and_bad_text_is_an_error() {
        let net = EvalNet::new(
            (0..INPUTS * 2).map(|i| i as f32 / 100.0).collect(),
            vec![0.5, -1.0],
            vec![2.0, 3.0],
            -0.25,
        )
        .expect("net");
        let back = EvalNet::parse(&net.to_text()).expect("parse");
        assert_eq!(back, net);
        let start = Position::start();
        // Own men at inputs 0-11 (sum of i/100 over hidden unit 0 rows), opponent at 64-75.
        assert!((back.output(&start) - net.output(&start)).abs() < 1e-6);
        assert_eq!(EvalNet::parse("nonsense"), Err(NetError::Header));
        assert!(matches!(
            EvalNet::parse("evalnet 1 2\n1 2 x"),
            Err(NetError::Number { index: 2, .. })
        ));
        assert!(matches!(
            EvalNet::parse("evalnet 1 2\n1 2 3"),
            Err(NetError::Count { found: 3, .. })
        ));
        assert_eq!(EvalNet::parse("evalnet 1 0"), Err(NetError::Hidden(0)));
    }

    #[test]
    fn output_is_a_relu_layer() {
        // One hidden unit that counts own men (+1 each), output weight 10, bias -100.
        let mut w1 = vec![0.0; INPUTS];
        w1[..32].fill(1.0);
        let net = EvalNet::new(w1, vec![-5.0], vec![10.0], -100.0).expect("net");
        let p = parse_fen("W:W21,22,23:B1").expect("fen");
        // 3 men - 5 < 0: the unit is off.
        assert_eq!(net.correction(&p), -100);
        let p = parse_fen("W:W21,22,23,24,25,26,27:B1").expect("fen");
        assert_eq!(net.correction(&p), -80);
    }

    #[test]
    fn the_fixed_point_layer_gives_the_trained_output() {
        let net = (*built_in().expect("built in")).clone();
        assert!(
            !net.is_fixed_point(),
            "the shipped network runs as it was measured"
        );
        let fixed = net.clone().with_fixed_point();
        let back = EvalNet::parse(&fixed.to_text()).expect("parse");
        assert!(back.is_fixed_point());
        let mut pos = Position::start();
        for ply in 0..40 {
            let exact = net.output(&pos);
            let fast = fixed.output(&pos);
            // Within a fiftieth of a man; the search itself rounds to hundredths.
            assert!(
                (exact - fast).abs() < 2.0,
                "ply {ply}: exact {exact}, fixed point {fast}"
            );
            assert_eq!(back.output(&pos), fast);
            let moves = pos.legal_moves();
            let Some(m) = moves.get(ply * 7 % moves.len().max(1)) else {
                break;
            };
            pos = pos.after(m);
        }
    }

    #[test]
    fn built_in_network_loads() {
        let text = include_str!("evalnet.txt");
        let net = EvalNet::parse(text).expect("evalnet.txt parses");
        assert_eq!(*built_in().expect("built in"), net);
    }

    #[test]
    fn the_shipped_network_over_the_patterns_runs_in_fixed_point() {
        let net = EvalNet::parse(include_str!("evalnet_patterns.txt")).expect("shipped network");
        assert!(net.is_fixed_point());
        assert!(net.incremental());
        for fen in [
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
            "B:W17,21,22,25,27,28,30,31:B2,3,6,7,9,10,11,16",
            "W:WK1,18,22,25,30:B2,K3,9,14,19",
        ] {
            let p = parse_fen(fen).expect("fen");
            let (fast, exact) = (net.output(&p), net.exact_output(&p));
            assert!((fast - exact).abs() < 2.0, "{fen}: {fast} against {exact}");
        }
    }
}
