//! The `/game/*` requests answered between turns: new game, resign, resolve, hint and
//! take-back.

use std::time::Duration;

use checkers_msgs::convert::move_msg;
use checkers_msgs::srv::{
    Hint_Request, Hint_Response, NewGame_Request, Resign_Request, TakeBack_Request,
};
use draughts::{Color, Move};
use ros::GoalOutcome;

use super::Arbiter;
use crate::error::ArbiterError;
use crate::referee::{Announcement, EventKind, Status};
use crate::services::{Done, GameRequest, Services};

impl Arbiter {
    /// Answers one `/game/*` request between turns.
    pub(super) async fn on_request(
        &mut self,
        services: &Services,
        request: GameRequest,
    ) -> Vec<Announcement> {
        let outcome = match &request {
            GameRequest::New(_, r) => self.new_game(r).map(done),
            GameRequest::Resign(_, r) => {
                let side = if r.side == Resign_Request::SIDE_WHITE {
                    Color::White
                } else {
                    Color::Black
                };
                self.referee
                    .resign(side)
                    .map(|notes| (Done::Text("resigned".into()), notes))
                    .map_err(ArbiterError::from)
            }
            GameRequest::Resolve(_, r) => self
                .referee
                .resolve(usize::from(r.index), &r.move_text)
                .map(|notes| (Done::Text("played".into()), notes))
                .map_err(ArbiterError::from),
            GameRequest::Hint(_, r) => self
                .give_hint(r)
                .await
                .map(|(response, note)| (Done::Hint(response), vec![note])),
            GameRequest::TakeBack(_, r) => self.take_back(r).await.map(done),
        };
        match outcome {
            Ok((answer, notes)) => {
                services.answer(request, Ok(answer)).await;
                notes
            }
            Err(why) => {
                services.answer(request, Err(why.into())).await;
                Vec::new()
            }
        }
    }

    fn new_game(
        &mut self,
        r: &NewGame_Request,
    ) -> Result<(String, Vec<Announcement>), ArbiterError> {
        let robot = match r.robot_color {
            NewGame_Request::SIDE_WHITE => Color::White,
            NewGame_Request::SIDE_BLACK => Color::Black,
            NewGame_Request::SIDE_RANDOM => random_color(),
            other => return Err(ArbiterError::NoSuchSide(other)),
        };
        let notes = self.referee.new_game(robot, Some(&r.level), &r.fen)?;
        let message = format!("game {} started", self.referee.record().game_id);
        Ok((message, notes))
    }

    /// The planner's move for the human (`/game/hint`), remembered for the markers and
    /// announced.
    async fn give_hint(
        &mut self,
        req: &Hint_Request,
    ) -> Result<(Hint_Response, Announcement), ArbiterError> {
        if !self.settings.hints {
            return Err(ArbiterError::HintsOff);
        }
        if self.referee.status() != Status::WaitingForHuman {
            return Err(ArbiterError::HintNotNow);
        }
        let budget = if req.time_budget_s.is_finite() && req.time_budget_s > 0.0 {
            f64::from(req.time_budget_s).min(30.0)
        } else {
            self.settings.hint_time_s
        };
        let goal = self.plan_goal(budget, self.settings.hint_algorithm.clone());
        let wait = Duration::from_secs_f64(budget + self.settings.planner_margin_s);
        let goal = self
            .helpers
            .planner
            .send_goal(goal, Duration::from_secs(5))
            .await
            .map_err(ArbiterError::HintRefused)?;
        let r = match goal.result(wait).await {
            Ok((GoalOutcome::Succeeded, r)) => r,
            Ok((outcome, r)) => {
                return Err(ArbiterError::HintEnded {
                    outcome,
                    message: r.message,
                })
            }
            Err(e) => {
                let _ = goal.cancel(Duration::from_millis(500)).await;
                return Err(ArbiterError::HintFailed(e));
            }
        };
        let mv = checkers_msgs::convert::find_move(self.referee.position(), &r.best_move)
            .map_err(ArbiterError::HintMove)?;
        self.referee.set_hint(mv);
        let human = self.referee.robot().opponent();
        let text = format!("hint: {}", mv.text());
        let mut note = Announcement::new(EventKind::Hint, human, text.clone());
        note.game_move = Some(mv);
        let response = Hint_Response {
            success: true,
            message: text,
            best_move: move_msg(&mv),
            win_probability: r.win_probability,
        };
        Ok((response, note))
    }

    /// `/game/takeback`: the record rewound, the robot's last piece carried back by the arm,
    /// then the board checked; what the arm cannot restore the human is asked to put right.
    async fn take_back(
        &mut self,
        req: &TakeBack_Request,
    ) -> Result<(String, Vec<Announcement>), ArbiterError> {
        if !self.settings.takebacks {
            return Err(ArbiterError::TakeBacksOff);
        }
        let undone = self.referee.take_back(usize::from(req.plies))?;
        let texts: Vec<String> = undone.iter().map(Move::text).collect();
        let human = self.referee.robot().opponent();
        // An even number of plies back to the human's turn: the last one taken back is the
        // robot's.
        let robot_last = undone.last().copied();
        let mut notes = Vec::new();
        let mut arm_failed = None;
        if let Some(mv) = robot_last {
            // Leg by leg along its landings, backwards: each leg is a quiet move to the arm.
            let mut squares: Vec<_> = std::iter::once(mv.from())
                .chain(mv.landings().iter().copied())
                .collect();
            squares.reverse();
            for leg in squares.windows(2) {
                if let Err(e) = self.execute(quiet_move(leg[0], leg[1])).await {
                    arm_failed = Some(e);
                    break;
                }
            }
        }
        let mut text = format!("took back {}", texts.join(" "));
        let seen = self.scan().await.unwrap_or(0);
        let expected = self.referee.position().occupancy_mask();
        if seen != expected || arm_failed.is_some() {
            let put = squares_named(expected & !seen);
            let clear = squares_named(seen & !expected);
            let mut asks = Vec::new();
            if !put.is_empty() {
                asks.push(format!("put a piece back on {put}"));
            }
            if !clear.is_empty() {
                asks.push(format!("take the piece off {clear}"));
            }
            let crowned: Vec<String> = undone
                .iter()
                .filter(|m| m.promotes())
                .map(|m| m.from().to_string())
                .collect();
            if !crowned.is_empty() {
                asks.push(format!(
                    "the piece on {} is a man again",
                    crowned.join(", ")
                ));
            }
            if let Some(e) = &arm_failed {
                asks.push(format!("the arm could not move its piece back ({e})"));
            }
            text = format!("{text}: please {}, and press confirm", asks.join("; "));
            notes.push(Announcement::new(EventKind::TakeBack, human, text.clone()));
            notes.extend(self.referee.board_mismatch(seen, "after the take-back"));
        } else {
            notes.push(Announcement::new(EventKind::TakeBack, human, text.clone()));
        }
        Ok((text, notes))
    }
}

/// A text answer and its announcements, as the services give them.
fn done((message, notes): (String, Vec<Announcement>)) -> (Done, Vec<Announcement>) {
    (Done::Text(message), notes)
}

fn random_color() -> Color {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    if nanos.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    }
}

/// The arm's move carrying the piece on `from` to `to` (a quiet move along one diagonal).
fn quiet_move(from: draughts::Square, to: draughts::Square) -> checkers_msgs::msg::Move {
    checkers_msgs::msg::Move {
        from_square: from.number(),
        to_square: to.number(),
        path: vec![to.number()],
        captured: Vec::new(),
        promotes: false,
        text: format!("{from}-{to}"),
    }
}

/// Squares of an occupancy mask (bit n-1 = square n), named: "c3, e5".
fn squares_named(mask: u32) -> String {
    (1..=32u8)
        .filter(|n| mask & (1u32 << (n - 1)) != 0)
        .filter_map(draughts::Square::from_number)
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
