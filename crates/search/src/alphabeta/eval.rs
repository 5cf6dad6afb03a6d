//! The alpha-beta evaluation: a weighted sum of features, each counted for White minus Black.
//! The weights are tuned by match play (`examples/match_tune.rs`, documented in
//! `docs/planners.md`), not guessed.

use draughts::{Color, Position};

use crate::bits::{self, north, south, BIG_CENTRE, CENTRE, EDGES, NE, NW, SE, SW};

pub const N_FEATURES: usize = 11;

pub const FEATURE_NAMES: [&str; N_FEATURES] = [
    "man",
    "king",
    "back_rank",
    "centre_man",
    "centre_king",
    "tempo",
    "tempo_endgame",
    "near_crowning",
    "mobility",
    "main_diagonal_king",
    "edge_man",
];

pub type Weights = [i32; N_FEATURES];

/// Hundredths of a man per unit of each feature, the man pinned at 100. Tuned by match play
/// (`cargo run --release -p search --example match_tune -- 6 3 0.52`: back rank 8 -> 12,
/// tempo in the ending 4 -> 2; the result beat the earlier set 0.608 over 420 games at depth
/// 10). The Texel fit predicted results better but played worse (docs/planners.md).
/// The evaluation network (`evalnet.txt`) learnt a correction on top of exactly these
/// weights: retrain it (`eval-train fit`) when they change.
pub const WEIGHTS: Weights = [100, 250, 12, 6, 8, 2, 2, 10, 2, 10, -2];

/// Ranks 6-7 for White, 2-3 for Black: one or two steps from the crowning row.
const NEAR_CROWN_WHITE: u64 = bits::rank(5) | bits::rank(6);
const NEAR_CROWN_BLACK: u64 = bits::rank(1) | bits::rank(2);
const BACK_WHITE: u64 = bits::rank(0);
const BACK_BLACK: u64 = bits::rank(7);

/// Sum of the ranks of `men`, counted from `side`'s own edge.
#[inline]
fn tempo(men: u64, side: Color) -> i32 {
    let mut t = 0;
    for r in 1..7u8 {
        let n = (men & bits::rank(r)).count_ones() as i32;
        t += n * match side {
            Color::White => i32::from(r),
            Color::Black => i32::from(7 - r),
        };
    }
    t
}

#[inline]
fn mobility(pos: &Position, side: Color) -> i32 {
    let empty = pos.empty_squares();
    let men = pos.men(side);
    let mut n = match side {
        Color::White => {
            (north(men, NE) & empty).count_ones() + (north(men, NW) & empty).count_ones()
        }
        Color::Black => {
            (south(men, SE) & empty).count_ones() + (south(men, SW) & empty).count_ones()
        }
    };
    let mut kings = pos.kings(side);
    while kings != 0 {
        let k = kings & kings.wrapping_neg();
        kings ^= k;
        n += bits::king_reach(k, empty);
    }
    n as i32
}

/// The features of `pos`, White minus Black.
pub fn features(pos: &Position) -> [i32; N_FEATURES] {
    let wm = pos.men(Color::White);
    let bm = pos.men(Color::Black);
    let wk = pos.kings(Color::White);
    let bk = pos.kings(Color::Black);
    let c = |b: u64| b.count_ones() as i32;
    let pieces = c(pos.occupied());
    let t = tempo(wm, Color::White) - tempo(bm, Color::Black);
    [
        c(wm) - c(bm),
        c(wk) - c(bk),
        c(wm & BACK_WHITE) - c(bm & BACK_BLACK),
        c(wm & CENTRE) - c(bm & CENTRE),
        c(wk & BIG_CENTRE) - c(bk & BIG_CENTRE),
        t,
        // Advancing matters more as the board empties: a race to crown.
        t * (24 - pieces).max(0) / 8,
        c(wm & NEAR_CROWN_WHITE) - c(bm & NEAR_CROWN_BLACK),
        mobility(pos, Color::White) - mobility(pos, Color::Black),
        c(wk & draughts::MAIN_DIAGONAL) - c(bk & draughts::MAIN_DIAGONAL),
        c(wm & EDGES) - c(bm & EDGES),
    ]
}

/// White-minus-Black value of `pos` with `weights`.
#[inline]
pub fn white_value(pos: &Position, weights: &Weights) -> i32 {
    features(pos)
        .iter()
        .zip(weights.iter())
        .map(|(f, w)| f * w)
        .sum()
}

/// The value of `pos` for the side to move, in hundredths of a man.
#[inline]
pub fn evaluate(pos: &Position, weights: &Weights) -> i32 {
    let v = white_value(pos, weights);
    match pos.side_to_move() {
        Color::White => v,
        Color::Black => -v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use draughts::parse_fen;

    #[test]
    fn start_is_balanced_and_mirror_negates() {
        let start = Position::start();
        assert_eq!(features(&start), [0; N_FEATURES]);
        for fen in [
            "W:W21,22,K5:B1,9,10",
            "B:Wa1,c3,Kh8:Bb6,d8,Kf2",
            "W:W18,19,20:B3,K29",
        ] {
            let p = parse_fen(fen).expect("fen");
            let m = p.mirror();
            let f = features(&p);
            let g = features(&m);
            for i in 0..N_FEATURES {
                assert_eq!(f[i], -g[i], "{fen} feature {}", FEATURE_NAMES[i]);
            }
            assert_eq!(evaluate(&p, &WEIGHTS), evaluate(&m, &WEIGHTS), "{fen}");
        }
    }

    #[test]
    fn more_material_is_better() {
        let up = parse_fen("W:W21,22,23:B1,2").expect("fen");
        assert!(evaluate(&up, &WEIGHTS) > 50);
        let king = parse_fen("W:WK21:B1").expect("fen");
        assert!(evaluate(&king, &WEIGHTS) > 100);
    }
}
