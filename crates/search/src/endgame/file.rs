//! The database in a file, so that the five-piece one (minutes to build) is built once per
//! machine. The format is the tables as they are in memory, after a header that names the
//! format and the number of pieces; every table's length is checked against its signature.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::index::{sig_of_slot, slot};
use super::EndgameDb;

const MAGIC: &[u8; 16] = b"draughts-egdb-v1";

#[derive(Debug, thiserror::Error)]
pub enum EndgameFileError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: not an endgame database of this version ({why})")]
    Format { path: PathBuf, why: String },
}

impl EndgameDb {
    /// Writes the database to `path` (through a temporary file of this process, so a reader,
    /// or another process saving the same database, never sees half of it).
    pub fn save(&self, path: &Path) -> Result<(), EndgameFileError> {
        let io = |source| EndgameFileError::Io {
            path: path.to_path_buf(),
            source,
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let partial = path.with_extension(format!("partial-{}", std::process::id()));
        let written = self
            .write_to(&partial)
            .and_then(|()| std::fs::rename(&partial, path));
        if written.is_err() {
            // Best effort: a stray partial file is only disk space.
            let _ = std::fs::remove_file(&partial);
        }
        written.map_err(io)
    }

    fn write_to(&self, path: &Path) -> std::io::Result<()> {
        let mut out = BufWriter::new(File::create(path)?);
        out.write_all(MAGIC)?;
        out.write_all(&self.max_pieces.to_le_bytes())?;
        for (sig, table) in self.signatures() {
            out.write_all(&sig)?;
            out.write_all(&(table.len() as u64).to_le_bytes())?;
            out.write_all(table)?;
        }
        out.flush()
    }

    /// Reads a database written by [`EndgameDb::save`].
    pub fn load(path: &Path) -> Result<EndgameDb, EndgameFileError> {
        let io = |source| EndgameFileError::Io {
            path: path.to_path_buf(),
            source,
        };
        let bad = |why: String| EndgameFileError::Format {
            path: path.to_path_buf(),
            why,
        };
        let mut input = BufReader::new(File::open(path).map_err(io)?);
        let mut magic = [0u8; 16];
        input.read_exact(&mut magic).map_err(io)?;
        if &magic != MAGIC {
            return Err(bad("wrong header".into()));
        }
        let mut word = [0u8; 4];
        input.read_exact(&mut word).map_err(io)?;
        let pieces = u32::from_le_bytes(word);
        if !(2..=super::MAX_PIECES).contains(&pieces) {
            return Err(bad(format!("{pieces} pieces")));
        }
        let mut db = EndgameDb::empty(pieces);
        let expected = (0..db.tables.len())
            .map(sig_of_slot)
            .filter(|s| {
                let total: u32 = s.iter().map(|&c| u32::from(c)).sum();
                s[0] + s[1] > 0 && s[2] + s[3] > 0 && total <= pieces
            })
            .count();
        for _ in 0..expected {
            let mut sig = [0u8; 4];
            input.read_exact(&mut sig).map_err(io)?;
            let mut len = [0u8; 8];
            input.read_exact(&mut len).map_err(io)?;
            let len = u64::from_le_bytes(len);
            let s = slot(sig).ok_or_else(|| bad(format!("signature {sig:?}")))?;
            if len != db.ix.table_len(sig) as u64 || !db.tables[s].is_empty() {
                return Err(bad(format!("table {sig:?} of {len} bytes")));
            }
            let mut table = vec![0u8; len as usize];
            input.read_exact(&mut table).map_err(io)?;
            db.tables[s] = table;
        }
        if input.read(&mut word).map_err(io)? != 0 {
            return Err(bad("bytes after the last table".into()));
        }
        Ok(db)
    }
}

/// Where a database of `pieces` pieces is kept between runs: `$CHECKERS_ROBOT_CACHE`, else
/// `$XDG_CACHE_HOME/checkers-robot`, else `~/.cache/checkers-robot`.
pub fn cache_path(pieces: u32) -> Option<PathBuf> {
    let var = |name| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let dir = var("CHECKERS_ROBOT_CACHE")
        .or_else(|| var("XDG_CACHE_HOME").map(|d| d.join("checkers-robot")))
        .or_else(|| var("HOME").map(|d| d.join(".cache").join("checkers-robot")))?;
    Some(dir.join(format!("endgame-{pieces}.bin")))
}
