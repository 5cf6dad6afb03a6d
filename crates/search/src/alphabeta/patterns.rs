//! A pattern evaluation in Scan's manner: the men inside nine overlapping 4x4 windows of the
//! board, each window's configuration (3^8 of them) looked up in its own table, together with
//! the linear evaluation's features ([`super::eval::features`]), all weighted twice (once for
//! the opening, once for the ending, blended by the number of pieces) and fitted by logistic
//! regression on the results of this project's own self-play (`eval-train selfplay`, then
//! `eval-train patterns`).
//!
//! Everything is seen from the side to move. Each window is read twice, from the mover's side
//! and from the opponent's (the board turned 180 degrees), with the same table, the
//! opponent's reading subtracted: so the evaluation of a position and of its colour-swapped
//! mirror image agree by construction, and a learned constant carries the value of having the
//! move.
//!
//! Kings are not in the windows (a window of men and kings would have 5^8 configurations, far
//! more than the data can fill). Beside the linear features that count them, two small tables
//! see them: a weight for each square a king stands on (per phase), and a weight for each
//! material balance (men and kings of either side, kings counted up to four), so that what a
//! king is worth can depend on what else is on the board.
//!
//! The weights travel as `patterns.bin`: a header line, then little-endian `f32`s. A file of
//! the first format (`patterns 1`, without the king tables) still loads, its king tables empty.

use std::sync::{Arc, OnceLock};

use draughts::mirror_board;
use draughts::{Color, Position};
use draughts::{Square, Squares};

use super::eval::{features, N_FEATURES, WEIGHTS};
use crate::planner::{VALUE_SCALE_K, WIN_SCORE};

/// Windows of 4x4 squares at files and ranks 0, 2 and 4: each holds 8 dark squares.
pub const WINDOWS: usize = 9;
/// 3 states (empty or a king, own man, opponent's man) of 8 squares.
pub const CONFIGS: usize = 6561;
/// Weights of one phase: the window tables, then one per linear feature.
const PHASE_WEIGHTS: usize = WINDOWS * CONFIGS + N_FEATURES;
/// The weights of the first format: the constant (having the move) at 0, then the opening's
/// phase, then the ending's.
const V1_WEIGHTS: usize = 1 + 2 * PHASE_WEIGHTS;
/// A king's square, by its bit in the board layout, in each phase.
const KING_SQUARES: usize = 64;
const KING_TABLES: usize = V1_WEIGHTS;
/// Men (0-12) and kings (0-4, more counted as 4) of the side to move, then of the opponent.
const MATERIAL_KINGS: usize = 5;
const MATERIAL: usize = 13 * MATERIAL_KINGS * 13 * MATERIAL_KINGS;
const MATERIAL_TABLE: usize = KING_TABLES + 2 * KING_SQUARES;
pub const N_WEIGHTS: usize = MATERIAL_TABLE + MATERIAL;
/// The most (weight index, input value) pairs one position activates.
/// (The constant; per phase the windows read from both sides, the features and a king's
/// square for each of at most 24 pieces; the material table read from both sides.)
pub const MAX_ACTIVE: usize = 1 + 2 * (2 * WINDOWS + N_FEATURES + 24) + 2;

const HEADER: &[u8] = b"patterns 2\n";
const HEADER_V1: &[u8] = b"patterns 1\n";

/// The bit of each of a window's 8 dark squares, windows in rank-major order.
const WINDOW_BITS: [[u8; 8]; WINDOWS] = {
    let mut t = [[0u8; 8]; WINDOWS];
    let mut w = 0;
    while w < WINDOWS {
        let (f0, r0) = ((w % 3) as u8 * 2, (w / 3) as u8 * 2);
        let mut k = 0;
        let mut r = r0;
        while r < r0 + 4 {
            let mut f = f0;
            while f < f0 + 4 {
                if let Some(sq) = Square::from_file_rank(f, r) {
                    t[w][k] = sq.bit();
                    k += 1;
                }
                f += 1;
            }
            r += 1;
        }
        w += 1;
    }
    t
};

/// Where each window's 4 pairs of squares start: on each of its ranks a window holds two dark
/// squares, on adjacent bits, so a window's occupancy is 4 shifts and masks.
const WINDOW_PAIRS: [[u8; 4]; WINDOWS] = {
    let mut t = [[0u8; 4]; WINDOWS];
    let mut w = 0;
    while w < WINDOWS {
        let mut j = 0;
        while j < 4 {
            assert!(WINDOW_BITS[w][2 * j + 1] == WINDOW_BITS[w][2 * j] + 1);
            t[w][j] = WINDOW_BITS[w][2 * j];
            j += 1;
        }
        w += 1;
    }
    t
};

/// The base-3 number whose digit `k` is bit `k` of the index: a window's configuration is
/// `BASE3[own] + 2 * BASE3[theirs]`, each square's state (empty 0, own 1, theirs 2) its digit.
const BASE3: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let (mut k, mut pow) = (0, 1u16);
        while k < 8 {
            if b >> k & 1 == 1 {
                t[b] += pow;
            }
            pow *= 3;
            k += 1;
        }
        b += 1;
    }
    t
};

#[derive(Clone, Debug, thiserror::Error, PartialEq)]
pub enum PatternError {
    #[error(
        "not a pattern evaluation: the file must begin with {:?}",
        String::from_utf8_lossy(HEADER)
    )]
    Header,
    #[error("expected {expected} weights ({} bytes) after the header, found {found} bytes", 4 * expected)]
    Size { expected: usize, found: usize },
    #[error("weight {0} is not a finite number")]
    NotFinite(usize),
    #[error("{file}: {why}")]
    File { file: String, why: String },
}

/// Names a weights file to use instead of the shipped one: for trying freshly fitted
/// weights in matches before shipping them (`docs/planners.md`).
pub const FILE_VARIABLE: &str = "CHECKERS_ROBOT_PATTERNS";

/// Window `w`'s 8 squares of `board` as 8 bits, in [`WINDOW_BITS`]' order.
#[inline]
fn occupancy(w: usize, board: u64) -> usize {
    let [a, b, c, d] = WINDOW_PAIRS[w];
    (board >> a & 3 | (board >> b & 3) << 2 | (board >> c & 3) << 4 | (board >> d & 3) << 6)
        as usize
}

/// The configuration of window `w` with `own` and `theirs` men.
#[inline]
fn config(w: usize, own: u64, theirs: u64) -> usize {
    usize::from(BASE3[occupancy(w, own)] + 2 * BASE3[occupancy(w, theirs)])
}

/// The material table's entry for these counts of the side seen first and the other.
#[inline]
fn material(own_men: u64, own_kings: u64, their_men: u64, their_kings: u64) -> usize {
    let kings = |k: u64| (k.count_ones() as usize).min(MATERIAL_KINGS - 1);
    let men = |m: u64| (m.count_ones() as usize).min(12);
    ((men(own_men) * MATERIAL_KINGS + kings(own_kings)) * 13 + men(their_men)) * MATERIAL_KINGS
        + kings(their_kings)
}

/// White's and Black's pieces of one kind as (the mover's, the opponent's), the board turned
/// when Black moves.
#[inline]
fn seen_by_mover(me: Color, white: u64, black: u64) -> (u64, u64) {
    match me {
        Color::White => (white, black),
        Color::Black => (mirror_board(black), mirror_board(white)),
    }
}

/// How far `pos` is into the ending: 0 with 24 pieces or more, 1 with 4 or fewer.
#[inline]
pub fn ending_share(pos: &Position) -> f32 {
    let pieces = pos.occupied().count_ones() as f32;
    ((24.0 - pieces) / 20.0).clamp(0.0, 1.0)
}

/// Calls `visit(weight index, value)` for each input of `pos`, seen from the side to move, in
/// the one order both [`Active::of`] and [`Patterns::logit`] sum them (so both give the very
/// same `f32`).
#[inline(always)]
fn inputs(pos: &Position, mut visit: impl FnMut(usize, f32)) {
    let me = pos.side_to_move();
    let (own, theirs) = seen_by_mover(me, pos.men(Color::White), pos.men(Color::Black));
    let (own_kings, their_kings) =
        seen_by_mover(me, pos.kings(Color::White), pos.kings(Color::Black));
    // The opponent's view: the board turned, roles swapped.
    let (their_own, their_theirs) = (mirror_board(theirs), mirror_board(own));
    let mut configs = [(0usize, 0usize); WINDOWS];
    for (w, c) in configs.iter_mut().enumerate() {
        *c = (config(w, own, theirs), config(w, their_own, their_theirs));
    }
    let end = ending_share(pos);
    let sign = match me {
        Color::White => 1.0,
        Color::Black => -1.0,
    };
    let f = features(pos);
    visit(0, 1.0);
    for (phase, share) in [(0usize, 1.0 - end), (1usize, end)] {
        if share == 0.0 {
            continue;
        }
        let base = 1 + phase * PHASE_WEIGHTS;
        for (w, &(mine, opponents)) in configs.iter().enumerate() {
            let table = base + w * CONFIGS;
            visit(table + mine, share);
            visit(table + opponents, -share);
        }
        let linear = base + WINDOWS * CONFIGS;
        for (i, &x) in f.iter().enumerate() {
            if x != 0 {
                visit(linear + i, sign * x as f32 * share);
            }
        }
        let kings = KING_TABLES + phase * KING_SQUARES;
        for (board, value) in [(own_kings, share), (mirror_board(their_kings), -share)] {
            for sq in Squares(board) {
                visit(kings + usize::from(sq.bit()), value);
            }
        }
    }
    visit(
        MATERIAL_TABLE + material(own, own_kings, theirs, their_kings),
        1.0,
    );
    visit(
        MATERIAL_TABLE + material(theirs, their_kings, own, own_kings),
        -1.0,
    );
}

/// The inputs of one position listed as (weight index, value) pairs, on the stack: what the
/// trainer's gradient step walks (the search sums them as it visits them, [`Patterns::logit`]).
#[derive(Clone, Copy, Debug)]
pub struct Active {
    len: usize,
    items: [(u32, f32); MAX_ACTIVE],
}

impl Default for Active {
    fn default() -> Self {
        Active {
            len: 0,
            items: [(0, 0.0); MAX_ACTIVE],
        }
    }
}

impl Active {
    /// The inputs of `pos`, from the side to move's point of view: the evaluation's logit is
    /// the sum of `weight[index] * value`. The trainer and the planner both read positions
    /// through `inputs`.
    pub fn of(pos: &Position) -> Active {
        let mut a = Active::default();
        inputs(pos, |index, value| a.push(index, value));
        a
    }

    #[inline]
    fn push(&mut self, index: usize, value: f32) {
        self.items[self.len] = (index as u32, value);
        self.len += 1;
    }

    pub fn items(&self) -> &[(u32, f32)] {
        &self.items[..self.len]
    }
}

/// The fitted weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Patterns {
    weights: Vec<f32>,
}

impl Patterns {
    pub fn new(weights: Vec<f32>) -> Result<Patterns, PatternError> {
        if weights.len() != N_WEIGHTS {
            return Err(PatternError::Size {
                expected: N_WEIGHTS,
                found: 4 * weights.len(),
            });
        }
        if let Some(i) = weights.iter().position(|w| !w.is_finite()) {
            return Err(PatternError::NotFinite(i));
        }
        Ok(Patterns { weights })
    }

    /// The linear evaluation alone, in both phases, and empty windows: where training starts.
    pub fn from_linear() -> Patterns {
        let mut weights = vec![0.0; N_WEIGHTS];
        for phase in 0..2 {
            let linear = 1 + phase * PHASE_WEIGHTS + WINDOWS * CONFIGS;
            for (i, w) in WEIGHTS.iter().enumerate() {
                weights[linear + i] = *w as f32 * VALUE_SCALE_K as f32;
            }
        }
        Patterns { weights }
    }

    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    pub fn weights_mut(&mut self) -> &mut [f32] {
        &mut self.weights
    }

    /// The logit of the side to move's expected score.
    #[inline]
    pub fn logit(&self, pos: &Position) -> f32 {
        // Straight from the inputs, without listing them: this runs at every leaf.
        let mut sum = -0.0;
        inputs(pos, |i, x| sum += self.weights[i] * x);
        sum
    }

    /// The logit of already listed inputs.
    #[inline]
    pub fn logit_of(&self, active: &Active) -> f32 {
        active
            .items()
            .iter()
            .map(|&(i, x)| self.weights[i as usize] * x)
            .sum()
    }

    /// The value of `pos` for the side to move, in the evaluation's hundredths of a man
    /// (the scale on which [`crate::planner::value_to_win_probability`] reads it).
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let v = f64::from(self.logit(pos)) / VALUE_SCALE_K;
        let cap = f64::from(WIN_SCORE - 2000);
        v.clamp(-cap, cap).round() as i32
    }

    pub fn parse(bytes: &[u8]) -> Result<Patterns, PatternError> {
        let (body, count) = if let Some(body) = bytes.strip_prefix(HEADER) {
            (body, N_WEIGHTS)
        } else if let Some(body) = bytes.strip_prefix(HEADER_V1) {
            (body, V1_WEIGHTS)
        } else {
            return Err(PatternError::Header);
        };
        if body.len() != 4 * count {
            return Err(PatternError::Size {
                expected: count,
                found: body.len(),
            });
        }
        let mut weights: Vec<f32> = body
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        weights.resize(N_WEIGHTS, 0.0);
        Patterns::new(weights)
    }

    /// The bytes [`parse`](Self::parse) reads.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = HEADER.to_vec();
        for w in &self.weights {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }
}

/// The weights shipped with the planner (`patterns.bin`, written by `eval-train patterns`),
/// or those of the file [`FILE_VARIABLE`] names; parsed once.
pub fn built_in() -> Result<Arc<Patterns>, PatternError> {
    static PATTERNS: OnceLock<Result<Arc<Patterns>, PatternError>> = OnceLock::new();
    PATTERNS
        .get_or_init(|| match std::env::var_os(FILE_VARIABLE) {
            Some(path) => load(std::path::Path::new(&path)).map(Arc::new),
            None => Patterns::parse(include_bytes!("patterns.bin")).map(Arc::new),
        })
        .clone()
}

/// The weights in the file at `path`.
pub fn load(path: &std::path::Path) -> Result<Patterns, PatternError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| PatternError::File {
        file: file.clone(),
        why: e.to_string(),
    })?;
    Patterns::parse(&bytes).map_err(|e| PatternError::File {
        file,
        why: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alphabeta::eval::evaluate;
    use draughts::parse_fen;
    use rand::{Rng, SeedableRng};

    #[test]
    fn windows_hold_eight_distinct_dark_squares_and_cover_the_board() {
        let mut seen = 0u64;
        for w in WINDOW_BITS {
            let mut bits = w.to_vec();
            bits.sort_unstable();
            bits.dedup();
            assert_eq!(bits.len(), 8);
            for b in w {
                seen |= 1 << b;
            }
        }
        assert_eq!(seen, draughts::VALID);
    }

    #[test]
    fn configurations_are_the_base_3_number_of_the_windows_squares() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        for _ in 0..2000 {
            let x: u64 = rng.random();
            let own = x & draughts::VALID;
            let theirs = x.rotate_left(23) & draughts::VALID & !own;
            for (w, bits) in WINDOW_BITS.iter().enumerate() {
                let slow: usize = bits
                    .iter()
                    .enumerate()
                    .map(|(k, &b)| {
                        ((own >> b & 1) + 2 * (theirs >> b & 1)) as usize * 3usize.pow(k as u32)
                    })
                    .sum();
                assert_eq!(config(w, own, theirs), slow);
            }
        }
    }

    #[test]
    fn the_logit_is_the_sum_over_the_listed_inputs_to_the_last_bit() {
        let mut p = Patterns::from_linear();
        for (i, w) in p.weights_mut().iter_mut().enumerate() {
            *w += ((i * 7919) % 1013) as f32 / 997.0 - 0.5;
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        for _ in 0..40 {
            let mut pos = Position::start();
            for _ in 0..80 {
                let listed = p.logit_of(&Active::of(&pos));
                assert_eq!(p.logit(&pos).to_bits(), listed.to_bits(), "{pos:?}");
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos = pos.after(&moves[rng.random_range(0..moves.len())]);
            }
        }
    }

    #[test]
    fn starts_as_the_linear_evaluation() {
        let p = Patterns::from_linear();
        for fen in [
            "W:W21,22,K5:B1,9,10",
            "B:Wa1,c3,Kh8:Bb6,d8,Kf2",
            "W:W18,19,20,21,22,23,24,25,26,27,28:B1,2,3,4,5,6,7,8,9,10,11,12",
        ] {
            let pos = parse_fen(fen).expect("fen");
            let diff = (p.evaluate(&pos) - evaluate(&pos, &WEIGHTS)).abs();
            assert!(
                diff <= 1,
                "{fen}: {} against {}",
                p.evaluate(&pos),
                evaluate(&pos, &WEIGHTS)
            );
        }
    }

    #[test]
    fn a_position_and_its_mirror_image_agree() {
        // Weights that are not symmetric by themselves.
        let mut p = Patterns::from_linear();
        for (i, w) in p.weights_mut().iter_mut().enumerate() {
            *w += (i % 97) as f32 / 1000.0;
        }
        for fen in [
            "W:W21,22,K5:B1,9,10",
            "B:Wa1,c3,Kh8:Bb6,d8,Kf2",
            "W:W18,19,20,24,27:B3,6,7,K29",
        ] {
            let pos = parse_fen(fen).expect("fen");
            let (a, b) = (p.logit(&pos), p.logit(&pos.mirror()));
            assert!((a - b).abs() < 1e-4, "{fen}: {a} against {b}");
        }
    }

    #[test]
    fn bytes_round_trip_and_bad_bytes_are_errors() {
        let p = Patterns::from_linear();
        assert_eq!(Patterns::parse(&p.to_bytes()), Ok(p.clone()));
        assert_eq!(Patterns::parse(b"junk"), Err(PatternError::Header));
        let mut cut = p.to_bytes();
        cut.truncate(cut.len() - 3);
        assert!(matches!(
            Patterns::parse(&cut),
            Err(PatternError::Size { .. })
        ));
        let mut nan = p.to_bytes();
        let at = HEADER.len() + 4 * 7;
        nan[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
        assert_eq!(Patterns::parse(&nan), Err(PatternError::NotFinite(7)));
    }

    #[test]
    fn a_file_of_the_first_format_loads_with_empty_king_tables() {
        let p = Patterns::from_linear();
        let mut v1 = HEADER_V1.to_vec();
        for w in &p.weights()[..V1_WEIGHTS] {
            v1.extend_from_slice(&w.to_le_bytes());
        }
        assert_eq!(Patterns::parse(&v1), Ok(p));
        v1.extend_from_slice(&[0; 4]);
        assert!(matches!(
            Patterns::parse(&v1),
            Err(PatternError::Size { .. })
        ));
    }

    #[test]
    fn material_balances_are_read_from_either_side() {
        let mut p = Patterns::from_linear();
        // Three kings against one are worth something to whoever has them.
        let three_one = material(0, 0b111, 0, 0b1);
        p.weights_mut()[MATERIAL_TABLE + three_one] = 2.0;
        let white = parse_fen("W:WK1,K2,K3:BK32").expect("fen");
        let black = parse_fen("B:WK1,K2,K3:BK32").expect("fen");
        let base = Patterns::from_linear();
        assert!((p.logit(&white) - base.logit(&white) - 2.0).abs() < 1e-4);
        assert!((p.logit(&black) - base.logit(&black) + 2.0).abs() < 1e-4);
    }

    #[test]
    fn a_missing_or_foreign_file_is_an_error_naming_it() {
        let dir = std::env::temp_dir().join(format!("patterns-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let junk = dir.join("junk.bin");
        std::fs::write(&junk, b"hello").expect("write");
        for path in [dir.join("missing.bin"), junk] {
            let err = load(&path).expect_err("not weights").to_string();
            assert!(err.contains(&path.display().to_string()), "{err}");
        }
        let good = dir.join("good.bin");
        std::fs::write(&good, Patterns::from_linear().to_bytes()).expect("write");
        assert_eq!(load(&good), Ok(Patterns::from_linear()));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn built_in_patterns_load() {
        assert!(built_in().is_ok());
    }
}
