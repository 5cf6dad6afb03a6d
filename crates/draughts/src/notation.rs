//! Reading move text against a position: `c3-d4`, `c3:e5:g3`, `c3xe5`, numeric `22-18` and
//! `22x13`, and a short `c3:g3` (from and to only, or any subset of the landings) when it names
//! exactly one legal move.

use crate::error::{MoveError, ParseError};
use crate::fen::to_fen;
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;

/// Splits move text into its squares. Accepts `-`, `:` and `x` as separators and ignores
/// trailing annotations (`!`, `?`, `+`, `*`).
pub fn parse_squares(text: &str) -> Result<Vec<Square>, ParseError> {
    let bad = || ParseError::MoveText(text.to_string());
    let t = text.trim().trim_end_matches(['!', '?', '+', '*', '#']);
    if t.is_empty() {
        return Err(bad());
    }
    let mut squares = Vec::new();
    for part in t.split(['-', ':', 'x', 'X']) {
        squares.push(part.parse::<Square>().map_err(|_| bad())?);
    }
    if squares.len() < 2 {
        return Err(bad());
    }
    Ok(squares)
}

impl Position {
    /// The legal move named by `text`.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let squares = parse_squares(text)?;
        let from = squares[0];
        let to = squares[squares.len() - 1];
        let inner = &squares[1..squares.len() - 1];
        let moves = self.legal_moves();
        let candidates: Vec<&Move> = moves
            .iter()
            .filter(|m| m.from() == from && m.to() == to)
            .collect();
        // A full path names one move exactly, whichever of its paths the generator kept.
        if let Some(captured) = self.path_captures(&squares) {
            if let Some(m) = candidates.iter().find(|m| m.captured() == captured) {
                return Ok(**m);
            }
        }
        let matching: Vec<&Move> = candidates
            .into_iter()
            .filter(|m| is_subsequence(inner, m.landings()))
            .collect();
        match matching.as_slice() {
            [one] => Ok(**one),
            [] => Err(MoveError::Illegal {
                text: text.trim().to_string(),
                fen: to_fen(self),
            }),
            many => Err(MoveError::Ambiguous {
                text: text.trim().to_string(),
                candidates: many.iter().map(|m| **m).collect(),
            }),
        }
    }

    /// The pieces a capture along `squares` takes, when each step jumps exactly one enemy piece
    /// along a diagonal; `None` otherwise.
    fn path_captures(&self, squares: &[Square]) -> Option<u64> {
        let enemy = self.pieces(self.side_to_move().opponent());
        let mut captured = 0u64;
        for pair in squares.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let df = b.file() as i8 - a.file() as i8;
            let dr = b.rank() as i8 - a.rank() as i8;
            if df.abs() != dr.abs() || df.abs() < 2 {
                return None;
            }
            let (sf, sr) = (df.signum(), dr.signum());
            let mut taken = 0u64;
            for i in 1..df.abs() {
                let f = (a.file() as i8 + sf * i) as u8;
                let r = (a.rank() as i8 + sr * i) as u8;
                let sq = Square::from_file_rank(f, r)?;
                if enemy & sq.mask() != 0 {
                    taken |= sq.mask();
                }
            }
            if taken.count_ones() != 1 || captured & taken != 0 {
                return None;
            }
            captured |= taken;
        }
        Some(captured)
    }
}

fn is_subsequence(needle: &[Square], hay: &[Square]) -> bool {
    let mut it = hay.iter();
    needle.iter().all(|n| it.any(|h| h == n))
}
