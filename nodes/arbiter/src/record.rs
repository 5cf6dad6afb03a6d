//! The game record and its persistence. Every ply is written atomically (write a temporary
//! file, fsync, rename, fsync the directory) so a killed arbiter resumes the same game with its
//! whole history, repetitions included. Finished games are archived as PDN. A state file that
//! cannot be read is set aside under a new name and reported, never silently dropped.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use draughts::write_pdn_with_comments;
use draughts::{Color, Game, Move};
use serde::{Deserialize, Serialize};

/// The version of the state file's layout.
const FORMAT: u32 = 1;
const STATE_FILE: &str = "game.json";

/// Why a record does not replay.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("start position: {0}")]
    Start(draughts::ParseError),
    #[error("move {ply} ({text}): {source}")]
    Move {
        ply: usize,
        text: String,
        source: draughts::MoveError,
    },
    #[error("resigned side {0:?}")]
    ResignedSide(String),
}

#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is corrupt: {why}")]
    Corrupt { path: PathBuf, why: String },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> RecordError + '_ {
    move |source| RecordError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Everything needed to rebuild a game: the start and every move, plus who plays what.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub format: u32,
    pub game_id: u32,
    /// PDN FEN of the start; "" = the standard start.
    pub start_fen: String,
    /// Every move played, full-path text, oldest first.
    pub moves: Vec<String>,
    /// "white" or "black".
    pub robot_color: String,
    /// The difficulty level's name.
    pub level: String,
    /// PDN date the game started, `YYYY.MM.DD`.
    pub date: String,
    /// A side that resigned ("white"/"black"), or None.
    pub resigned: Option<String>,
    /// The PDN comment of each move (the robot's verdicts), by index; "" = none. Absent from
    /// records written before verdicts existed.
    #[serde(default)]
    pub comments: Vec<String>,
    /// The last confirmed reading judged. The board sensor keeps its last reading for a
    /// subscriber that joins late, so that a press made while the arbiter was starting again
    /// is not lost; an arbiter that resumes must not judge a second time the one it had
    /// judged before it stopped. Absent from records written before.
    #[serde(default)]
    pub last_reading: Option<ReadingId>,
}

/// A confirmed reading as the board sensor names it: its sequence number and its stamp in
/// nanoseconds (integers, so that the saved one compares equal to the one received again).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadingId {
    pub seq: u64,
    pub stamp_ns: i64,
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn parse_color(s: &str) -> Option<Color> {
    match s {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

impl GameRecord {
    pub fn new(game_id: u32, start_fen: &str, robot: Color, level: &str) -> GameRecord {
        GameRecord {
            format: FORMAT,
            game_id,
            start_fen: start_fen.to_string(),
            moves: Vec::new(),
            robot_color: color_name(robot).to_string(),
            level: level.to_string(),
            date: pdn_date(SystemTime::now()),
            resigned: None,
            comments: Vec::new(),
            last_reading: None,
        }
    }

    /// Sets the comment of move `ply` (0 = the first).
    pub fn set_comment(&mut self, ply: usize, text: String) {
        if self.comments.len() <= ply {
            self.comments.resize(ply + 1, String::new());
        }
        self.comments[ply] = text;
    }

    pub fn robot(&self) -> Option<Color> {
        parse_color(&self.robot_color)
    }

    pub fn push(&mut self, mv: &Move) {
        self.moves.push(mv.text());
    }

    pub fn resign(&mut self, side: Color) {
        self.resigned = Some(color_name(side).to_string());
    }

    /// The game the record describes, replayed by the rules engine.
    pub fn replay(&self) -> Result<Game, ReplayError> {
        let mut game = if self.start_fen.is_empty() {
            Game::new()
        } else {
            Game::from_fen(&self.start_fen).map_err(ReplayError::Start)?
        };
        for (i, text) in self.moves.iter().enumerate() {
            game.play_text(text).map_err(|source| ReplayError::Move {
                ply: i + 1,
                text: text.clone(),
                source,
            })?;
        }
        if let Some(side) = &self.resigned {
            let side = parse_color(side).ok_or_else(|| ReplayError::ResignedSide(side.clone()))?;
            game.resign(side);
        }
        Ok(game)
    }

    /// The game as PDN, with the players, level, date and how it ended.
    pub fn to_pdn(&self, game: &Game, termination: &str) -> String {
        let robot = format!("checkers_robot ({})", self.level);
        let (white, black) = match self.robot() {
            Some(Color::Black) => ("Human".to_string(), robot),
            _ => (robot, "Human".to_string()),
        };
        let round = self.game_id.to_string();
        write_pdn_with_comments(
            game,
            &[
                ("Event", "Game against the draughts robot"),
                ("Site", "checkers_robot"),
                ("Date", &self.date),
                ("Round", &round),
                ("White", &white),
                ("Black", &black),
                ("Level", &self.level),
                ("Termination", termination),
            ],
            &self.comments,
        )
    }
}

/// What a state directory held at start-up.
#[derive(Debug)]
pub enum Resume {
    /// A game in progress, replayed.
    Game(Box<GameRecord>, Game),
    /// No game was in progress.
    Fresh,
    /// The state file could not be used; it was renamed to `moved_to`.
    SetAside { why: String, moved_to: PathBuf },
}

/// The arbiter's state directory: `game.json` (the game in progress) and `games/*.pdn`.
#[derive(Debug, Clone)]
pub struct StateDir {
    dir: PathBuf,
}

impl StateDir {
    pub fn open(dir: impl Into<PathBuf>) -> Result<StateDir, RecordError> {
        let dir = dir.into();
        fs::create_dir_all(dir.join("games")).map_err(io(&dir))?;
        Ok(StateDir { dir })
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }

    fn state_file(&self) -> PathBuf {
        self.dir.join(STATE_FILE)
    }

    /// Writes the record atomically: a reader (or a restart) sees the old or the new file,
    /// never half of one.
    pub fn save(&self, record: &GameRecord) -> Result<(), RecordError> {
        let text = serde_json::to_string_pretty(record).map_err(|e| RecordError::Corrupt {
            path: self.state_file(),
            why: e.to_string(),
        })?;
        write_atomically(&self.state_file(), text.as_bytes())
    }

    /// The game in progress, if any. A file that does not parse or does not replay is set aside
    /// and reported.
    pub fn resume(&self) -> Result<Resume, RecordError> {
        let path = self.state_file();
        let text = match fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Resume::Fresh),
            Err(e) => {
                return self.set_aside(format!("unreadable: {e}"));
            }
        };
        let record: GameRecord = match serde_json::from_str(&text) {
            Ok(r) => r,
            Err(e) => return self.set_aside(format!("does not parse: {e}")),
        };
        if record.format != FORMAT {
            return self.set_aside(format!(
                "format {} (this arbiter reads {FORMAT})",
                record.format
            ));
        }
        if record.robot().is_none() {
            return self.set_aside(format!("robot colour {:?}", record.robot_color));
        }
        match record.replay() {
            Ok(game) => Ok(Resume::Game(Box::new(record), game)),
            Err(why) => self.set_aside(format!("does not replay: {why}")),
        }
    }

    fn set_aside(&self, why: String) -> Result<Resume, RecordError> {
        let from = self.state_file();
        let stamp = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let to = self.dir.join(format!("{STATE_FILE}.corrupt-{stamp}"));
        fs::rename(&from, &to).map_err(io(&from))?;
        tracing::error!(file = %from.display(), moved_to = %to.display(), "game state set aside: {why}");
        Ok(Resume::SetAside { why, moved_to: to })
    }

    /// Archives a finished game as PDN and clears the game in progress.
    pub fn archive(
        &self,
        record: &GameRecord,
        game: &Game,
        termination: &str,
    ) -> Result<PathBuf, RecordError> {
        let name = format!(
            "{}-game{}.pdn",
            record.date.replace('.', "-"),
            record.game_id
        );
        let path = self.dir.join("games").join(name);
        write_atomically(&path, record.to_pdn(game, termination).as_bytes())?;
        let state = self.state_file();
        match fs::remove_file(&state) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(io(&state)(e)),
        }
        Ok(path)
    }

    /// The ids of archived games, to choose the next game's id after a restart.
    pub fn last_game_id(&self) -> u32 {
        let mut last = 0;
        if let Ok(entries) = fs::read_dir(self.dir.join("games")) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if let Some(id) = name
                    .rsplit_once("-game")
                    .and_then(|(_, rest)| rest.strip_suffix(".pdn"))
                    .and_then(|n| n.parse::<u32>().ok())
                {
                    last = last.max(id);
                }
            }
        }
        last
    }
}

fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), RecordError> {
    let tmp = path.with_extension("tmp");
    {
        let mut f = fs::File::create(&tmp).map_err(io(&tmp))?;
        f.write_all(bytes).map_err(io(&tmp))?;
        f.sync_all().map_err(io(&tmp))?;
    }
    fs::rename(&tmp, path).map_err(io(path))?;
    // The rename itself must reach the disk too.
    if let Some(dir) = path.parent() {
        if let Ok(d) = fs::File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// `YYYY.MM.DD` of a time, in UTC.
pub fn pdn_date(t: SystemTime) -> String {
    let days = t
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Howard Hinnant's days-to-civil-date algorithm (proleptic Gregorian).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_gregorian() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(20_778), (2026, 11, 21));
    }
}
