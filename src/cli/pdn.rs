use std::path::PathBuf;
use std::process::ExitCode;

use draughts::parse_pdn;

use super::{bad_input, BadInput};

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Replays every game of a PDN file through the rules and names the first illegal move.
    Check {
        /// The PDN file.
        file: PathBuf,
    },
}

/// Prints one line per game: `game N (line L): ok, P plies, result R, rules say S, final FEN`
/// or the illegal move.
/// Exits 2 if any game has an illegal move or the file cannot be read.
pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    let Command::Check { file } = command;
    let text = std::fs::read_to_string(&file)
        .map_err(|e| bad_input(format!("cannot read {}: {e}", file.display())))?;
    let games = parse_pdn(&text).map_err(|e| bad_input(format!("{}: {e}", file.display())))?;
    let mut first_bad = None;
    for (i, g) in games.iter().enumerate() {
        let n = i + 1;
        match g.replay() {
            Ok(game) => {
                let tag = g.result.as_deref().unwrap_or("*");
                println!(
                    "game {n} (line {}): ok, {} plies, result {tag}, rules say {}, final {}",
                    g.line,
                    game.ply_count(),
                    game.result(),
                    draughts::to_fen(game.position())
                );
            }
            Err(e) => {
                println!("game {n} (line {}): {e}", g.line);
                first_bad.get_or_insert(format!("game {n}: {e}"));
            }
        }
    }
    if games.is_empty() {
        return Err(BadInput(format!("{}: no games found", file.display())).into());
    }
    match first_bad {
        Some(why) => Err(BadInput(format!("{}: {why}", file.display())).into()),
        None => Ok(ExitCode::SUCCESS),
    }
}
