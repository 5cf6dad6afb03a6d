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

/// The difficulty levels of `config/difficulty/*.yaml`, easiest first by their `rank:`
/// (a level without one goes last, by name).
pub fn levels(share: &Path) -> Vec<String> {
    let dir = share.join("config").join("difficulty");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut levels: Vec<(u32, String)> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .filter_map(|p| {
            let name = p.file_stem()?.to_str()?.to_string();
            let rank = std::fs::read_to_string(&p)
                .ok()
                .and_then(|t| rank_of(&t))
                .unwrap_or(u32::MAX);
            Some((rank, name))
        })
        .collect();
    levels.sort();
    levels.into_iter().map(|(_, n)| n).collect()
}

/// The `rank: N` line of a difficulty file (a plain line scan: the files are flat YAML and
/// pulling in a YAML parser for one number is not worth it).
pub fn rank_of(text: &str) -> Option<u32> {
    text.lines()
        .map(str::trim)
        .find_map(|l| l.strip_prefix("rank:"))
        .and_then(|v| v.trim().parse().ok())
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
        let levels = levels(Path::new(env!("CARGO_MANIFEST_DIR")));
        assert!(levels.len() >= 2, "{levels:?}");
        for (a, b) in levels.iter().zip(levels.iter().skip(1)) {
            let rank = |l: &str| {
                let p = Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("config/difficulty")
                    .join(format!("{l}.yaml"));
                std::fs::read_to_string(p).ok().and_then(|t| rank_of(&t))
            };
            assert!(rank(a) <= rank(b), "{a} before {b}");
        }
        assert!(levels.iter().any(|l| l == "medium"));
    }

    #[test]
    fn rank_is_read_from_its_line() {
        assert_eq!(
            rank_of("planner:\n  ros__parameters:\n    rank: 3\n"),
            Some(3)
        );
        assert_eq!(rank_of("# rank: 9 in a comment\n"), None);
        assert_eq!(rank_of("rank: high"), None);
    }

    #[test]
    fn a_missing_share_has_no_levels() {
        assert!(levels(Path::new("/nonexistent/share")).is_empty());
    }
}
