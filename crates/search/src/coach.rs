//! Judging a player's move, as a teacher at the board would: every legal move of the position is
//! searched to the same depth, and the played move is classified by how much of the mover's
//! expected score it gave away against the best one (`loss`, in win probability).
//!
//! The arbiter judges each human move with it, `checkers-robot review` a whole game. The
//! thresholds were set by measuring the losses of players of known strength (docs/teaching.md).

use std::fmt;

use draughts::{Game, Move};

use crate::alphabeta::AlphaBeta;
pub use crate::planner::{score_moves, Scored};
use crate::{Control, PlanError};

/// The kind of move a teacher would call it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// The only move that keeps the evaluation: every other one loses at least
    /// [`Thresholds::brilliant_margin`].
    Brilliant,
    /// The best move, or as good as it.
    Best,
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Brilliant => "brilliant",
            Verdict::Best => "best",
            Verdict::Good => "good",
            Verdict::Inaccuracy => "inaccuracy",
            Verdict::Mistake => "mistake",
            Verdict::Blunder => "blunder",
        }
    }

    /// The PDN move suffix for it (`!!`, `?!`, `?`, `??`), empty for a plain move.
    pub fn annotation(self) -> &'static str {
        match self {
            Verdict::Brilliant => "!!",
            Verdict::Best | Verdict::Good => "",
            Verdict::Inaccuracy => "?!",
            Verdict::Mistake => "?",
            Verdict::Blunder => "??",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where one verdict ends and the next begins, as losses of win probability.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    /// Up to this loss the move counts as best.
    pub best: f64,
    pub good: f64,
    pub inaccuracy: f64,
    /// Above this loss: a blunder.
    pub mistake: f64,
    /// A best move is brilliant when every other move loses at least this much.
    pub brilliant_margin: f64,
}

impl Default for Thresholds {
    fn default() -> Thresholds {
        Thresholds {
            best: 0.02,
            good: 0.06,
            inaccuracy: 0.12,
            mistake: 0.25,
            brilliant_margin: 0.25,
        }
    }
}

impl Thresholds {
    fn classify(&self, loss: f64, only_good_move: bool) -> Verdict {
        match loss {
            l if l <= self.best && only_good_move => Verdict::Brilliant,
            l if l <= self.best => Verdict::Best,
            l if l <= self.good => Verdict::Good,
            l if l <= self.inaccuracy => Verdict::Inaccuracy,
            l if l <= self.mistake => Verdict::Mistake,
            _ => Verdict::Blunder,
        }
    }
}

/// What the coach says about one move.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    pub played: Move,
    pub verdict: Verdict,
    /// The mover's expected score after the played move, and after the best one.
    pub played_score: f64,
    pub best_score: f64,
    /// `best_score - played_score`, never below 0.
    pub loss: f64,
    /// The best move (the played one when it was best).
    pub best: Move,
    /// How the opponent answers the played move, the answer first: the line that refutes it.
    pub refutation: Vec<Move>,
}

/// Judges `played` in `game`'s current position with an alpha-beta search of every legal move
/// to `depth` plies. A forced move (the only legal one) is `Best`.
pub fn judge(
    game: &Game,
    played: &Move,
    depth: u32,
    thresholds: &Thresholds,
) -> Result<Judgement, PlanError> {
    let scored = score_moves(game, &mut AlphaBeta::new(), depth, &Control::default())?;
    let Some((best, best_score)) = scored
        .iter()
        .max_by(|a, b| a.score.total_cmp(&b.score))
        .map(|s| (s.mv, s.score))
    else {
        return Err(PlanError::NoLegalMove);
    };
    let Some(Scored {
        score: played_score,
        line: refutation,
        ..
    }) = scored.iter().find(|s| s.mv == *played).cloned()
    else {
        return Err(PlanError::NotLegal(*played));
    };
    let loss = (best_score - played_score).max(0.0);
    let others_lose = scored.len() > 1
        && scored
            .iter()
            .filter(|s| s.mv != *played)
            .all(|s| best_score - s.score >= thresholds.brilliant_margin);
    Ok(Judgement {
        played: *played,
        verdict: thresholds.classify(loss, others_lose),
        played_score,
        best_score,
        loss,
        best: if loss <= thresholds.best {
            *played
        } else {
            best
        },
        refutation,
    })
}

/// One judged move of a game: its index in the game's moves (0 = the first).
#[derive(Clone, Debug, PartialEq)]
pub struct Reviewed {
    pub ply: usize,
    pub judgement: Judgement,
}

/// Judges every move of `side` (of both sides when `None`) in `game`, from its start.
/// `progress(done, total)` is called after each judged move.
pub fn review_game(
    game: &Game,
    side: Option<draughts::Color>,
    depth: u32,
    thresholds: &Thresholds,
    mut progress: impl FnMut(usize, usize),
) -> Vec<Reviewed> {
    let mut replay = Game::from_position(*game.start_position());
    let total = game
        .moves()
        .iter()
        .enumerate()
        .filter(|(i, _)| side.is_none_or(|s| mover(game, *i) == s))
        .count();
    let mut out = Vec::with_capacity(total);
    for (ply, mv) in game.moves().iter().enumerate() {
        if side.is_none_or(|s| mover(game, ply) == s) {
            if let Ok(judgement) = judge(&replay, mv, depth, thresholds) {
                out.push(Reviewed { ply, judgement });
            }
            progress(out.len(), total);
        }
        if replay.play(mv).is_err() {
            break;
        }
    }
    out
}

/// The side that made the game's move `ply`.
pub fn mover(game: &Game, ply: usize) -> draughts::Color {
    let first = game.start_position().side_to_move();
    if ply.is_multiple_of(2) {
        first
    } else {
        first.opponent()
    }
}

/// The `n` moves that gave away the most, worst first; moves judged best or brilliant are
/// left out.
pub fn worst(reviewed: &[Reviewed], n: usize) -> Vec<&Reviewed> {
    let mut bad: Vec<&Reviewed> = reviewed
        .iter()
        .filter(|r| r.judgement.verdict > Verdict::Best)
        .collect();
    bad.sort_by(|a, b| b.judgement.loss.total_cmp(&a.judgement.loss));
    bad.truncate(n);
    bad
}

/// The move as PDN numbers it: `12.` for White's move, `12...` for Black's.
pub fn move_number(game: &Game, ply: usize) -> String {
    let black_first = game.start_position().side_to_move() == draughts::Color::Black;
    let p = ply + usize::from(black_first);
    let dots = if p.is_multiple_of(2) { "." } else { "..." };
    format!("{}{dots}", p / 2 + 1)
}

/// One line for a person: `12. c3-d4?? blunder, -43%: better e3-f4; it is met by e5:c3 ...`.
pub fn describe(game: &Game, r: &Reviewed) -> String {
    let j = &r.judgement;
    let mut text = format!(
        "{} {}{} {}, {:+.0}%",
        move_number(game, r.ply),
        j.played.text(),
        j.verdict.annotation(),
        j.verdict,
        -100.0 * j.loss
    );
    if j.best != j.played {
        text.push_str(&format!(": better {}", j.best.text()));
    }
    if !j.refutation.is_empty() && j.verdict > Verdict::Good {
        let line: Vec<String> = j.refutation.iter().take(6).map(Move::text).collect();
        text.push_str(&format!("; it is met by {}", line.join(" ")));
    }
    text
}

/// The PDN comment for a judged move: `blunder; better e3-f4` (empty for best and good moves,
/// which need none).
pub fn comment(j: &Judgement) -> String {
    match j.verdict {
        Verdict::Best | Verdict::Good => String::new(),
        Verdict::Brilliant => "brilliant: the only move that holds".into(),
        v => format!("{v}; better {}", j.best.text()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(fen: &str, text: &str) -> Judgement {
        let game = Game::from_fen(fen).expect("fen");
        let mv = game.position().parse_move(text).expect("a legal move");
        judge(&game, &mv, 6, &Thresholds::default()).expect("judged")
    }

    // White's last man on c3, a black man on e5: c3-d4 is taken at once (e5:c3), c3-b4 holds.
    const HANG: &str = "W:Wc3:Be5";

    #[test]
    fn a_move_that_gives_the_last_man_away_is_a_blunder_with_its_refutation() {
        let j = judged(HANG, "c3-d4");
        assert_eq!(j.verdict, Verdict::Blunder, "{j:?}");
        assert_eq!(j.best.text(), "c3-b4");
        assert!(j.loss > 0.4, "{j:?}");
        assert_eq!(
            j.refutation.first().map(Move::text).as_deref(),
            Some("e5:c3")
        );
    }

    #[test]
    fn the_only_move_that_holds_is_brilliant() {
        let j = judged(HANG, "c3-b4");
        assert_eq!(j.verdict, Verdict::Brilliant, "{j:?}");
        assert_eq!(j.best, j.played);
        assert!(j.loss < 1e-9);
    }

    #[test]
    fn a_forced_move_is_just_best() {
        // The capture is compulsory and the only move.
        let j = judged("W:Wc3:Bd4", "c3:e5");
        assert_eq!(j.verdict, Verdict::Best, "{j:?}");
    }

    #[test]
    fn an_ordinary_opening_move_loses_little() {
        let j = judged(draughts::START_FEN, "c3-d4");
        assert!(j.loss < Thresholds::default().inaccuracy, "{j:?}");
    }

    #[test]
    fn a_review_finds_the_blunder_of_a_game() {
        let mut game = Game::from_fen("W:Wc3,h2:Be5,a7").expect("fen");
        for m in ["c3-d4", "e5:c3"] {
            game.play_text(m).expect("legal");
        }
        let all = review_game(
            &game,
            Some(draughts::Color::White),
            6,
            &Thresholds::default(),
            |_, _| {},
        );
        assert_eq!(all.len(), 1, "White's moves only");
        let worst = worst(&all, 3);
        assert_eq!(worst.len(), 1);
        assert_eq!(worst[0].judgement.played.text(), "c3-d4");
        let line = describe(&game, worst[0]);
        assert!(line.starts_with("1. c3-d4?"), "{line}");
        assert!(line.contains("better"), "{line}");
        assert!(line.contains("e5:c3"), "{line}");
        assert!(comment(&worst[0].judgement).contains("better"));
    }

    #[test]
    fn verdicts_have_pdn_annotations() {
        assert_eq!(Verdict::Blunder.annotation(), "??");
        assert_eq!(Verdict::Brilliant.annotation(), "!!");
        assert_eq!(Verdict::Good.annotation(), "");
    }
}
