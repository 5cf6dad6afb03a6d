//! The position: three bitboards and the side to move, with an incrementally kept Zobrist hash.

use std::fmt;

use crate::error::PositionError;
use crate::moves::Move;
use crate::square::{Square, Squares, VALID};
use crate::zobrist;

/// Rank 8 (White crowns there).
pub const RANK_8: u64 = 0xF << 32;
/// Rank 1 (Black crowns there).
pub const RANK_1: u64 = 0xF;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White,
    Black,
}

impl Color {
    #[inline(always)]
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// The rank where this side's men are crowned.
    #[inline(always)]
    pub const fn crown_rank(self) -> u64 {
        match self {
            Color::White => RANK_8,
            Color::Black => RANK_1,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PieceKind {
    Man,
    King,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: PieceKind,
}

impl Piece {
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    const fn zobrist_index(self) -> usize {
        (match self.color {
            Color::White => 0,
            Color::Black => 2,
        }) + match self.kind {
            PieceKind::Man => 0,
            PieceKind::King => 1,
        }
    }
}

/// A position of Russian draughts. Copy-make: playing a move returns or overwrites a copy.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    white: u64,
    black: u64,
    kings: u64,
    side: Color,
    hash: u64,
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

/// Counts of each kind of piece, enough to tell when the balance of forces changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Material {
    pub white_men: u8,
    pub white_kings: u8,
    pub black_men: u8,
    pub black_kings: u8,
}

impl Material {
    pub const fn pieces(&self, color: Color) -> u8 {
        match color {
            Color::White => self.white_men + self.white_kings,
            Color::Black => self.black_men + self.black_kings,
        }
    }

    pub const fn kings(&self, color: Color) -> u8 {
        match color {
            Color::White => self.white_kings,
            Color::Black => self.black_kings,
        }
    }

    pub const fn total(&self) -> u8 {
        self.white_men + self.white_kings + self.black_men + self.black_kings
    }
}

impl Position {
    /// The initial position: White men on a1..h3, Black men on a6..h8, White to move.
    pub fn start() -> Position {
        let white = VALID & ((1u64 << 13) - 1); // ranks 1-3 are bits 0..=12 (h3 = 12)
        let black = VALID & !((1u64 << 23) - 1); // ranks 6-8 start at bit 23 (a6)
        Position::from_boards(white, black, 0, Color::White)
    }

    /// An empty board with `side` to move.
    pub fn empty(side: Color) -> Position {
        Position::from_boards(0, 0, 0, side)
    }

    /// Builds a position from raw bitboards (bits outside the board are dropped). Use
    /// [`Position::validate`] before trusting one built from outside input.
    pub fn from_boards(white: u64, black: u64, kings: u64, side: Color) -> Position {
        let white = white & VALID;
        let black = black & VALID & !white;
        let kings = kings & (white | black);
        let mut p = Position {
            white,
            black,
            kings,
            side,
            hash: 0,
        };
        p.hash = p.compute_hash();
        p
    }

    /// The hash recomputed from scratch; equals [`Position::hash`] whenever the position is sound.
    pub fn compute_hash(&self) -> u64 {
        let mut h = zobrist::board(0, self.white & !self.kings)
            ^ zobrist::board(1, self.white & self.kings)
            ^ zobrist::board(2, self.black & !self.kings)
            ^ zobrist::board(3, self.black & self.kings);
        if self.side == Color::Black {
            h ^= zobrist::SIDE;
        }
        h
    }

    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline(always)]
    pub fn pieces(&self, color: Color) -> u64 {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    #[inline(always)]
    pub fn men(&self, color: Color) -> u64 {
        self.pieces(color) & !self.kings
    }

    #[inline(always)]
    pub fn kings(&self, color: Color) -> u64 {
        self.pieces(color) & self.kings
    }

    #[inline(always)]
    pub fn all_kings(&self) -> u64 {
        self.kings
    }

    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.white | self.black
    }

    #[inline(always)]
    pub fn empty_squares(&self) -> u64 {
        VALID & !(self.white | self.black)
    }

    /// Presence of a piece on each square, as the board's Hall sensors see it: bit `n - 1` is
    /// the square numbered `n` in the PDN numbering.
    pub fn occupancy_mask(&self) -> u32 {
        bitboard_to_numbered(self.occupied())
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let m = sq.mask();
        let kind = if self.kings & m != 0 {
            PieceKind::King
        } else {
            PieceKind::Man
        };
        if self.white & m != 0 {
            Some(Piece::new(Color::White, kind))
        } else if self.black & m != 0 {
            Some(Piece::new(Color::Black, kind))
        } else {
            None
        }
    }

    /// Puts `piece` on `sq` (or clears it), keeping the hash right.
    pub fn set_piece(&mut self, sq: Square, piece: Option<Piece>) {
        let m = sq.mask();
        if let Some(old) = self.piece_at(sq) {
            self.hash ^= zobrist::piece(old.zobrist_index(), sq.bit());
        }
        self.white &= !m;
        self.black &= !m;
        self.kings &= !m;
        if let Some(p) = piece {
            match p.color {
                Color::White => self.white |= m,
                Color::Black => self.black |= m,
            }
            if p.kind == PieceKind::King {
                self.kings |= m;
            }
            self.hash ^= zobrist::piece(p.zobrist_index(), sq.bit());
        }
    }

    pub fn set_side_to_move(&mut self, side: Color) {
        if side != self.side {
            self.side = side;
            self.hash ^= zobrist::SIDE;
        }
    }

    pub fn material(&self) -> Material {
        Material {
            white_men: (self.white & !self.kings).count_ones() as u8,
            white_kings: (self.white & self.kings).count_ones() as u8,
            black_men: (self.black & !self.kings).count_ones() as u8,
            black_kings: (self.black & self.kings).count_ones() as u8,
        }
    }

    /// Checks that the position could arise in a game: no square twice, at most 12 pieces a
    /// side, no uncrowned man on its crowning rank.
    pub fn validate(&self) -> Result<(), PositionError> {
        if let Some(sq) = Squares(self.white & self.black).next() {
            return Err(PositionError::Overlap(sq));
        }
        for color in [Color::White, Color::Black] {
            let n = self.pieces(color).count_ones();
            if n > 12 {
                return Err(PositionError::TooManyPieces(color, n));
            }
        }
        if let Some(sq) = Squares(self.men(Color::White) & RANK_8).next() {
            return Err(PositionError::WhiteManOnLastRank(sq));
        }
        if let Some(sq) = Squares(self.men(Color::Black) & RANK_1).next() {
            return Err(PositionError::BlackManOnFirstRank(sq));
        }
        Ok(())
    }

    /// Plays `mv` in place. The move must be legal here (from [`Position::legal_moves`]).
    #[inline]
    pub fn play(&mut self, mv: &Move) {
        self.hash = self.hash_after(mv);
        let king = self.kings & mv.from().mask() != 0 || mv.promotes();
        self.move_piece(mv.from().mask(), mv.to().mask(), mv.captured(), king);
    }

    /// The position after the piece on `from` goes to `to` (one-square masks) taking
    /// `captured`, with its hash left as it was: for perft, which counts positions and never
    /// looks one up, and so need not pay for the hash. `king` when the piece is or becomes a
    /// king.
    #[inline(always)]
    pub(crate) fn after_unhashed(&self, from: u64, to: u64, captured: u64, king: bool) -> Position {
        let mut p = *self;
        p.move_piece(from, to, captured, king);
        p
    }

    #[inline(always)]
    fn move_piece(&mut self, from: u64, to: u64, captured: u64, king: bool) {
        // from and to may be the same square (a king's circular capture): clear, then set.
        let kings = (self.kings & !from & !captured) | if king { to } else { 0 };
        match self.side {
            Color::White => {
                self.white = (self.white & !from) | to;
                self.black &= !captured;
            }
            Color::Black => {
                self.black = (self.black & !from) | to;
                self.white &= !captured;
            }
        }
        self.kings = kings;
        self.side = self.side.opponent();
    }

    /// The hash of the position after `mv`, from this one's.
    #[inline(always)]
    fn hash_after(&self, mv: &Move) -> u64 {
        let captured = mv.captured();
        let (own_man, own_king, opp_man, opp_king) = match self.side {
            Color::White => (0, 1, 2, 3),
            Color::Black => (2, 3, 0, 1),
        };
        let mut h = self.hash ^ zobrist::SIDE;
        if self.kings & mv.from().mask() != 0 {
            h ^=
                zobrist::piece(own_king, mv.from().bit()) ^ zobrist::piece(own_king, mv.to().bit());
        } else {
            let to_kind = if mv.promotes() { own_king } else { own_man };
            h ^= zobrist::piece(own_man, mv.from().bit()) ^ zobrist::piece(to_kind, mv.to().bit());
        }
        if captured != 0 {
            h ^= zobrist::board(opp_man, captured & !self.kings)
                ^ zobrist::board(opp_king, captured & self.kings);
        }
        h
    }

    /// The position after `mv`.
    #[inline]
    pub fn after(&self, mv: &Move) -> Position {
        let mut p = *self;
        p.play(mv);
        p
    }

    /// The same position seen from the other side: board rotated 180 degrees, colours swapped.
    pub fn mirror(&self) -> Position {
        Position::from_boards(
            mirror_board(self.black),
            mirror_board(self.white),
            mirror_board(self.kings),
            self.side.opponent(),
        )
    }
}

/// Rotates a bitboard by 180 degrees.
pub fn mirror_board(bb: u64) -> u64 {
    (bb & VALID).reverse_bits() >> 28
}

/// Converts a bitboard to the 32-bit mask in PDN numbering (bit `n - 1` = square `n`).
pub fn bitboard_to_numbered(bb: u64) -> u32 {
    Squares(bb & VALID).fold(0u32, |m, sq| m | 1 << (sq.number() - 1))
}

/// Converts a 32-bit mask in PDN numbering back to a bitboard.
pub fn numbered_to_bitboard(mask: u32) -> u64 {
    (1..=32u8)
        .filter(|n| mask & (1 << (n - 1)) != 0)
        .filter_map(Square::from_number)
        .fold(0u64, |b, sq| b | sq.mask())
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", crate::fen::to_fen(self))
    }
}

impl fmt::Display for Position {
    /// A text diagram, White at the bottom: `w`/`b` men, `W`/`B` kings, `.` empty dark squares.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8u8).rev() {
            write!(f, "{} ", rank + 1)?;
            for file in 0..8u8 {
                let c = match Square::from_file_rank(file, rank) {
                    None => ' ',
                    Some(sq) => match self.piece_at(sq) {
                        None => '.',
                        Some(Piece {
                            color: Color::White,
                            kind: PieceKind::Man,
                        }) => 'w',
                        Some(Piece {
                            color: Color::White,
                            kind: PieceKind::King,
                        }) => 'W',
                        Some(Piece {
                            color: Color::Black,
                            kind: PieceKind::Man,
                        }) => 'b',
                        Some(Piece {
                            color: Color::Black,
                            kind: PieceKind::King,
                        }) => 'B',
                    },
                };
                write!(f, "{c} ")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "  a b c d e f g h   {} to move", self.side)
    }
}
