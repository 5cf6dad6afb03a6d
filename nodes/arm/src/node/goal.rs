//! An `ExecuteMove` goal's move, checked. The arm knows no position, so it cannot check that a
//! move is legal; it checks that the message describes a move at all: squares on the board, a
//! path of diagonal legs that ends on `to_square`, one landing per captured piece, each captured
//! piece on a leg, nothing captured twice. A goal that fails is aborted with the reason.

use checkers_msgs::msg::Move as MoveMsg;
use draughts::Square;

use super::error::GoalError;

/// The squares of a move, as the planner takes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveSquares {
    pub from: Square,
    pub to: Square,
    pub captured: Vec<Square>,
    pub promotes: bool,
}

fn square(n: u8, what: &'static str) -> Result<Square, GoalError> {
    Square::from_number(n).ok_or(GoalError::NotASquare { what, n })
}

/// The squares strictly between `a` and `b` on their diagonal, or None if they share none.
fn between(a: Square, b: Square) -> Option<Vec<Square>> {
    let (df, dr) = (
        i16::from(b.file()) - i16::from(a.file()),
        i16::from(b.rank()) - i16::from(a.rank()),
    );
    if df == 0 || df.abs() != dr.abs() {
        return None;
    }
    let (sf, sr) = (df.signum(), dr.signum());
    Some(
        (1..df.abs())
            .filter_map(|k| {
                let f = u8::try_from(i16::from(a.file()) + k * sf).ok()?;
                let r = u8::try_from(i16::from(a.rank()) + k * sr).ok()?;
                Square::from_file_rank(f, r)
            })
            .collect(),
    )
}

pub fn check(mv: &MoveMsg) -> Result<MoveSquares, GoalError> {
    let from = square(mv.from_square, "from_square")?;
    let to = square(mv.to_square, "to_square")?;
    let path = mv
        .path
        .iter()
        .map(|n| square(*n, "a path entry"))
        .collect::<Result<Vec<_>, _>>()?;
    let captured = mv
        .captured
        .iter()
        .map(|n| square(*n, "a captured square"))
        .collect::<Result<Vec<_>, _>>()?;
    if path.last() != Some(&to) {
        return Err(GoalError::PathEnd {
            path: mv.path.clone(),
            to: mv.to_square,
        });
    }
    if !captured.is_empty() && captured.len() != path.len() {
        return Err(GoalError::Landings {
            landings: path.len(),
            captured: captured.len(),
        });
    }
    if captured.is_empty() && (path.len() != 1 || from == to) {
        return Err(GoalError::QuietLanding);
    }
    let mut on_legs = Vec::new();
    let mut at = from;
    for &next in &path {
        let leg = between(at, next).ok_or(GoalError::NotDiagonal { from: at, to: next })?;
        on_legs.extend(leg);
        at = next;
    }
    for (i, c) in captured.iter().enumerate() {
        if captured[..i].contains(c) {
            return Err(GoalError::CapturedTwice(*c));
        }
        if !on_legs.contains(c) {
            return Err(GoalError::CapturedOffPath(*c));
        }
        if *c == to || *c == from {
            return Err(GoalError::CapturedMover(*c));
        }
    }
    Ok(MoveSquares {
        from,
        to,
        captured,
        promotes: mv.promotes,
    })
}

/// How a move is named in messages: its text, or its squares when the text is empty.
pub fn name(mv: &MoveMsg) -> String {
    if mv.text.is_empty() {
        let mut s = mv.from_square.to_string();
        for p in &mv.path {
            s.push('-');
            s.push_str(&p.to_string());
        }
        s
    } else {
        mv.text.clone()
    }
}
