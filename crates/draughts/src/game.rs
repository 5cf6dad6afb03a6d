//! A game: the history of positions and moves, and the verdict of the rules on it: a side with
//! no legal move loses; the draw rules of RULES.md (FMJD), all counted in plies.

use std::fmt;

use crate::error::MoveError;
use crate::fen::{parse_fen, to_fen};
use crate::movegen::MoveList;
use crate::moves::Move;
use crate::position::{Color, Position};
use crate::square::Square;

/// The long diagonal a1-h8 (the "main road").
pub const MAIN_DIAGONAL: u64 = {
    let mut m = 0u64;
    let mut i = 0;
    while i < 8 {
        m |= 1u64 << ((i + 9 * i) / 2);
        i += 1;
    }
    m
};

/// Plies of king-only, capture-free play that draw (15 moves by each side).
pub const KING_MOVES_DRAW_PLIES: u16 = 30;
/// Moves by the stronger side, with three or more pieces (a king among them) against a lone
/// king, after which the game is drawn.
pub const LONE_KING_STRONG_MOVES: u16 = 15;
/// Plies after which two pieces (one a king) against a lone king are drawn (5 moves each).
pub const TWO_VS_ONE_PLIES: u16 = 10;
/// Plies with unchanged forces, both sides having kings, that draw with 4-5 pieces (30 moves).
pub const KINGS_ENDING_4_5_PLIES: u16 = 60;
/// The same with 6-7 pieces (60 moves).
pub const KINGS_ENDING_6_7_PLIES: u16 = 120;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The loser had no legal move: no pieces left, or all blocked.
    NoMoves,
    Resignation,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The same position with the same side to move occurred three times.
    Repetition,
    /// 15 moves (30 plies) in which both sides only moved kings, without capturing.
    KingMoves,
    /// Three or more pieces, a king among them, against a lone king not captured by the
    /// stronger side's 15th move.
    LoneKing,
    /// A lone king holding the main diagonal against three pieces.
    MainDiagonal,
    /// Kings on both sides and no change of forces for 30 moves (4-5 pieces) or 60 (6-7).
    KingsEnding,
    /// Two pieces, one a king, against a lone king, for 5 moves.
    TwoAgainstOne,
    Agreement,
}

/// The verdict of the rules on a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    Ongoing,
    Win { winner: Color, reason: WinReason },
    Draw(DrawReason),
}

impl GameResult {
    pub fn is_over(&self) -> bool {
        !matches!(self, GameResult::Ongoing)
    }

    /// The PDN result tag: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn pdn_tag(&self) -> &'static str {
        match self {
            GameResult::Ongoing => "*",
            GameResult::Win {
                winner: Color::White,
                ..
            } => "1-0",
            GameResult::Win {
                winner: Color::Black,
                ..
            } => "0-1",
            GameResult::Draw(_) => "1/2-1/2",
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Ongoing => f.write_str("game in progress"),
            GameResult::Win { winner, reason } => {
                let why = match reason {
                    WinReason::NoMoves => "the opponent has no legal move",
                    WinReason::Resignation => "the opponent resigned",
                };
                write!(f, "{winner} wins: {why}")
            }
            GameResult::Draw(reason) => {
                let why = match reason {
                    DrawReason::Repetition => "threefold repetition",
                    DrawReason::KingMoves => "15 moves by kings only, without captures",
                    DrawReason::LoneKing => "a lone king survived 15 moves against three pieces",
                    DrawReason::MainDiagonal => "a lone king holds the main diagonal against three",
                    DrawReason::KingsEnding => "no change of forces in a kings ending",
                    DrawReason::TwoAgainstOne => {
                        "two pieces could not catch a lone king in 5 moves"
                    }
                    DrawReason::Agreement => "agreed",
                };
                write!(f, "draw: {why}")
            }
        }
    }
}

/// The ply counters the draw rules need, cheap to carry through a search or a playout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Counters {
    /// Consecutive plies in which only kings moved and nothing was captured.
    pub king_plies: u16,
    /// Plies since the balance of forces last changed (a capture or a crowning), or since the
    /// game started.
    pub material_plies: u16,
    /// The side to move when the balance of forces last changed.
    pub material_start: Color,
    /// Plies since the last irreversible move (a man move or a capture): repetitions can only
    /// reach back this far.
    pub reversible_plies: u16,
}

impl Counters {
    pub fn new(pos: &Position) -> Counters {
        Counters {
            king_plies: 0,
            material_plies: 0,
            material_start: pos.side_to_move(),
            reversible_plies: 0,
        }
    }

    /// The counters after `mv` is played in `before`.
    #[inline]
    pub fn after(&self, before: &Position, mv: &Move) -> Counters {
        let man_moved = before.all_kings() & mv.from().mask() == 0;
        let irreversible = man_moved || mv.is_capture();
        let forces_changed = mv.is_capture() || mv.promotes();
        Counters {
            king_plies: if irreversible { 0 } else { self.king_plies + 1 },
            material_plies: if forces_changed {
                0
            } else {
                self.material_plies.saturating_add(1)
            },
            material_start: if forces_changed {
                before.side_to_move().opponent()
            } else {
                self.material_start
            },
            reversible_plies: if irreversible {
                0
            } else {
                self.reversible_plies.saturating_add(1)
            },
        }
    }

    /// The draw, if any, that the counters and material of `pos` call (repetition aside).
    #[inline]
    pub fn draw(&self, pos: &Position) -> Option<DrawReason> {
        if self.king_plies >= KING_MOVES_DRAW_PLIES {
            return Some(DrawReason::KingMoves);
        }
        if pos.all_kings() == 0 {
            return None;
        }
        let m = pos.material();
        for strong in [Color::White, Color::Black] {
            let weak = strong.opponent();
            if m.pieces(weak) != 1 || m.kings(weak) != 1 || m.kings(strong) == 0 {
                continue;
            }
            let n = m.pieces(strong);
            if n >= 3 {
                if n == 3 && pos.kings(weak) & MAIN_DIAGONAL != 0 {
                    return Some(DrawReason::MainDiagonal);
                }
                if self.moves_by(strong) >= LONE_KING_STRONG_MOVES {
                    return Some(DrawReason::LoneKing);
                }
            } else if n == 2 && self.material_plies >= TWO_VS_ONE_PLIES {
                return Some(DrawReason::TwoAgainstOne);
            }
        }
        if m.kings(Color::White) > 0 && m.kings(Color::Black) > 0 {
            let limit = match m.total() {
                4 | 5 => KINGS_ENDING_4_5_PLIES,
                6 | 7 => KINGS_ENDING_6_7_PLIES,
                _ => return None,
            };
            if self.material_plies >= limit {
                return Some(DrawReason::KingsEnding);
            }
        }
        None
    }

    /// Plies until [`Counters::draw`] calls a draw if from now on only kings move and nothing
    /// is captured or crowned (0: drawn now). A search that knows a win in `d` plies can trust
    /// it to finish in time when `d` is at most this.
    pub fn plies_to_counting_draw(&self, pos: &Position) -> u16 {
        let mut later = *self;
        for plies in 0..=KINGS_ENDING_6_7_PLIES {
            if later.draw(pos).is_some() {
                return plies;
            }
            later.king_plies = later.king_plies.saturating_add(1);
            later.material_plies = later.material_plies.saturating_add(1);
            later.reversible_plies = later.reversible_plies.saturating_add(1);
        }
        u16::MAX
    }

    /// Moves `side` has made since the balance of forces last changed.
    fn moves_by(&self, side: Color) -> u16 {
        let n = self.material_plies;
        if side == self.material_start {
            n.div_ceil(2)
        } else {
            n / 2
        }
    }
}

/// A game in progress or finished: the start position, every move, and the rules' verdict.
#[derive(Clone, Debug)]
pub struct Game {
    /// Positions before and after every ply: `positions[i]` is the position after `i` plies.
    positions: Vec<Position>,
    counters: Vec<Counters>,
    moves: Vec<Move>,
    /// A result the players decided (resignation, agreement), which the rules cannot see.
    declared: Option<GameResult>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new()
    }
}

impl Game {
    /// A game from the initial position.
    pub fn new() -> Game {
        Game::from_position(Position::start())
    }

    pub fn from_position(pos: Position) -> Game {
        Game {
            positions: vec![pos],
            counters: vec![Counters::new(&pos)],
            moves: Vec::new(),
            declared: None,
        }
    }

    pub fn from_fen(fen: &str) -> Result<Game, crate::ParseError> {
        Ok(Game::from_position(parse_fen(fen)?))
    }

    pub fn position(&self) -> &Position {
        self.positions
            .last()
            .unwrap_or_else(|| unreachable!("a game always has a position"))
    }

    pub fn start_position(&self) -> &Position {
        &self.positions[0]
    }

    /// The position after each ply, the start first.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn ply_count(&self) -> usize {
        self.moves.len()
    }

    /// The draw-rule counters of the current position.
    pub fn counters(&self) -> Counters {
        *self
            .counters
            .last()
            .unwrap_or_else(|| unreachable!("a game always has counters"))
    }

    pub fn legal_moves(&self) -> MoveList {
        if self.result().is_over() {
            MoveList::new()
        } else {
            self.position().legal_moves()
        }
    }

    /// Plays a legal move. The generator's copy is stored, so the kept path is canonical.
    pub fn play(&mut self, mv: &Move) -> Result<(), MoveError> {
        let result = self.result();
        if result.is_over() {
            return Err(MoveError::GameOver(result));
        }
        let pos = *self.position();
        let legal = pos.legal_moves();
        let Some(found) = legal.iter().find(|m| *m == mv) else {
            return Err(MoveError::Illegal {
                text: mv.text(),
                fen: to_fen(&pos),
            });
        };
        self.push(*found);
        Ok(())
    }

    /// Plays the move named by `text` (any form [`Position::parse_move`] reads).
    pub fn play_text(&mut self, text: &str) -> Result<Move, MoveError> {
        let result = self.result();
        if result.is_over() {
            return Err(MoveError::GameOver(result));
        }
        let mv = self.position().parse_move(text)?;
        self.push(mv);
        Ok(mv)
    }

    fn push(&mut self, mv: Move) {
        let pos = *self.position();
        let c = self.counters().after(&pos, &mv);
        self.positions.push(pos.after(&mv));
        self.counters.push(c);
        self.moves.push(mv);
    }

    /// Takes the last ply back.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.counters.pop();
        self.declared = None;
        Some(mv)
    }

    /// `side` resigns; the game ends at once.
    pub fn resign(&mut self, side: Color) {
        if !self.result().is_over() {
            self.declared = Some(GameResult::Win {
                winner: side.opponent(),
                reason: WinReason::Resignation,
            });
        }
    }

    /// Both players agree to a draw.
    pub fn agree_draw(&mut self) {
        if !self.result().is_over() {
            self.declared = Some(GameResult::Draw(DrawReason::Agreement));
        }
    }

    /// How many times the current position (same side to move) has occurred.
    pub fn repetition_count(&self) -> usize {
        let now = self.position();
        let window = self.counters().reversible_plies as usize;
        let n = self.positions.len();
        // Only positions since the last irreversible move can repeat, and only those with the
        // same side to move, every second ply.
        self.positions[n - 1 - window.min(n - 1)..]
            .iter()
            .rev()
            .step_by(2)
            .filter(|p| p.hash() == now.hash() && *p == now)
            .count()
    }

    /// The rules' verdict on the game as it stands.
    pub fn result(&self) -> GameResult {
        if let Some(r) = self.declared {
            return r;
        }
        let pos = self.position();
        if pos.count_legal() == 0 {
            return GameResult::Win {
                winner: pos.side_to_move().opponent(),
                reason: WinReason::NoMoves,
            };
        }
        if self.repetition_count() >= 3 {
            return GameResult::Draw(DrawReason::Repetition);
        }
        match self.counters().draw(pos) {
            Some(reason) => GameResult::Draw(reason),
            None => GameResult::Ongoing,
        }
    }

    /// The squares a piece of the side to move can start a legal move from.
    pub fn movable_squares(&self) -> Vec<Square> {
        let mut v: Vec<Square> = self.legal_moves().iter().map(|m| m.from()).collect();
        v.sort();
        v.dedup();
        v
    }
}
