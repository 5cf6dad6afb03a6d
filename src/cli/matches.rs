//! What `arena`, its gauntlet and its ladder share on the command line: the progress bar of a
//! tournament's games and saving a match's games as PDN files. The tournaments themselves are
//! `search`'s (`play_matches`, `Gauntlet`, `round_robin`).

use std::path::Path;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use search::{Match, Opening};

/// A progress bar over `games` games, on stderr.
pub fn progress(games: usize) -> ProgressBar {
    ProgressBar::new(games as u64).with_style(
        ProgressStyle::with_template(
            "{spinner} arena [{bar:30}] {pos}/{len} games {elapsed} {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    )
}

/// Writes each game of `m` into `dir` (created if missing) as `game-NNNN.pdn`.
pub fn save_pdn(dir: &Path, m: &Match, openings: &[Opening]) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for (name, text) in m.pdn("checkers-robot arena", openings) {
        let path = dir.join(name);
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}
