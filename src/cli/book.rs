//! `checkers-robot book`: builds the opening book from this project's own search.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use search::{build_book, built_in_openings, Book, BuildOptions};

use super::best::resolve_spec;
use super::{bad_input, BadInput};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The book file to write.
    #[arg(long, default_value = "crates/search/src/book.txt")]
    out: PathBuf,
    /// The searcher that scores every move (its limits are replaced by `--depth`).
    #[arg(long, default_value = "alphabeta:net=1")]
    engine: String,
    /// Search depth of every move, the move itself included.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=40))]
    depth: u32,
    /// Positions more than this many plies from the start (or from an arena opening) are not
    /// scored.
    #[arg(long, default_value_t = 10)]
    plies: usize,
    /// Moves that lose more than this win probability against the best are left out.
    #[arg(long, default_value_t = 0.03)]
    margin: f64,
    /// At most this many moves a position.
    #[arg(long, default_value_t = 3)]
    max_moves: usize,
    /// The book stops growing at this many positions.
    #[arg(long, default_value_t = 4000)]
    positions: usize,
    /// Search threads (one position each).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Where `level:NAME` engines are.
    #[arg(long, default_value = "config/difficulty")]
    levels: PathBuf,
}

/// Prints `positions`, `moves` and `file` lines.
pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    if !(0.0..=1.0).contains(&args.margin) {
        return Err(BadInput("--margin is a win probability, 0 to 1".into()).into());
    }
    let engine = resolve_spec(&args.engine, &args.levels)?;
    if engine.book() {
        return Err(bad_input(
            "the engine that builds the book cannot play from one",
        ));
    }
    let mut roots = vec![draughts::Game::new()];
    roots.extend(built_in_openings().iter().map(|o| o.game()));
    let options = BuildOptions {
        engine,
        depth: args.depth,
        plies: args.plies,
        margin: args.margin,
        max_moves: args.max_moves,
        max_positions: args.positions,
        threads: args.threads,
    };
    let bar = ProgressBar::new(args.positions as u64).with_style(
        ProgressStyle::with_template("{spinner} book [{bar:30}] {pos}/{len} positions {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let entries = build_book(&roots, &options, |done, queued| {
        bar.set_length(queued as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    let header = format!(
        "# Opening book: {} positions, made by `checkers-robot book --engine {} --depth {} --plies {} --margin {} --max-moves {} --positions {}`\n",
        entries.len(),
        engine,
        args.depth,
        args.plies,
        args.margin,
        args.max_moves,
        args.positions
    );
    let text = header + &Book::write(&entries);
    std::fs::write(&args.out, text)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    println!("positions: {}", entries.len());
    println!(
        "moves: {}",
        entries.iter().map(|e| e.moves.len()).sum::<usize>()
    );
    println!("file: {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}
