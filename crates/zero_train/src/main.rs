//! `zero-train run`: trains network generations by self-play into `models/`.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use zero::Shape;
use zero_train::run::{run, RunConfig};
use zero_train::train::TrainConfig;

#[derive(Parser)]
#[command(about = "Trains the AlphaZero planner's network generations by self-play")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Trains until GENERATIONS generations exist in OUT, resuming from the last one there.
    Run(RunArgs),
}

#[derive(clap::Args)]
struct RunArgs {
    #[arg(long, default_value = "models")]
    out: PathBuf,
    /// Generations to reach (generation 0 is the random network).
    #[arg(long, default_value_t = 8)]
    generations: u32,
    #[arg(long, default_value_t = 4)]
    blocks: usize,
    #[arg(long, default_value_t = 32)]
    filters: usize,
    /// Self-play games per round.
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Root visits per self-play move.
    #[arg(long, default_value_t = 100)]
    sims: u32,
    /// Share of self-play moves searched in full (the rest with a quarter of the visits and not
    /// trained on): playout-cap randomisation. 1 turns it off.
    #[arg(long, default_value_t = 1.0)]
    full_share: f32,
    /// Games played at once (their leaves are evaluated in one batch).
    #[arg(long, default_value_t = 64)]
    parallel: usize,
    /// Self-play rounds kept in the replay window.
    #[arg(long, default_value_t = 4)]
    window: usize,
    #[arg(long, default_value_t = 300)]
    train_steps: usize,
    #[arg(long, default_value_t = 256)]
    batch: usize,
    #[arg(long, default_value_t = 2e-3)]
    learning_rate: f64,
    #[arg(long, default_value_t = 1e-4)]
    weight_decay: f32,
    /// Games of each gating match (the paper's 1.3 wins per loss, and a score of 0.55).
    #[arg(long, default_value_t = 100)]
    gate_games: usize,
    #[arg(long, default_value_t = 100)]
    gate_sims: u32,
    /// Rounds without a new generation before the run stops.
    #[arg(long, default_value_t = 6)]
    attempts: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// No progress bars.
    #[arg(long)]
    quiet: bool,
}

fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    let Cli {
        command: Command::Run(a),
    } = Cli::parse();
    if a.blocks == 0 || a.filters == 0 || a.games == 0 || a.sims == 0 || a.gate_games == 0 {
        anyhow::bail!("blocks, filters, games, sims and gate-games must be at least 1");
    }
    run(&RunConfig {
        out: a.out,
        generations: a.generations,
        shape: Shape {
            blocks: a.blocks,
            filters: a.filters,
        },
        games: a.games,
        sims: a.sims,
        full_share: a.full_share.clamp(0.05, 1.0),
        parallel: a.parallel.max(1),
        window: a.window.max(1),
        train: TrainConfig {
            steps: a.train_steps,
            batch: a.batch.max(1),
            learning_rate: a.learning_rate,
            weight_decay: a.weight_decay,
        },
        gate_games: a.gate_games,
        gate_sims: a.gate_sims.max(1),
        attempts: a.attempts.max(1),
        seed: a.seed,
        quiet: a.quiet,
    })
}
