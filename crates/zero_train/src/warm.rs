//! The warm start: positions from alpha-beta's games against itself
//! (`search::play_self_play_games`), each labelled by the search that played it. The policy
//! target is the move alpha-beta chose; the value target blends alpha-beta's win probability
//! with the game's result.
//!
//! The games are labelled in chunks, each saved under `<out>/warm/` as it is done, so that a
//! stopped labelling resumes at the first chunk not on disk.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use draughts::{Color, Game};
use search::{
    play_self_play_games, score_of, Decision, Evaluation, EvaluationError, Recorder, SelfPlayConfig,
};
use zero::encode::{action_for, encode};

use crate::games::Sample;
use crate::replay::{read_file, write_file};

#[derive(Clone, Debug)]
pub struct WarmConfig {
    pub games: usize,
    /// Games labelled (and saved) together.
    pub chunk: usize,
    /// The evaluation alpha-beta labels with.
    pub eval: Evaluation,
    /// Weight of the game's result in the value target (the rest is the search's value).
    pub result_weight: f32,
    /// The games: depth, openings, random moves, threads, seed, endgame database.
    pub play: SelfPlayConfig,
}

impl WarmConfig {
    pub fn new(games: usize, depth: u32, seed: u64) -> WarmConfig {
        let mut play = SelfPlayConfig::new(depth, seed);
        play.random_plies = 16;
        // The network plays its endings without the database, so it must learn them.
        play.stop_when_decided = false;
        WarmConfig {
            games,
            chunk: 100,
            eval: Evaluation::Linear,
            result_weight: 0.5,
            play,
        }
    }

    /// The same with alpha-beta labelling with `eval`, its weights checked to load.
    pub fn with_eval(mut self, eval: Evaluation) -> Result<WarmConfig, EvaluationError> {
        self.play.engine = eval.engine()?;
        self.eval = eval;
        Ok(self)
    }

    /// A chunk's file: the settings that made it are in its name, so that other settings never
    /// resume from it.
    fn chunk_file(&self, out: &Path, k: usize) -> PathBuf {
        let p = &self.play;
        out.join("warm").join(format!(
            "d{}-{}-e{}-s{}-c{}-{k}.bin",
            p.depth,
            self.eval.name(),
            p.endgame.as_ref().map_or(0, |db| db.max_pieces()),
            p.seed,
            self.chunk.max(1),
        ))
    }
}

/// Labels one game's positions: those with a choice, for the side to move.
struct Labels {
    pending: Vec<(Color, Sample)>,
    result_weight: f32,
}

impl Recorder for Labels {
    type Output = Vec<Sample>;

    fn ply(&mut self, game: &Game, decision: Option<&Decision>) {
        let Some(d) = decision else { return };
        let mover = game.position().side_to_move();
        self.pending.push((
            mover,
            Sample {
                input: encode(game),
                policy: vec![(action_for(mover, &d.best) as u16, 1.0)],
                value: (2.0 * d.win_probability - 1.0) as f32,
            },
        ));
    }

    fn finish(self, white_points: u8) -> Vec<Sample> {
        let w = self.result_weight.clamp(0.0, 1.0);
        self.pending
            .into_iter()
            .map(|(colour, mut s)| {
                let z = 2.0 * score_of(colour, white_points) - 1.0;
                s.value = (1.0 - w) * s.value + w * z;
                s
            })
            .collect()
    }
}

/// Plays and labels `cfg.games` games, chunk by chunk, reading the chunks already under
/// `out/warm` instead of playing them again; `on_game` is called as each game ends (or for
/// each game of a chunk read back).
pub fn label_games(cfg: &WarmConfig, out: &Path, on_game: impl Fn() + Sync) -> Vec<Sample> {
    let chunk = cfg.chunk.max(1);
    let mut all = Vec::new();
    for k in 0..cfg.games.div_ceil(chunk) {
        let games = k * chunk..((k + 1) * chunk).min(cfg.games);
        let file = cfg.chunk_file(out, k);
        if file.is_file() {
            match read_file(&file) {
                Ok(samples) => {
                    all.extend(samples);
                    games.for_each(|_| on_game());
                    continue;
                }
                Err(e) => tracing::warn!("labelling that chunk again: {e}"),
            }
        }
        let labelled = Mutex::new(Vec::new());
        play_self_play_games(
            &cfg.play,
            games,
            |_| Labels {
                pending: Vec::new(),
                result_weight: cfg.result_weight,
            },
            |samples| {
                if let Ok(mut l) = labelled.lock() {
                    l.extend(samples);
                }
                on_game();
            },
        );
        let samples = labelled.into_inner().unwrap_or_default();
        if let Err(e) = write_file(&file, &samples) {
            tracing::warn!("a labelled chunk was not saved (a stopped run labels it again): {e}");
        }
        all.extend(samples);
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use search::AlphaBeta;
    use zero::encode::ACTIONS;

    #[test]
    fn labelled_positions_carry_alpha_beta_moves_and_resume_from_disk() {
        let dir = tempfile::tempdir().expect("dir");
        let mut cfg = WarmConfig::new(3, 2, 5);
        cfg.chunk = 2;
        cfg.play.max_plies = 30;
        cfg.play.threads = 1;
        let samples = label_games(&cfg, dir.path(), || {});
        assert!(samples.len() > 30, "{} samples", samples.len());
        for s in &samples {
            assert_eq!(s.policy.len(), 1);
            assert!((s.policy[0].0 as usize) < ACTIONS);
            assert!((-1.0..=1.0).contains(&s.value));
        }
        // Both chunks are on disk; a second call reads them instead of playing.
        assert!(cfg.chunk_file(dir.path(), 1).is_file());
        let played = std::sync::atomic::AtomicUsize::new(0);
        cfg.play.engine =
            || -> AlphaBeta { panic!("the chunks on disk are read, not played again") };
        let again = label_games(&cfg, dir.path(), || {
            played.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        });
        assert_eq!(again.len(), samples.len());
        assert_eq!(played.into_inner(), 3);
    }
}
