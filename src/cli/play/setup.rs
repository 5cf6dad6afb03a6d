//! What `play` checks and prepares before the UI is up: a terminal to draw on, the levels, and
//! stderr sent to a file so nothing writes over the screen.

use std::fs::File;
use std::io::IsTerminal;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::cli::bad_input;

/// A full-screen UI written into a pipe or a file would be escape codes: refuse with a hint
/// of what to run instead.
pub fn require_terminal() -> anyhow::Result<()> {
    if std::io::stdout().is_terminal() && std::io::stdin().is_terminal() {
        return Ok(());
    }
    Err(bad_input(
        "`play` draws a full-screen game in a terminal, and stdin or stdout is not one. \
         Run it in a terminal; to let the robot play a simulated opponent without a UI, use \
         `checkers-robot watch`; to start only the simulated robot, \
         `checkers-robot launch launch/sim.launch.xml`",
    ))
}

/// The directory holding `launch/` and `config/`, found from the working directory as the
/// launcher finds `$(find-pkg-share checkers_robot)`.
pub fn find_share() -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    checkers_robot::launch::find_share(&cwd)
}

/// The names of the difficulty levels of `config/difficulty/*.yaml`, easiest first
/// ([`search::load_each`]); a file that does not read is left out with a warning.
pub fn levels(share: &Path) -> Vec<String> {
    let (levels, errors) = search::load_each(&share.join("config").join("difficulty"));
    for e in errors {
        tracing::warn!("a difficulty level is left out: {e}");
    }
    levels.into_iter().map(|l| l.name).collect()
}

/// While alive, this process's stderr (fd 2) goes to a file: the tracing subscriber and the
/// ROS layer's DDS threads write there, and on the UI's screen they would tear it. Dropping
/// it points stderr back at the terminal.
#[derive(Debug)]
pub struct StderrToFile {
    saved: OwnedFd,
}

impl StderrToFile {
    pub fn new(path: &Path) -> anyhow::Result<StderrToFile> {
        let file = File::create(path).with_context(|| format!("creating {}", path.display()))?;
        let saved = nix::unistd::dup(std::io::stderr()).context("saving stderr")?;
        nix::unistd::dup2_stderr(&file).context("sending stderr to the log file")?;
        Ok(StderrToFile { saved })
    }
}

impl Drop for StderrToFile {
    fn drop(&mut self) {
        let _ = nix::unistd::dup2_stderr(&self.saved);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repositorys_levels_come_easiest_first() {
        let share = Path::new(env!("CARGO_MANIFEST_DIR"));
        let levels = levels(share);
        assert!(levels.len() >= 2, "{levels:?}");
        let dir = share.join("config/difficulty");
        let rank = |l: &str| {
            search::load_level(&dir, l)
                .map(|l| l.rank)
                .unwrap_or_else(|e| panic!("{e}"))
        };
        for (a, b) in levels.iter().zip(levels.iter().skip(1)) {
            assert!(rank(a) <= rank(b), "{a} before {b}");
        }
        assert!(levels.iter().any(|l| l == "medium"));
    }

    #[test]
    fn a_missing_share_has_no_levels() {
        assert!(levels(Path::new("/nonexistent/share")).is_empty());
    }
}
