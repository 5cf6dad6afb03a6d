//! The simulated human: performs a move physically (lift, place, take the captured pieces off),
//! presses confirm, and errs on purpose when asked (`/sim/human_move`, HumanMove.srv). The
//! rules engine says what is legal; the human reads the board as a person would, from where the
//! pieces physically are.

use std::time::Duration;

use checkers_msgs::srv::{HumanMove_Request as Request, HumanMove_Response as Response};
use draughts::parse_squares;
use draughts::{Color, Move, PieceKind, Position, Square};

use crate::human_error::HumanError;
use crate::state::{lock, Shared, Sim};

/// How the human behaves.
#[derive(Debug, Clone)]
pub struct Human {
    /// The side the human plays.
    pub side: Color,
    /// The pause after each action (already divided by the time scale).
    pub pause: Duration,
    /// How far off its square's centre an off-centre piece is put down, metres.
    pub off_centre_m: f64,
}

/// What the human is going to do.
#[derive(Debug, Clone, PartialEq)]
struct Plan {
    /// (from, to, crown) of the moving piece; `None` moves nothing.
    step: Option<(Square, Square, bool)>,
    offset: f64,
    remove: Vec<Square>,
    confirms: u8,
    text: String,
    note: String,
}

impl Plan {
    /// A plan that moves no piece: only the confirms, and what the person is said to do.
    fn still(confirms: u8, note: &str) -> Plan {
        Plan {
            step: None,
            offset: 0.0,
            remove: Vec::new(),
            confirms,
            text: String::new(),
            note: note.into(),
        }
    }
}

fn fail(message: impl Into<String>) -> Response {
    Response {
        success: false,
        message: message.into(),
        performed_text: String::new(),
    }
}

impl Human {
    /// Performs `req`, pausing between actions so the sensors see the board change as it would.
    pub async fn perform(&self, shared: &Shared, req: &Request) -> Response {
        let plan = {
            let mut sim = lock(shared);
            match self.plan(&mut sim, req) {
                Ok(plan) => plan,
                Err(why) => {
                    tracing::info!(request = ?req, "the human cannot do that: {why}");
                    return fail(why.to_string());
                }
            }
        };
        tracing::info!(performed = %plan.text, error = req.error, "the human moves");
        if let Some((from, to, crown)) = plan.step {
            let id = match lock(shared).world.lift(from) {
                Ok(id) => id,
                Err(e) => return fail(format!("the board changed under the human's hand: {e}")),
            };
            tokio::time::sleep(self.pause).await;
            lock(shared).world.put(id, to, plan.offset, crown);
            tokio::time::sleep(self.pause).await;
            for sq in &plan.remove {
                if let Err(e) = lock(shared).world.remove(*sq) {
                    return fail(format!("the board changed under the human's hand: {e}"));
                }
                tokio::time::sleep(self.pause).await;
            }
        }
        for _ in 0..plan.confirms {
            lock(shared).press_confirm();
            tokio::time::sleep(self.pause).await;
        }
        Response {
            success: true,
            message: plan.note,
            performed_text: plan.text,
        }
    }

    fn plan(&self, sim: &mut Sim, req: &Request) -> Result<Plan, HumanError> {
        let confirms = match (req.press_confirm, req.error) {
            (false, _) => 0,
            (true, Request::ERROR_DOUBLE_CONFIRM) => 2,
            (true, _) => 1,
        };
        // Moving nothing and putting the board right need no reading of it: a board that cannot
        // be read (two pieces dropped on one square) is what a person puts right.
        match req.error {
            Request::ERROR_NO_MOVE => return Ok(Plan::still(confirms, "moved nothing")),
            Request::ERROR_SET_UP => {
                let (game, robot) = sim.game.ok_or(HumanError::NoGame)?;
                sim.world.set_up(&game, robot);
                return Ok(Plan::still(confirms, "set the board up as the game has it"));
            }
            _ => {}
        }
        let position = sim
            .world
            .position(self.side)
            .map_err(HumanError::Unreadable)?;
        let text = req.move_text.trim();
        let legal = |mv: Move, offset: f64, remove: Vec<Square>, note: &str| Plan {
            step: Some((mv.from(), mv.to(), mv.promotes())),
            offset,
            remove,
            confirms,
            text: mv.text(),
            note: note.to_string(),
        };
        match req.error {
            Request::ERROR_ILLEGAL => self.illegal(sim, &position, text, confirms),
            Request::ERROR_NONE | Request::ERROR_DOUBLE_CONFIRM => {
                let mv = self.choose(sim, &position, text)?;
                Ok(legal(mv, 0.0, mv.captured_squares().collect(), ""))
            }
            Request::ERROR_OFF_CENTRE => {
                let mv = self.choose(sim, &position, text)?;
                Ok(legal(
                    mv,
                    self.off_centre_m,
                    mv.captured_squares().collect(),
                    "the piece is left off-centre",
                ))
            }
            Request::ERROR_FORGET_CAPTURED => {
                let mv = self.choose(sim, &position, text)?;
                let mut remove: Vec<Square> = mv.captured_squares().collect();
                let Some(kept) = remove.pop() else {
                    return Err(HumanError::NothingToForget(mv.text()));
                };
                Ok(legal(
                    mv,
                    0.0,
                    remove,
                    &format!("the captured piece on {kept} is left on the board"),
                ))
            }
            e => Err(HumanError::UnknownKind(e)),
        }
    }

    /// The legal move `text` names, or a random legal one for "".
    fn choose(&self, sim: &mut Sim, position: &Position, text: &str) -> Result<Move, HumanError> {
        if text.is_empty() {
            let moves = position.legal_moves();
            if moves.is_empty() {
                return Err(HumanError::NoLegalMove(self.side));
            }
            let i = sim.rng.below(moves.len());
            return moves
                .get(i)
                .copied()
                .ok_or(HumanError::NoLegalMove(self.side));
        }
        position
            .parse_move(text)
            .map_err(|error| HumanError::NotLegal {
                text: text.to_string(),
                side: self.side,
                error,
            })
    }

    /// An illegal move: `text` performed as written (it must not be legal), or one of the
    /// sim's choosing.
    fn illegal(
        &self,
        sim: &mut Sim,
        position: &Position,
        text: &str,
        confirms: u8,
    ) -> Result<Plan, HumanError> {
        let path = if text.is_empty() {
            self.some_illegal_step(sim, position)?
        } else {
            if position.parse_move(text).is_ok() {
                return Err(HumanError::Legal(text.to_string()));
            }
            parse_squares(text).map_err(|error| HumanError::NotSquares {
                text: text.to_string(),
                error,
            })?
        };
        let (Some(&from), Some(&to)) = (path.first(), path.last()) else {
            return Err(HumanError::NoSquares(text.to_string()));
        };
        let piece = position.piece_at(from).ok_or(HumanError::NoPiece(from))?;
        if from != to && position.piece_at(to).is_some() {
            return Err(HumanError::Occupied(to));
        }
        // Whatever of the other side's lies between the path's landings is taken off, as a
        // person who believes the move captures would.
        let mut remove = Vec::new();
        for pair in path.windows(2) {
            for sq in between(pair[0], pair[1]) {
                // A path may pass a piece twice (there and back): it is taken off once.
                if position
                    .piece_at(sq)
                    .is_some_and(|p| p.color != piece.color)
                    && !remove.contains(&sq)
                {
                    remove.push(sq);
                }
            }
        }
        let last_rank = match piece.color {
            Color::White => 7,
            Color::Black => 0,
        };
        let crown = piece.kind == PieceKind::Man && to.rank() == last_rank;
        let sep = if remove.is_empty() { "-" } else { ":" };
        let text = path
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(sep);
        Ok(Plan {
            step: Some((from, to, crown)),
            offset: 0.0,
            remove,
            confirms,
            text,
            note: "an illegal move, on purpose".into(),
        })
    }

    /// A step of one of the human's pieces to a neighbouring empty square that no legal move
    /// makes (a man stepping backwards, say), else to any empty square no legal move reaches.
    fn some_illegal_step(
        &self,
        sim: &mut Sim,
        position: &Position,
    ) -> Result<Vec<Square>, HumanError> {
        let legal: Vec<(Square, Square)> = position
            .legal_moves()
            .iter()
            .map(|m| (m.from(), m.to()))
            .collect();
        let mine: Vec<Square> = Square::all()
            .filter(|&s| position.piece_at(s).is_some_and(|p| p.color == self.side))
            .collect();
        let empty: Vec<Square> = Square::all()
            .filter(|&s| position.piece_at(s).is_none())
            .collect();
        let candidates = |near: bool| -> Vec<(Square, Square)> {
            mine.iter()
                .flat_map(|&f| empty.iter().map(move |&t| (f, t)))
                .filter(|&(f, t)| {
                    let adjacent =
                        f.file().abs_diff(t.file()) == 1 && f.rank().abs_diff(t.rank()) == 1;
                    (adjacent || !near) && !legal.contains(&(f, t))
                })
                .collect()
        };
        let mut pool = candidates(true);
        if pool.is_empty() {
            pool = candidates(false);
        }
        if pool.is_empty() {
            return Err(HumanError::NoIllegalMove);
        }
        let (f, t) = pool[sim.rng.below(pool.len())];
        Ok(vec![f, t])
    }
}

/// The squares strictly between `a` and `b` on a diagonal (none if they share none).
fn between(a: Square, b: Square) -> Vec<Square> {
    let (df, dr) = (
        i16::from(b.file()) - i16::from(a.file()),
        i16::from(b.rank()) - i16::from(a.rank()),
    );
    if df.abs() != dr.abs() || df == 0 {
        return Vec::new();
    }
    let (sf, sr) = (df.signum(), dr.signum());
    (1..df.abs())
        .filter_map(|k| {
            let f = u8::try_from(i16::from(a.file()) + sf * k).ok()?;
            let r = u8::try_from(i16::from(a.rank()) + sr * k).ok()?;
            Square::from_file_rank(f, r)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().expect("a square")
    }

    #[test]
    fn between_follows_diagonals_only() {
        assert_eq!(between(sq("c3"), sq("e5")), vec![sq("d4")]);
        assert_eq!(between(sq("a1"), sq("d4")), vec![sq("b2"), sq("c3")]);
        assert!(between(sq("c3"), sq("d4")).is_empty());
        assert!(between(sq("c3"), sq("c5")).is_empty());
    }
}
