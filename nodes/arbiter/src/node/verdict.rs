//! The coach's verdict on each human move (`search::judge`), announced and kept in the PDN.

use checkers_msgs::msg::GameEvent;

use super::Arbiter;
use crate::referee::{Announcement, EventKind};

impl Arbiter {
    /// The coach's judgement of the human's last move, kept as the move's PDN comment.
    pub(super) async fn verdict(&mut self) -> Option<Announcement> {
        use search::{comment, judge, Thresholds, Verdict};
        let (before, played) = self.referee.last_human_move()?;
        let ply = before.moves().len();
        let depth = self.settings.coach_depth;
        // A search of every legal move: off the async threads.
        let judged = tokio::task::spawn_blocking(move || {
            judge(&before, &played, depth, &Thresholds::default())
        })
        .await;
        let j = match judged {
            Ok(Ok(j)) => j,
            Ok(Err(e)) => {
                tracing::warn!("the move could not be judged: {e}");
                return None;
            }
            Err(e) => {
                tracing::warn!("the move could not be judged: {e}");
                return None;
            }
        };
        self.referee.comment_move(ply, comment(&j));
        let code = match j.verdict {
            Verdict::Brilliant => GameEvent::VERDICT_BRILLIANT,
            Verdict::Best => GameEvent::VERDICT_BEST,
            Verdict::Good => GameEvent::VERDICT_GOOD,
            Verdict::Inaccuracy => GameEvent::VERDICT_INACCURACY,
            Verdict::Mistake => GameEvent::VERDICT_MISTAKE,
            Verdict::Blunder => GameEvent::VERDICT_BLUNDER,
        };
        let better = (j.best != j.played).then_some(j.best);
        let text = match better {
            Some(b) => format!(
                "{} was {} (better {})",
                j.played.text(),
                j.verdict,
                b.text()
            ),
            None => format!("{} was {}", j.played.text(), j.verdict),
        };
        let human = self.referee.robot().opponent();
        let mut note = Announcement::new(EventKind::Verdict, human, text);
        note.game_move = Some(j.played);
        note.verdict = Some((code, better, j.loss as f32));
        Some(note)
    }
}
