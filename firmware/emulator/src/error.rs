use std::path::PathBuf;

/// Why an emulated board could not be started or driven.
#[derive(Debug, thiserror::Error)]
pub enum EmulatorError {
    #[error("no firmware ELF at {0} (build it with firmware/pico/build.sh)")]
    NoFirmware(PathBuf),
    #[error("firmware ELF {path}: {why}")]
    BadImage { path: PathBuf, why: String },
    #[error("rp2040js is not installed in {dir} and `npm ci` failed: {why}")]
    Npm { dir: PathBuf, why: String },
    #[error("cannot start Node.js ({program}): {source}")]
    Spawn {
        program: String,
        source: std::io::Error,
    },
    #[error("the emulated {board} board: {why}")]
    Board { board: &'static str, why: String },
    #[error("budget file {path}: {why}")]
    Budget { path: PathBuf, why: String },
}
