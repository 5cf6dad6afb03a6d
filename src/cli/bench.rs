use std::process::ExitCode;
use std::time::Instant;

use draughts::perft;
use draughts::Counters;
use draughts::Position;
use draughts::{random_playout, Rng};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Random games to play out from the start position.
    #[arg(long, default_value_t = 200_000)]
    playouts: u32,
    /// Perft depth from the start position.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=13))]
    perft_depth: u32,
    /// Seed of the random playouts.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// One thread. Prints `key: value` lines.
pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let start = Position::start();
    let mut rng = Rng::new(args.seed);
    let counters = Counters::new(&start);
    let t = Instant::now();
    let mut plies = 0u64;
    for _ in 0..args.playouts {
        plies += u64::from(random_playout(&start, counters, &mut rng, 1000).plies);
    }
    let secs = t.elapsed().as_secs_f64().max(1e-9);
    let n = f64::from(args.playouts.max(1));
    println!("playouts: {}", args.playouts);
    println!("playout_plies_mean: {:.1}", plies as f64 / n);
    println!("playouts_per_s: {:.0}", n / secs);
    println!("playout_us: {:.3}", secs * 1e6 / n);

    let t = Instant::now();
    let leaves = perft(&start, args.perft_depth);
    let secs = t.elapsed().as_secs_f64().max(1e-9);
    println!("perft_depth: {}", args.perft_depth);
    println!("perft_leaves: {leaves}");
    println!("perft_time_s: {secs:.3}");
    println!("perft_leaves_per_s: {:.0}", leaves as f64 / secs);
    Ok(ExitCode::SUCCESS)
}
