//! Openings for matches: a start position and moves played before the planners take over.
//! Text form, one opening per line: moves from the initial position (`c3-d4 f6-g5 b2-c3`), or
//! a FEN (`W:W21-32:B1-12`) optionally followed by `;` and moves. `#` starts a comment.

use std::ops::RangeInclusive;

use draughts::{parse_fen, Game, Move, Position};

use crate::alphabeta::AlphaBeta;
use crate::planner::{Control, Limits, Planner};

/// The built-in set: every 3-ply opening whose depth-10 alpha-beta value lies within 0.3 of a
/// man of even (made by `cargo run --release -p search --example make_openings`).
pub const BUILT_IN: &str = include_str!("openings.txt");

#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    /// The line as written (for PDN headers).
    pub name: String,
    pub start: Position,
    pub moves: Vec<Move>,
}

impl Opening {
    /// The game after the opening's moves.
    pub fn game(&self) -> Game {
        // Every move was checked legal when the opening was parsed.
        replay(self.start, &self.moves)
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum OpeningError {
    #[error("line {line}: {why}")]
    Line { line: usize, why: String },
    #[error("no openings found")]
    Empty,
}

pub fn parse_openings(text: &str) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |why: String| OpeningError::Line { line: i + 1, why };
        let is_fen = line.starts_with("W:") || line.starts_with("B:");
        let (start, moves_text) = if is_fen {
            let (fen, rest) = line.split_once(';').unwrap_or((line, ""));
            (parse_fen(fen.trim()).map_err(|e| err(e.to_string()))?, rest)
        } else {
            (Position::start(), line)
        };
        start.validate().map_err(|e| err(e.to_string()))?;
        let mut game = Game::from_position(start);
        let mut moves = Vec::new();
        for word in moves_text.split_whitespace() {
            let mv = game.play_text(word).map_err(|e| err(e.to_string()))?;
            moves.push(mv);
        }
        if game.result().is_over() {
            return Err(err("the game is already over after the opening".into()));
        }
        out.push(Opening {
            name: line.to_string(),
            start,
            moves,
        });
    }
    if out.is_empty() {
        return Err(OpeningError::Empty);
    }
    Ok(out)
}

pub fn built_in() -> Vec<Opening> {
    parse_openings(BUILT_IN).unwrap_or_default()
}

/// Every opening of `plies` moves from the start whose value at `depth` (for the side to move)
/// is within `max_abs` hundredths of a man of even, in the generator's order.
pub fn balanced_openings(plies: usize, depth: u32, max_abs: i32) -> Vec<Vec<Move>> {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    openings_by_value(plies, &mut AlphaBeta::new(), &limits, 0..=max_abs)
        .into_iter()
        .map(|(line, _)| line)
        .collect()
}

/// Every opening of `plies` moves from the start whose value by `planner` within `limits`
/// (the planner's value for the side to move) has its magnitude in `abs_range`, with
/// that value, in the generator's order. A range away from zero gives unbalanced openings:
/// one side starts better, and since a match plays each opening with colours swapped, the
/// stronger planner converts more of them where balanced ones end drawn.
pub fn openings_by_value(
    plies: usize,
    planner: &mut dyn Planner,
    limits: &Limits,
    abs_range: RangeInclusive<i32>,
) -> Vec<(Vec<Move>, i32)> {
    let mut lines: Vec<Vec<Move>> = vec![Vec::new()];
    for _ in 0..plies {
        let mut next = Vec::new();
        for line in &lines {
            let g = replay(Position::start(), line);
            if g.result().is_over() {
                continue;
            }
            for m in g.legal_moves() {
                let mut l = line.clone();
                l.push(m);
                next.push(l);
            }
        }
        lines = next;
    }
    lines
        .into_iter()
        .filter_map(|line| {
            let g = replay(Position::start(), &line);
            if g.result().is_over() {
                return None;
            }
            planner.new_game();
            let value = planner.choose(&g, limits, &Control::default()).ok()?.value;
            abs_range.contains(&value.abs()).then_some((line, value))
        })
        .collect()
}

/// The game after `line` from `start`, up to the first move that is not legal there (none is
/// where the caller checked or generated them).
fn replay(start: Position, line: &[Move]) -> Game {
    let mut g = Game::from_position(start);
    for m in line {
        if g.play(m).is_err() {
            break;
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_set_is_legal_and_varied() {
        let set = built_in();
        assert!(set.len() >= 20, "{}", set.len());
        for o in &set {
            assert!(!o.game().result().is_over());
        }
        let mut firsts: Vec<String> = set.iter().map(|o| o.moves[0].text()).collect();
        firsts.dedup();
        assert!(firsts.len() >= 4);
    }

    #[test]
    fn openings_are_kept_by_the_magnitude_of_their_value() {
        let limits = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        let all = openings_by_value(2, &mut AlphaBeta::new(), &limits, 0..=i32::MAX);
        // Seven first moves, each answered by seven.
        assert_eq!(all.len(), 49);
        let (lo, hi) = (10, 40);
        let window = openings_by_value(2, &mut AlphaBeta::new(), &limits, lo..=hi);
        let expected: Vec<_> = all
            .iter()
            .filter(|(_, v)| (lo..=hi).contains(&v.abs()))
            .cloned()
            .collect();
        assert_eq!(window, expected);
        assert!(!window.is_empty() && window.len() < all.len());
        let balanced = balanced_openings(2, 2, hi);
        let within: Vec<_> = all
            .iter()
            .filter(|(_, v)| v.abs() <= hi)
            .map(|(l, _)| l.clone())
            .collect();
        assert_eq!(balanced, within);
    }

    #[test]
    fn parses_moves_and_fens_and_names_bad_lines() {
        let set = parse_openings("# comment\nc3-d4 f6-g5\n\nW:W21,22:B1,2 ; c3-d4\nB:W21:B1\n")
            .expect("valid");
        assert_eq!(set.len(), 3);
        assert_eq!(set[0].moves.len(), 2);
        assert_eq!(set[1].moves.len(), 1);
        assert_eq!(set[2].start.side_to_move(), draughts::Color::Black);
        let e = parse_openings("c3-d4\nc3-d4 c3-d4\n").expect_err("illegal");
        assert!(matches!(e, OpeningError::Line { line: 2, .. }), "{e}");
        assert_eq!(parse_openings("# nothing\n"), Err(OpeningError::Empty));
    }
}
