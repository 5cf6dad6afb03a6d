//! Fast self-play for the pattern evaluation: alpha-beta at a small fixed depth against
//! itself (`search::play_self_play_games`). Every quiet position (the side to move has no capture) is kept
//! with the game's result and the search's own value of it.
//!
//! Stored as a header line, then 16 bytes a position: the White, Black and king squares as
//! 32-bit masks in PDN numbering, the side to move, the result for White, and the search's
//! expected score for the side to move in 1/65534ths (65535: not searched, a forced move).
//! Files of the first format (`selfplay 1`, 14 bytes, no search value) still load.

use std::io::{Read, Write};
use std::path::Path;

use draughts::{bitboard_to_numbered, numbered_to_bitboard};
use draughts::{Color, Game, Position};
pub use search::SelfPlayConfig;
use search::{Decision, Recorder};

const HEADER: &[u8] = b"selfplay 2\n";
const RECORD: usize = 16;
const HEADER_V1: &[u8] = b"selfplay 1\n";
const RECORD_V1: usize = 14;
const NOT_SEARCHED: u16 = u16::MAX;
const SEARCH_SCALE: f32 = 65534.0;

/// A quiet position, how its game ended and what the search thought of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Record {
    pub pos: Position,
    /// White's points, doubled: 0 lost, 1 drawn, 2 won.
    pub white_points: u8,
    /// The self-play search's expected score for the side to move, where it searched.
    pub search: Option<f32>,
}

impl Record {
    /// The side to move's score in its game.
    pub fn target(&self) -> f32 {
        search::score_of(self.pos.side_to_move(), self.white_points)
    }

    /// The training target: the game's result blended with the search's value, `search_weight`
    /// of the latter (the result alone where the position was not searched). A drawn game's
    /// 1/2 says nothing about which of its positions were good; the search's value does.
    pub fn blended_target(&self, search_weight: f32) -> f32 {
        match self.search {
            Some(s) => (1.0 - search_weight) * self.target() + search_weight * s,
            None => self.target(),
        }
    }

    fn to_bytes(self) -> [u8; RECORD] {
        let mut b = [0u8; RECORD];
        let p = &self.pos;
        b[0..4].copy_from_slice(&bitboard_to_numbered(p.pieces(Color::White)).to_le_bytes());
        b[4..8].copy_from_slice(&bitboard_to_numbered(p.pieces(Color::Black)).to_le_bytes());
        b[8..12].copy_from_slice(&bitboard_to_numbered(p.all_kings()).to_le_bytes());
        b[12] = u8::from(p.side_to_move() == Color::Black);
        b[13] = self.white_points;
        let search = self.search.map_or(NOT_SEARCHED, |s| {
            (s.clamp(0.0, 1.0) * SEARCH_SCALE).round() as u16
        });
        b[14..16].copy_from_slice(&search.to_le_bytes());
        b
    }

    /// Reads a record of either format: 14 bytes (no search value) or 16.
    fn from_bytes(b: &[u8]) -> Result<Record, BadRecord> {
        let word = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let (white, black, kings) = (word(0), word(4), word(8));
        if white & black != 0 || kings & !(white | black) != 0 {
            return Err(BadRecord::Overlap);
        }
        let side = match b[12] {
            0 => Color::White,
            1 => Color::Black,
            other => return Err(BadRecord::Side(other)),
        };
        if b[13] > 2 {
            return Err(BadRecord::Result(b[13]));
        }
        let pos = Position::from_boards(
            numbered_to_bitboard(white),
            numbered_to_bitboard(black),
            numbered_to_bitboard(kings),
            side,
        );
        pos.validate()?;
        let search = match b.get(14..16) {
            Some(&[lo, hi]) => match u16::from_le_bytes([lo, hi]) {
                NOT_SEARCHED => None,
                v if f32::from(v) <= SEARCH_SCALE => Some(f32::from(v) / SEARCH_SCALE),
                v => return Err(BadRecord::Search(v)),
            },
            _ => None,
        };
        Ok(Record {
            pos,
            white_points: b[13],
            search,
        })
    }
}

/// What is wrong inside one stored position.
#[derive(Debug, thiserror::Error)]
pub enum BadRecord {
    #[error("overlapping pieces")]
    Overlap,
    #[error("side to move {0}")]
    Side(u8),
    #[error("result {0}")]
    Result(u8),
    #[error(transparent)]
    Position(#[from] draughts::PositionError),
    #[error("search value {0}")]
    Search(u16),
}

#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error(
        "{file}: not a self-play file (it must begin with {:?} or {:?})",
        String::from_utf8_lossy(HEADER),
        String::from_utf8_lossy(HEADER_V1)
    )]
    Header { file: String },
    #[error("{file}: its length is not a whole number of {size}-byte positions")]
    Length { file: String, size: usize },
    #[error("{file}: position {index}: {why}")]
    Bad {
        file: String,
        index: usize,
        why: BadRecord,
    },
    #[error("{file}: {source}")]
    Io {
        file: String,
        source: std::io::Error,
    },
}

/// Writes the file's header.
pub fn write_header(out: &mut impl Write) -> std::io::Result<()> {
    out.write_all(HEADER)
}

pub fn write_records(out: &mut impl Write, records: &[Record]) -> std::io::Result<()> {
    for r in records {
        out.write_all(&r.to_bytes())?;
    }
    Ok(())
}

/// Every position of a file written by [`write_header`] and [`write_records`].
pub fn read_records(path: &Path) -> Result<Vec<Record>, RecordError> {
    let file = path.display().to_string();
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|source| RecordError::Io {
            file: file.clone(),
            source,
        })?;
    let (body, size) = if let Some(body) = bytes.strip_prefix(HEADER) {
        (body, RECORD)
    } else if let Some(body) = bytes.strip_prefix(HEADER_V1) {
        (body, RECORD_V1)
    } else {
        return Err(RecordError::Header { file });
    };
    if !body.len().is_multiple_of(size) {
        return Err(RecordError::Length { file, size });
    }
    body.chunks_exact(size)
        .enumerate()
        .map(|(index, chunk)| {
            Record::from_bytes(chunk).map_err(|why| RecordError::Bad {
                file: file.clone(),
                index,
                why,
            })
        })
        .collect()
}

/// Keeps a game's quiet positions (the side to move has no capture) and the search's value
/// of each, for its result.
struct Quiet(Vec<(Position, Option<f32>)>);

impl Recorder for Quiet {
    type Output = Vec<Record>;
    fn ply(&mut self, game: &Game, decision: Option<&Decision>) {
        let pos = *game.position();
        if pos.legal_moves().first().is_some_and(|m| !m.is_capture()) {
            self.0
                .push((pos, decision.map(|d| d.win_probability as f32)));
        }
    }
    fn finish(self, white_points: u8) -> Vec<Record> {
        self.0
            .into_iter()
            .map(|(pos, search)| Record {
                pos,
                white_points,
                search,
            })
            .collect()
    }
}

/// Plays `games` games; `on_game` receives each game's quiet positions as it ends.
pub fn play_games(cfg: &SelfPlayConfig, games: usize, on_game: impl Fn(Vec<Record>) + Sync) {
    search::play_self_play_games(cfg, 0..games, |_| Quiet(Vec::new()), on_game);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_give_quiet_positions_that_round_trip() {
        let mut cfg = SelfPlayConfig::new(2, 7);
        cfg.threads = 1;
        cfg.max_plies = 60;
        let all = std::sync::Mutex::new(Vec::new());
        play_games(&cfg, 3, |r| all.lock().expect("lock").extend(r));
        let records = all.into_inner().expect("lock");
        assert!(records.len() > 30, "{} positions", records.len());
        for r in &records {
            assert!(!r.pos.legal_moves()[0].is_capture(), "quiet positions only");
            assert!((0.0..=1.0).contains(&r.target()));
        }
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("sp.bin");
        let mut bytes = Vec::new();
        write_header(&mut bytes).expect("header");
        write_records(&mut bytes, &records).expect("write");
        std::fs::write(&path, &bytes).expect("file");
        let back = read_records(&path).expect("read");
        assert_eq!(back.len(), records.len());
        for (b, r) in back.iter().zip(&records) {
            assert_eq!((b.pos, b.white_points), (r.pos, r.white_points));
            match (b.search, r.search) {
                (Some(x), Some(y)) => assert!((x - y).abs() <= 1.0 / SEARCH_SCALE, "{x} {y}"),
                (x, y) => assert_eq!(x, y),
            }
        }
        assert!(
            records.iter().filter(|r| r.search.is_some()).count() * 10 > records.len() * 9,
            "nearly every quiet position had a choice, so a search value"
        );

        // A file of the first format (14 bytes, no search value) still loads.
        let mut v1 = HEADER_V1.to_vec();
        for r in &records {
            v1.extend_from_slice(&r.to_bytes()[..RECORD_V1]);
        }
        std::fs::write(&path, &v1).expect("file");
        let back = read_records(&path).expect("read v1");
        assert!(back.iter().all(|b| b.search.is_none()));
        assert_eq!(back.len(), records.len());
        std::fs::write(&path, &bytes).expect("file");

        // A cut file and a foreign one are errors naming the file.
        std::fs::write(&path, &bytes[..bytes.len() - 1]).expect("file");
        let err = read_records(&path).expect_err("cut").to_string();
        assert!(
            err.contains("sp.bin") && err.contains("whole number"),
            "{err}"
        );
        std::fs::write(&path, b"hello").expect("file");
        assert!(matches!(
            read_records(&path),
            Err(RecordError::Header { .. })
        ));
    }

    #[test]
    fn the_target_is_the_side_to_move_s_score() {
        let pos = Position::start();
        let r = Record {
            pos,
            white_points: 2,
            search: None,
        };
        assert_eq!(r.target(), 1.0);
        assert_eq!(r.blended_target(0.5), 1.0, "no search value: the result");
        let r = Record {
            pos: pos.mirror(),
            white_points: 1,
            search: Some(0.9),
        };
        assert_eq!(r.target(), 0.5);
        assert!((r.blended_target(0.5) - 0.7).abs() < 1e-6);
        assert_eq!(r.blended_target(0.0), 0.5);
    }
}
