//! Training positions: the quiet positions of games between alpha-beta and MCTS, each
//! labelled with what a fresh MCTS search makes of it (the win probability of the side to
//! move) and with the game's result. Stored one per line: `FEN<TAB>mcts<TAB>result`.

use std::io::{BufRead, Write};
use std::sync::Arc;

use draughts::{parse_fen, to_fen, Game, Position};
use search::{
    play_games, points, AlphaBeta, Control, EvalNet, Limits, Mcts, Opening, Planner, MIN_PIECES,
};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub pos: Position,
    /// MCTS's expected score for the side to move.
    pub mcts: f32,
    /// The side to move's points in the game the position came from.
    pub result: f32,
}

#[derive(Debug, thiserror::Error)]
pub enum DataError {
    #[error("line {line}: {why}")]
    Line { line: usize, why: SampleError },
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Why a line is not a sample.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum SampleError {
    #[error("expected FEN, MCTS value and result, separated by tabs")]
    Fields,
    #[error(transparent)]
    Fen(#[from] draughts::ParseError),
    #[error("{what} {text:?} is not a number from 0 to 1")]
    Unit { what: &'static str, text: String },
}

impl Sample {
    pub fn to_line(&self) -> String {
        format!("{}\t{:.4}\t{}", to_fen(&self.pos), self.mcts, self.result)
    }

    pub fn parse(text: &str) -> Result<Sample, SampleError> {
        let mut parts = text.split('\t');
        let (Some(fen), Some(mcts), Some(result), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(SampleError::Fields);
        };
        let pos = parse_fen(fen)?;
        let unit = |t: &str, what: &'static str| {
            t.parse::<f32>()
                .ok()
                .filter(|v| (0.0..=1.0).contains(v))
                .ok_or_else(|| SampleError::Unit {
                    what,
                    text: t.to_string(),
                })
        };
        Ok(Sample {
            pos,
            mcts: unit(mcts, "MCTS value")?,
            result: unit(result, "result")?,
        })
    }
}

pub fn read_samples(reader: impl BufRead) -> Result<Vec<Sample>, DataError> {
    let mut out = Vec::new();
    for (i, line) in reader.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        out.push(Sample::parse(&line).map_err(|why| DataError::Line { line: i + 1, why })?);
    }
    Ok(out)
}

/// How the positions are made and labelled.
#[derive(Clone, Debug)]
pub struct DataConfig {
    pub games: usize,
    /// Alpha-beta's depth in the games.
    pub depth: u32,
    /// MCTS's simulations per move in the games.
    pub play_sims: u64,
    /// Simulations of the labelling search, per position.
    pub label_sims: u64,
    pub threads: usize,
    pub seed: u64,
    /// Alpha-beta plays with this evaluation network (a later round of training learns from
    /// the positions the corrected evaluation steers into).
    pub net: Option<Arc<EvalNet>>,
}

/// The quiet positions of `game` worth evaluating: no capture pending (alpha-beta evaluates
/// only those), the game still on, and more pieces than the endgame database covers.
pub fn positions_to_label(game: &Game) -> Vec<Position> {
    game.positions()
        .iter()
        .filter(|p| !p.has_capture() && p.count_legal() > 0)
        .filter(|p| p.occupied().count_ones() >= MIN_PIECES)
        .copied()
        .collect()
}

/// MCTS's expected score for the side to move in `pos`, from a fresh one-thread search.
pub fn mcts_label(pos: Position, sims: u64, seed: u64) -> f32 {
    let mut mcts = Mcts::new(seed, 1);
    let limits = Limits {
        sims: Some(sims),
        ..Limits::default()
    };
    match mcts.choose(&Game::from_position(pos), &limits, &Control::default()) {
        Ok(d) => d.win_probability as f32,
        Err(_) => 0.5,
    }
}

/// Plays `cfg.games` games from `openings` (alpha-beta against MCTS, colours swapped) and
/// hands each game's labelled samples to `out`, from `cfg.threads` threads.
pub fn generate(cfg: &DataConfig, openings: &[Opening], out: impl Fn(Vec<Sample>) + Sync) {
    let limits = Limits {
        depth: Some(cfg.depth.max(2)),
        sims: Some(cfg.play_sims),
        ..Limits::default()
    };
    play_games(
        openings,
        cfg.games,
        cfg.threads,
        &limits,
        |i| {
            let seed = cfg.seed.wrapping_mul(1_000_003).wrapping_add(i as u64);
            let ab = AlphaBeta::new();
            let ab = match &cfg.net {
                Some(net) => ab.with_net(net.clone()),
                None => ab,
            };
            (ab, Mcts::new(seed, 1))
        },
        |game, ab_color| {
            let result = game.result();
            let samples: Vec<Sample> = positions_to_label(game)
                .into_iter()
                .enumerate()
                .map(|(k, pos)| Sample {
                    pos,
                    mcts: mcts_label(pos, cfg.label_sims, cfg.seed ^ ((k as u64 + 1) << 20)),
                    result: points(result, pos.side_to_move()) as f32,
                })
                .collect();
            tracing::debug!(?ab_color, samples = samples.len(), "game labelled");
            out(samples);
        },
    );
}

/// Writes samples as lines.
pub fn write_samples(w: &mut impl Write, samples: &[Sample]) -> std::io::Result<()> {
    for s in samples {
        writeln!(w, "{}", s.to_line())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn samples_round_trip_and_bad_lines_are_errors() {
        let s = Sample {
            pos: Position::start(),
            mcts: 0.5625,
            result: 1.0,
        };
        assert_eq!(Sample::parse(&s.to_line()), Ok(s));
        assert!(Sample::parse("W:W21:B1\t0.5").is_err());
        assert!(Sample::parse("W:W21:B1\t1.5\t0").is_err());
        assert!(Sample::parse("nonsense\t0.5\t0").is_err());
        let text = format!("{}\n\nbad\n", s.to_line());
        match read_samples(text.as_bytes()) {
            Err(DataError::Line { line: 3, .. }) => {}
            other => panic!("expected an error on line 3, got {other:?}"),
        }
    }

    #[test]
    fn generated_games_give_labelled_quiet_positions() {
        let cfg = DataConfig {
            games: 2,
            depth: 3,
            play_sims: 50,
            label_sims: 50,
            threads: 2,
            seed: 7,
            net: None,
        };
        let all = Mutex::new(Vec::new());
        generate(&cfg, &search::built_in_openings(), |s| {
            if let Ok(mut a) = all.lock() {
                a.extend(s);
            }
        });
        let all = all.into_inner().unwrap_or_default();
        assert!(all.len() > 20, "{} samples", all.len());
        for s in &all {
            assert!(!s.pos.has_capture());
            assert!(s.pos.occupied().count_ones() >= MIN_PIECES);
            assert!((0.0..=1.0).contains(&s.mcts));
            assert!([0.0, 0.5, 1.0].contains(&s.result));
        }
    }
}
