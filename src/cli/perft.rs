use std::process::ExitCode;
use std::time::Instant;

use draughts::{perft, Move, START_FEN};
use indicatif::{ProgressBar, ProgressStyle};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position (PDN FEN).
    #[arg(long, default_value = START_FEN)]
    fen: String,
    /// Plies to search.
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(0..=20))]
    depth: u32,
    /// Also print the leaves below each legal move.
    #[arg(long)]
    divide: bool,
}

/// Prints `MOVE: LEAVES` per root move with `--divide`, then `leaves: N`, `time_s: T` and
/// `leaves_per_s: R`.
pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let pos = super::parse_position(&args.fen)?;
    let started = Instant::now();
    let total = if args.depth == 0 {
        1
    } else {
        let moves = pos.legal_moves();
        let bar = ProgressBar::new(moves.len() as u64).with_style(
            ProgressStyle::with_template("{spinner} perft {msg} [{bar:30}] {pos}/{len} moves")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_message(format!("depth {}", args.depth));
        if args.depth < 9 {
            bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
        }
        let mut lines: Vec<(String, u64)> = Vec::new();
        let mut total = 0;
        for m in moves.iter() {
            let n = perft(&pos.after(m), args.depth - 1);
            total += n;
            lines.push((Move::text(m), n));
            bar.inc(1);
        }
        bar.finish_and_clear();
        if args.divide {
            lines.sort();
            for (text, n) in &lines {
                println!("{text}: {n}");
            }
        }
        total
    };
    let secs = started.elapsed().as_secs_f64();
    println!("leaves: {total}");
    println!("time_s: {secs:.3}");
    println!("leaves_per_s: {:.0}", total as f64 / secs.max(1e-9));
    Ok(ExitCode::SUCCESS)
}
