//! The robot's turn: plan (`/planner/plan`), execute (`/arm/execute`), verify (`/board/scan`).

use std::time::Duration;

use checkers_msgs::action::{ExecuteMove_Goal, PlanMove_Goal};
use checkers_msgs::convert::{move_msg, position_msg};
use checkers_msgs::srv::ScanBoard_Request;
use draughts::Move;
use futures::StreamExt;
use ros::GoalOutcome;

use super::{Arbiter, Search};
use crate::error::{ArbiterError, ArmFailure};
use crate::referee::{Announcement, EventKind, Status};

impl Arbiter {
    /// Plan, execute, verify. Whatever fails, the move is in the record and the announcements
    /// say what the person must do.
    pub(super) async fn robot_turn(&mut self) -> Vec<Announcement> {
        let mut notes = Vec::new();
        self.referee.set_status(Status::RobotThinking, "");
        self.announce(Vec::new()).await;
        let mv = match self.plan().await {
            Ok(mv) => mv,
            Err(why) if why.planner_unreachable() && self.settings.planner_wait_s > 0.0 => {
                match self.wait_for_planner(why, &mut notes).await {
                    Some(mv) => mv,
                    None => {
                        self.referee.set_status(Status::Error, "no move to play");
                        return notes;
                    }
                }
            }
            Err(why) => {
                notes.push(Announcement::new(
                    EventKind::PlannerTimeout,
                    self.referee.robot(),
                    format!("{why}; the arbiter plays a quick move of its own"),
                ));
                match self.referee.fallback_move() {
                    Some(mv) => mv,
                    None => {
                        self.referee.set_status(Status::Error, "no move to play");
                        return notes;
                    }
                }
            }
        };
        self.referee
            .set_status(Status::RobotMoving, format!("moving {}", mv.text()));
        self.announce(Vec::new()).await;
        let executed = self.execute(move_msg(&mv)).await;
        // The move stands in the record whatever the arm did; its announcements wait until the
        // board shows it.
        let moved = match self.referee.robot_moved(&mv) {
            Ok(n) => n,
            Err(e) => {
                self.referee.set_status(Status::Error, e.to_string());
                return notes;
            }
        };
        if let Err(why) = executed {
            notes.push(Announcement::new(
                EventKind::ArmFailed,
                self.referee.robot(),
                why.to_string(),
            ));
            let seen = self.scan().await.unwrap_or(0);
            let why = format!("the arm could not make {}", mv.text());
            notes.extend(self.referee.board_mismatch(seen, &why));
            self.referee.hold_back(moved);
            return notes;
        }
        if self.settings.verify && !self.referee.is_over() {
            let before = self.referee.status();
            self.referee
                .set_status(Status::Verifying, "checking the board");
            self.announce(Vec::new()).await;
            match self.scan().await {
                Ok(seen) if seen == self.referee.position().occupancy_mask() => {
                    self.referee.set_status(before, "");
                }
                Ok(seen) => {
                    notes.push(Announcement::new(
                        EventKind::ArmFailed,
                        self.referee.robot(),
                        format!("after {} the board is not as it should be", mv.text()),
                    ));
                    let why = "the board does not match the robot's move";
                    notes.extend(self.referee.board_mismatch(seen, why));
                    self.referee.hold_back(moved);
                    return notes;
                }
                Err(why) => {
                    tracing::warn!("the board could not be checked: {why}");
                    self.referee
                        .set_status(before, format!("the board was not checked: {why}"));
                }
            }
        }
        notes.extend(moved);
        notes
    }

    /// Asks the planner; `Err` says why its answer cannot be used.
    pub(super) async fn plan(&mut self) -> Result<Move, ArbiterError> {
        let goal = self.plan_goal(self.settings.time_budget_s, String::new());
        let wait = if self.settings.time_budget_s > 0.0 {
            self.settings.time_budget_s + self.settings.planner_margin_s
        } else {
            self.settings.planner_timeout_s
        };
        let deadline = tokio::time::Instant::now() + Duration::from_secs_f64(wait);
        let goal = self
            .helpers
            .planner
            .send_goal(goal, Duration::from_secs_f64(wait.min(5.0)))
            .await
            .map_err(ArbiterError::PlannerRefused)?;
        let mut feedback = std::pin::pin!(goal.feedback());
        let result = goal.result(Duration::from_secs_f64(wait));
        tokio::pin!(result);
        let answer = loop {
            tokio::select! {
                r = &mut result => break r,
                Some(f) = feedback.next() => {
                    self.search = Search { depth: f.depth, nodes: f.nodes, best: f.best_move_text, elapsed: f.elapsed_s };
                    self.publish_state().await;
                }
                _ = tokio::time::sleep_until(deadline) => {
                    let _ = goal.cancel(Duration::from_millis(500)).await;
                    return Err(ArbiterError::PlannerLate(wait));
                }
            }
        };
        match answer {
            Ok((GoalOutcome::Succeeded, r)) => {
                checkers_msgs::convert::find_move(self.referee.position(), &r.best_move)
                    .map_err(ArbiterError::PlannerMove)
            }
            Ok((outcome, r)) => Err(ArbiterError::PlannerEnded {
                outcome,
                message: r.message,
            }),
            Err(e) => Err(ArbiterError::Planner(e)),
        }
    }

    /// The planner's goal for the position on the board: `algorithm` "" is the node's own.
    pub(super) fn plan_goal(&self, budget_s: f64, algorithm: String) -> PlanMove_Goal {
        PlanMove_Goal {
            position: position_msg(self.referee.position()),
            start_fen: self.referee.record().start_fen.clone(),
            history: self.referee.game().moves().iter().map(Move::text).collect(),
            time_budget_s: budget_s as f32,
            algorithm,
        }
    }

    pub(super) async fn execute(
        &self,
        game_move: checkers_msgs::msg::Move,
    ) -> Result<(), ArbiterError> {
        let timeout = Duration::from_secs_f64(self.settings.arm_timeout_s);
        let goal = self
            .helpers
            .arm
            .send_goal(ExecuteMove_Goal { game_move }, Duration::from_secs(5))
            .await
            .map_err(ArbiterError::ArmRefused)?;
        match goal.result(timeout).await {
            Ok((GoalOutcome::Succeeded, r)) if r.success => Ok(()),
            Ok((_, r)) => Err(ArbiterError::ArmFailed {
                what: ArmFailure::from_code(r.error_code),
                message: r.message,
            }),
            Err(e) => {
                let _ = goal.cancel(Duration::from_secs(1)).await;
                Err(ArbiterError::Arm(e))
            }
        }
    }

    pub(super) async fn scan(&self) -> Result<u32, ArbiterError> {
        let per_try = Duration::from_secs_f64(self.settings.scan_timeout_s);
        let reply = self
            .helpers
            .scan
            .call_retrying(ScanBoard_Request { reads: 0 }, per_try, 3)
            .await
            .map_err(ArbiterError::Scan)?;
        if reply.success {
            Ok(reply.occupancy.occupied)
        } else {
            Err(ArbiterError::ScanFailed(reply.message))
        }
    }
}
