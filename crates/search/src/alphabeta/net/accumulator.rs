//! The fixed-point first layer kept up to date move by move (NNUE's accumulator): a move
//! changes two to a few of a position's at most 24 active inputs, so a child's sums are its
//! parent's plus a few rows, where summing them afresh takes one row per piece. Both colours'
//! points of view are kept, because the side to move, whose view the network reads, changes
//! every ply. The sums are exact integers, so an updated accumulator equals a fresh one.

use draughts::mirror_board;
use draughts::{Color, Position};
use multiversion::multiversion;

use super::{EvalNet, Quantized, LANES, MAX_HIDDEN, SQUARE_INDEX};

/// The first layer's sums (before the ReLU) of one position, seen by White and by Black.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    white: [i16; MAX_HIDDEN],
    black: [i16; MAX_HIDDEN],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            white: [0; MAX_HIDDEN],
            black: [0; MAX_HIDDEN],
        }
    }
}

/// The four input planes of `pos` as `view` sees it: own men, own kings, opponent's men,
/// opponent's kings, the board turned for Black (as in [`super::active_inputs`]).
fn planes(pos: &Position, view: Color) -> [u64; 4] {
    let them = view.opponent();
    let turn = |bb: u64| match view {
        Color::White => bb,
        Color::Black => mirror_board(bb),
    };
    [
        turn(pos.men(view)),
        turn(pos.kings(view)),
        turn(pos.men(them)),
        turn(pos.kings(them)),
    ]
}

/// Adds (`sign` 1) or subtracts (-1) the rows of the inputs set in `planes`.
#[multiversion(targets("x86_64+avx2"))]
fn add_rows(q: &Quantized, acc: &mut [i16], planes: [u64; 4], sign: i16) {
    add_rows_inline(q, acc, planes, sign);
}

/// [`add_rows`]'s body, inlined into each of its callers' builds, so that a build for wider
/// vectors adds the rows with them.
#[inline(always)]
fn add_rows_inline(q: &Quantized, acc: &mut [i16], planes: [u64; 4], sign: i16) {
    let s = q.stride;
    for (plane, bb) in planes.into_iter().enumerate() {
        let mut b = bb;
        while b != 0 {
            let bit = b.trailing_zeros() as usize;
            b &= b - 1;
            let row = &q.w1[(plane * 32 + usize::from(SQUARE_INDEX[bit])) * s..][..s];
            // Cannot overflow (the scale sees to it); wrapping keeps debug builds quiet.
            if sign > 0 {
                for (a, w) in acc.iter_mut().zip(row) {
                    *a = a.wrapping_add(*w);
                }
            } else {
                for (a, w) in acc.iter_mut().zip(row) {
                    *a = a.wrapping_sub(*w);
                }
            }
        }
    }
}

/// `to = from` moved from `before`'s inputs to `after`'s, for one point of view.
#[multiversion(targets("x86_64+avx2"))]
fn update_view(q: &Quantized, from: &[i16], to: &mut [i16], before: [u64; 4], after: [u64; 4]) {
    to.copy_from_slice(from);
    add_rows_inline(q, to, std::array::from_fn(|p| before[p] & !after[p]), -1);
    add_rows_inline(q, to, std::array::from_fn(|p| after[p] & !before[p]), 1);
}

impl EvalNet {
    /// Whether this network can run from an `Accumulator` (it runs in fixed point).
    pub fn incremental(&self) -> bool {
        self.fast.is_some()
    }

    /// Sets `acc` to `pos`'s sums, from scratch. Nothing for a floating-point network.
    pub fn refresh(&self, pos: &Position, acc: &mut Accumulator) {
        let Some(q) = &self.fast else { return };
        let s = q.stride;
        for (view, sums) in [
            (Color::White, &mut acc.white),
            (Color::Black, &mut acc.black),
        ] {
            let sums = &mut sums[..s];
            sums.copy_from_slice(&q.b1);
            add_rows(q, sums, planes(pos, view), 1);
        }
    }

    /// Sets `to` to `after`'s sums, given `from`, `before`'s: only the inputs that differ
    /// between the two positions are touched. Nothing for a floating-point network.
    pub fn update(
        &self,
        before: &Position,
        from: &Accumulator,
        after: &Position,
        to: &mut Accumulator,
    ) {
        let Some(q) = &self.fast else { return };
        let s = q.stride;
        for view in [Color::White, Color::Black] {
            let (f, t) = match view {
                Color::White => (&from.white[..s], &mut to.white[..s]),
                Color::Black => (&from.black[..s], &mut to.black[..s]),
            };
            update_view(q, f, t, planes(before, view), planes(after, view));
        }
    }

    /// The output for the side `to_move`, from the sums of its position; in hundredths of a
    /// man, as [`EvalNet::output`] gives it. Zero for a floating-point network.
    #[inline]
    pub fn output_from(&self, acc: &Accumulator, to_move: Color) -> f32 {
        let Some(q) = &self.fast else { return 0.0 };
        let sums = match to_move {
            Color::White => &acc.white[..q.stride],
            Color::Black => &acc.black[..q.stride],
        };
        q.output(sums) + self.b2
    }
}

impl Quantized {
    /// The output layer over the first layer's sums (without the output bias).
    #[inline]
    pub(super) fn output(&self, sums: &[i16]) -> f32 {
        relu_dot(sums, &self.w2)
    }
}

/// `sum(max(a, 0) * w)`, in lane-wise partial sums so that the products vectorise too. Each
/// lane adds in the same order whatever the vector width, so every build gives the same value.
#[multiversion(targets("x86_64+avx2"))]
fn relu_dot(sums: &[i16], w2: &[f32]) -> f32 {
    let mut lanes = [0f32; LANES];
    for (a, w) in sums.chunks_exact(LANES).zip(w2.chunks_exact(LANES)) {
        for ((l, &a), &w) in lanes.iter_mut().zip(a).zip(w) {
            *l += f32::from(a.max(0)) * w;
        }
    }
    lanes.iter().sum::<f32>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use draughts::parse_fen;

    fn network() -> EvalNet {
        super::super::fixed_point_test_network(40, 1.0)
    }

    #[test]
    fn updated_sums_equal_fresh_ones_along_games() {
        let net = network();
        let mut rng = 12345u64;
        for fen in [
            None,
            Some("W:WK1,18,22,30:B2,K3,14,19"),
            Some("B:W21,22,K5:B1,9,10,K29"),
        ] {
            let mut pos = match fen {
                Some(f) => parse_fen(f).expect("fen"),
                None => Position::start(),
            };
            let mut acc = Accumulator::default();
            net.refresh(&pos, &mut acc);
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let mv = &moves[(rng >> 33) as usize % moves.len()];
                let next = pos.after(mv);
                let mut next_acc = Accumulator::default();
                net.update(&pos, &acc, &next, &mut next_acc);
                let mut fresh = Accumulator::default();
                net.refresh(&next, &mut fresh);
                assert_eq!(next_acc, fresh, "after {mv} from {pos:?}");
                let (a, b) = (
                    net.output_from(&next_acc, next.side_to_move()),
                    net.output(&next),
                );
                assert!((a - b).abs() < 1e-3, "{a} against {b}");
                pos = next;
                acc = next_acc;
            }
        }
    }

    #[test]
    fn a_floating_point_network_is_not_incremental() {
        let net = EvalNet::new(vec![0.0; super::super::INPUTS], vec![0.0], vec![1.0], 0.5)
            .expect("network");
        assert!(!net.incremental());
        assert!(network().incremental());
    }
}
