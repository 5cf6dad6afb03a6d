//! A move: where a piece starts, where it ends, what it takes, and the path it took.

use std::fmt;
use std::hash::{Hash, Hasher};

use crate::square::{Square, Squares};

/// The most landings one capture can have: one per captured piece, and a side has at most 12.
pub const MAX_PATH: usize = 12;

/// A legal move. Its identity is (from, to, captured set), as RULES.md says: two capture paths
/// that agree on those are one move, and equality and hashing ignore the path. The path (every
/// landing square, the last being `to`) is kept for the arm and for move text.
#[derive(Clone, Copy)]
pub struct Move {
    from: Square,
    to: Square,
    promotes: bool,
    len: u8,
    path: [Square; MAX_PATH],
    captured: u64,
}

impl Move {
    /// A quiet (non-capturing) move.
    #[inline(always)]
    pub(crate) fn quiet(from: Square, to: Square, promotes: bool) -> Move {
        let mut path = [to; MAX_PATH];
        path[0] = to;
        Move {
            from,
            to,
            promotes,
            len: 1,
            path,
            captured: 0,
        }
    }

    /// A capture along `landings` (non-empty, at most [`MAX_PATH`]).
    #[inline]
    pub(crate) fn capture(
        from: Square,
        landings: &[Square],
        captured: u64,
        promotes: bool,
    ) -> Move {
        let n = landings.len().min(MAX_PATH);
        let to = landings[n - 1];
        let mut path = [to; MAX_PATH];
        path[..n].copy_from_slice(&landings[..n]);
        Move {
            from,
            to,
            promotes,
            len: n as u8,
            path,
            captured,
        }
    }

    #[inline(always)]
    pub fn from(&self) -> Square {
        self.from
    }

    #[inline(always)]
    pub fn to(&self) -> Square {
        self.to
    }

    /// The captured pieces as a bitboard (empty for a quiet move).
    #[inline(always)]
    pub fn captured(&self) -> u64 {
        self.captured
    }

    /// The captured squares, in board order.
    pub fn captured_squares(&self) -> impl Iterator<Item = Square> {
        Squares(self.captured)
    }

    #[inline(always)]
    pub fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// Whether a man is crowned by this move (on its last square or during the capture).
    #[inline(always)]
    pub fn promotes(&self) -> bool {
        self.promotes
    }

    /// Every landing square after `from`, ending with `to`.
    pub fn landings(&self) -> &[Square] {
        &self.path[..self.len as usize]
    }

    /// `from` followed by every landing.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        std::iter::once(self.from).chain(self.landings().iter().copied())
    }

    /// The same move seen from the other side of the board.
    pub fn mirror(&self) -> Move {
        let mut m = *self;
        m.from = self.from.mirror();
        m.to = self.to.mirror();
        for sq in m.path.iter_mut() {
            *sq = sq.mirror();
        }
        m.captured = crate::position::mirror_board(self.captured);
        m
    }

    /// Full-path text: `c3-d4`, `c3:e5:g3`.
    pub fn text(&self) -> String {
        self.to_string()
    }

    /// Text with PDN square numbers: `22-18`, `22x13x6`.
    pub fn numeric_text(&self) -> String {
        let sep = if self.is_capture() { "x" } else { "-" };
        self.squares()
            .map(|s| s.number().to_string())
            .collect::<Vec<_>>()
            .join(sep)
    }
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.from == other.from && self.to == other.to && self.captured == other.captured
    }
}

impl Eq for Move {}

impl Hash for Move {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.from.hash(state);
        self.to.hash(state);
        self.captured.hash(state);
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_capture() { ':' } else { '-' };
        write!(f, "{}", self.from)?;
        for sq in self.landings() {
            write!(f, "{sep}{sq}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}
