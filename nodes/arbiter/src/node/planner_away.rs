//! A planner that does not answer: its computer away, or the link to it cut. The robot says
//! so (a `PLANNER_AWAY` event, which the face and the voice show), waits for it and asks again;
//! if it stays away, the robot plays on this computer at the game's level, or the next lower
//! one that works, and says that too.

use std::path::Path;
use std::time::Duration;

use draughts::Move;

use super::Arbiter;
use crate::error::ArbiterError;
use crate::referee::{Announcement, EventKind, Status};

/// Between two attempts to reach the planner (each waits up to 5 s for the goal's acceptance).
const RETRY: Duration = Duration::from_secs(1);

impl Arbiter {
    /// After `why`: the planner's move once it answers within `planner_wait_s`, else a move
    /// found here (announced in `notes`); `None` if there is no move at all.
    pub(super) async fn wait_for_planner(
        &mut self,
        why: ArbiterError,
        notes: &mut Vec<Announcement>,
    ) -> Option<Move> {
        let wait = Duration::from_secs_f64(self.settings.planner_wait_s);
        let robot = self.referee.robot();
        self.referee
            .set_status(Status::RobotThinking, "waiting for the planner");
        self.announce(vec![Announcement::new(
            EventKind::PlannerAway,
            robot,
            format!(
                "the planner does not answer ({why}); waiting up to {:.0} s for it",
                wait.as_secs_f64()
            ),
        )])
        .await;
        let deadline = tokio::time::Instant::now() + wait;
        let mut last = why;
        while tokio::time::Instant::now() < deadline {
            tokio::time::sleep(RETRY).await;
            match self.plan().await {
                Ok(mv) => {
                    self.announce(vec![Announcement::new(
                        EventKind::Info,
                        robot,
                        "the planner answers again",
                    )])
                    .await;
                    return Some(mv);
                }
                Err(e) => {
                    tracing::debug!("the planner still does not answer: {e}");
                    last = e;
                }
            }
        }
        let (mv, how) = self.local_move().await;
        notes.push(Announcement::new(
            EventKind::PlannerTimeout,
            robot,
            format!(
                "the planner stayed away for {:.0} s ({last}); {how}",
                wait.as_secs_f64()
            ),
        ));
        mv
    }

    /// A move found on this computer: at the game's level, else the next lower level that
    /// gives one, else the arbiter's quick move; with the words that say which.
    async fn local_move(&self) -> (Option<Move>, String) {
        let (levels, _unreadable) = search::load_each(Path::new(&self.settings.difficulty_dir));
        let current = self.referee.level();
        let easier_or_same = levels
            .iter()
            .position(|l| l.name == current)
            .map(|i| levels[..=i].iter().rev().cloned().collect::<Vec<_>>())
            .unwrap_or_default();
        for level in easier_or_same {
            let game = self.referee.game().clone();
            let spec = level.spec;
            let found = tokio::task::spawn_blocking(move || {
                spec.build()
                    .choose(&game, &spec.limits(), &search::Control::default())
                    .map(|d| d.best)
                    .map_err(|e| e.to_string())
            })
            .await;
            match found {
                Ok(Ok(mv)) => {
                    return (
                        Some(mv),
                        format!(
                            "the robot plays at level {} on its own computer",
                            level.name
                        ),
                    )
                }
                Ok(Err(why)) => tracing::warn!(level = %level.name, "no move here: {why}"),
                Err(why) => tracing::warn!(level = %level.name, "the search failed: {why}"),
            }
        }
        (
            self.referee.fallback_move(),
            "the arbiter plays a quick move of its own".to_string(),
        )
    }
}
