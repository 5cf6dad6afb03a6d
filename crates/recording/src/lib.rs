//! Every game kept as an MCAP file, the way `ros2 bag record -s mcap` keeps one: profile
//! `ros2`, each channel's messages in CDR (`cdr`) under its type's `ros2msg` schema, so that
//! rosbag2's MCAP storage, Foxglove and Lichtblick open it.
//!
//! - [`Recorder`] writes one file per game (the caller says when a game starts), a new part
//!   when a file reaches its size limit, and removes the oldest recordings of its folder when
//!   they pass the folder's limit. Messages go into LZ4 chunks that are closed at least every
//!   [`Limits::chunk_bytes`] and whenever [`Recorder::flush`] is called, so a recording cut
//!   short by a crash still opens up to its last closed chunk.
//! - [`read`] reads a recording back, a truncated one included.
//!
//! ```
//! # fn main() -> Result<(), recording::RecordingError> {
//! use recording::{Channel, Limits, Recorder};
//! let dir = tempfile::tempdir().map_err(recording::RecordingError::io("a temporary folder"))?;
//! let mut rec = Recorder::new(dir.path(), Limits::default())?;
//! let path = rec.start("game7")?;
//! let say = Channel {
//!     topic: "/voice/say",
//!     ros_type: "std_msgs/msg/String",
//!     definition: "string data\n",
//!     type_hash: "",
//! };
//! // "hi" as CDR: the encapsulation header, the length with its NUL, the bytes.
//! rec.write(&say, 1_000, &[0, 1, 0, 0, 3, 0, 0, 0, b'h', b'i', 0])?;
//! rec.finish()?;
//! let back = recording::read(&path)?;
//! assert_eq!(back.messages.len(), 1);
//! assert_eq!(back.messages[0].topic, "/voice/say");
//! assert!(back.truncated.is_none());
//! # Ok(()) }
//! ```

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

/// How big recordings may grow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// A file larger than this (its messages, before compression) goes on in a new part.
    pub file_bytes: u64,
    /// The folder's recordings together; the oldest are removed beyond it.
    pub total_bytes: u64,
    /// A chunk is closed (and is on disk for good) once its messages reach this size.
    pub chunk_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            file_bytes: 256 << 20,
            total_bytes: 2 << 30,
            chunk_bytes: 256 << 10,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RecordingError {
    #[error("{what}: {source}")]
    Io {
        what: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{} is not an MCAP recording", .0.display())]
    NotMcap(PathBuf),
    #[error("{}: {source}", path.display())]
    Mcap {
        path: PathBuf,
        #[source]
        source: mcap::McapError,
    },
}

impl RecordingError {
    /// An I/O error on `what`, for `map_err`.
    pub fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> RecordingError {
        let what = what.into();
        move |source| RecordingError::Io { what, source }
    }

    fn mcap(path: &Path) -> impl FnOnce(mcap::McapError) -> RecordingError + '_ {
        move |source| RecordingError::Mcap {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// A topic as recorded: its name, type and schema.
#[derive(Debug, Clone, Copy)]
pub struct Channel<'a> {
    pub topic: &'a str,
    /// `sensor_msgs/msg/JointState`
    pub ros_type: &'a str,
    /// The `ros2msg` schema: the type's `.msg` and those it uses.
    pub definition: &'a str,
    /// The RIHS01 hash rosbag2 keeps beside the type ("" if unknown).
    pub type_hash: &'a str,
}

/// Writes the recordings of one folder.
#[derive(Debug)]
pub struct Recorder {
    dir: PathBuf,
    limits: Limits,
    open: Option<OpenFile>,
}

struct OpenFile {
    path: PathBuf,
    game: String,
    part: u32,
    writer: mcap::Writer<BufWriter<File>>,
    channels: HashMap<String, u16>,
    sequence: u32,
    bytes: u64,
}

impl std::fmt::Debug for OpenFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenFile")
            .field("path", &self.path)
            .field("bytes", &self.bytes)
            .finish_non_exhaustive()
    }
}

/// What the MCAP header names as the file's writer.
const LIBRARY: &str = concat!("checkers_robot recording ", env!("CARGO_PKG_VERSION"));

impl Recorder {
    /// Recordings go into `dir` (made if missing).
    pub fn new(dir: &Path, limits: Limits) -> Result<Recorder, RecordingError> {
        std::fs::create_dir_all(dir)
            .map_err(RecordingError::io(format!("creating {}", dir.display())))?;
        Ok(Recorder {
            dir: dir.to_path_buf(),
            limits,
            open: None,
        })
    }

    /// The file being written, if any.
    pub fn current(&self) -> Option<&Path> {
        self.open.as_ref().map(|o| o.path.as_path())
    }

    /// Ends the file being written and starts `GAME.mcap` (`GAME-2.mcap`, ... if that exists).
    pub fn start(&mut self, game: &str) -> Result<PathBuf, RecordingError> {
        self.finish()?;
        self.open(game, 1)
    }

    fn open(&mut self, game: &str, first_part: u32) -> Result<PathBuf, RecordingError> {
        let mut part = first_part;
        let path = loop {
            let name = if part == 1 {
                format!("{game}.mcap")
            } else {
                format!("{game}-{part}.mcap")
            };
            let path = self.dir.join(name);
            if !path.exists() {
                break path;
            }
            part += 1;
        };
        self.make_room()?;
        let file = File::create(&path)
            .map_err(RecordingError::io(format!("creating {}", path.display())))?;
        let options = mcap::WriteOptions::new()
            .profile("ros2")
            .library(LIBRARY)
            .compression(Some(mcap::Compression::Lz4))
            .chunk_size(Some(self.limits.chunk_bytes));
        let writer = options
            .create(BufWriter::new(file))
            .map_err(RecordingError::mcap(&path))?;
        tracing::info!("recording to {}", path.display());
        self.open = Some(OpenFile {
            path: path.clone(),
            game: game.to_string(),
            part,
            writer,
            channels: HashMap::new(),
            sequence: 0,
            bytes: 0,
        });
        Ok(path)
    }

    /// Adds one message (`cdr`: CDR with its encapsulation header) seen at `stamp_ns`
    /// (nanoseconds since the Unix epoch). Before any [`Recorder::start`] it goes into a
    /// recording named after the time.
    pub fn write(
        &mut self,
        channel: &Channel,
        stamp_ns: u64,
        cdr: &[u8],
    ) -> Result<(), RecordingError> {
        if self.open.is_none() {
            self.open(&format!("unnamed-{}", stamp_ns / 1_000_000_000), 1)?;
        }
        let full = self
            .open
            .as_ref()
            .is_some_and(|o| o.bytes >= self.limits.file_bytes);
        if full {
            if let Some(o) = self.open.take() {
                let (game, part) = (o.game.clone(), o.part);
                close(o)?;
                self.open(&game, part + 1)?;
            }
        }
        let Some(o) = self.open.as_mut() else {
            return Ok(());
        };
        let id = match o.channels.get(channel.topic) {
            Some(id) => *id,
            None => {
                let schema = o
                    .writer
                    .add_schema(channel.ros_type, "ros2msg", channel.definition.as_bytes())
                    .map_err(RecordingError::mcap(&o.path))?;
                let mut metadata = BTreeMap::new();
                if !channel.type_hash.is_empty() {
                    metadata.insert("topic_type_hash".into(), channel.type_hash.into());
                }
                let id = o
                    .writer
                    .add_channel(schema, channel.topic, "cdr", &metadata)
                    .map_err(RecordingError::mcap(&o.path))?;
                o.channels.insert(channel.topic.to_string(), id);
                id
            }
        };
        o.sequence = o.sequence.wrapping_add(1);
        let header = mcap::records::MessageHeader {
            channel_id: id,
            sequence: o.sequence,
            log_time: stamp_ns,
            publish_time: stamp_ns,
        };
        o.writer
            .write_to_known_channel(&header, cdr)
            .map_err(RecordingError::mcap(&o.path))?;
        o.bytes += cdr.len() as u64;
        Ok(())
    }

    /// Closes the chunk being filled, so that what was written so far survives a crash.
    pub fn flush(&mut self) -> Result<(), RecordingError> {
        if let Some(o) = self.open.as_mut() {
            o.writer.flush().map_err(RecordingError::mcap(&o.path))?;
        }
        Ok(())
    }

    /// Ends the file being written (its index and summary written), if any; returns it.
    pub fn finish(&mut self) -> Result<Option<PathBuf>, RecordingError> {
        let Some(o) = self.open.take() else {
            return Ok(None);
        };
        let path = o.path.clone();
        close(o)?;
        Ok(Some(path))
    }

    /// Removes the oldest recordings of the folder while they pass the folder's limit.
    fn make_room(&self) -> Result<(), RecordingError> {
        let mut files = recordings(&self.dir)?;
        let mut total: u64 = files.iter().map(|(_, len, _)| len).sum();
        files.sort_by_key(|(_, _, modified)| *modified);
        for (path, len, _) in files {
            if total <= self.limits.total_bytes {
                break;
            }
            match std::fs::remove_file(&path) {
                Ok(()) => {
                    tracing::info!(
                        "removed the oldest recording {} to stay within {} bytes",
                        path.display(),
                        self.limits.total_bytes
                    );
                    total = total.saturating_sub(len);
                }
                Err(e) => tracing::warn!("cannot remove {}: {e}", path.display()),
            }
        }
        Ok(())
    }
}

impl Drop for Recorder {
    fn drop(&mut self) {
        if let Err(e) = self.finish() {
            tracing::warn!("the recording was not finished: {e}");
        }
    }
}

fn close(mut o: OpenFile) -> Result<(), RecordingError> {
    o.writer.finish().map_err(RecordingError::mcap(&o.path))?;
    tracing::info!("recorded {}", o.path.display());
    Ok(())
}

/// The `.mcap` files of `dir`: path, size, last change.
fn recordings(dir: &Path) -> Result<Vec<(PathBuf, u64, std::time::SystemTime)>, RecordingError> {
    let entries =
        std::fs::read_dir(dir).map_err(RecordingError::io(format!("listing {}", dir.display())))?;
    Ok(entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "mcap"))
        .filter_map(|p| {
            let m = std::fs::metadata(&p).ok()?;
            Some((p, m.len(), m.modified().ok()?))
        })
        .collect())
}

/// One recorded message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub topic: String,
    pub ros_type: String,
    /// Nanoseconds since the Unix epoch.
    pub log_time_ns: u64,
    /// CDR, encapsulation header first.
    pub data: Vec<u8>,
}

/// A recording read back.
#[derive(Debug, Clone, Default)]
pub struct Recording {
    /// In the order written.
    pub messages: Vec<Message>,
    /// Why reading stopped before the end of the file, when it did (a crash cut it short).
    pub truncated: Option<String>,
}

/// Reads the recording at `path`: every message of its closed chunks, in order. A file cut
/// short (no footer, a last chunk half written) gives what came before the cut, and says so.
pub fn read(path: &Path) -> Result<Recording, RecordingError> {
    let bytes =
        std::fs::read(path).map_err(RecordingError::io(format!("reading {}", path.display())))?;
    if !bytes.starts_with(mcap::MAGIC) {
        return Err(RecordingError::NotMcap(path.to_path_buf()));
    }
    let options = mcap::read::Options::IgnoreEndMagic.into();
    let stream = mcap::MessageStream::new_with_options(&bytes, options)
        .map_err(RecordingError::mcap(path))?;
    let mut out = Recording::default();
    for m in stream {
        match m {
            Ok(m) => out.messages.push(Message {
                topic: m.channel.topic.clone(),
                ros_type: m
                    .channel
                    .schema
                    .as_ref()
                    .map_or(String::new(), |s| s.name.clone()),
                log_time_ns: m.log_time,
                data: m.data.into_owned(),
            }),
            Err(e) => {
                out.truncated = Some(e.to_string());
                break;
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
