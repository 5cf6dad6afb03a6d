//! `zero-train run`: trains network generations by self-play into `models/`.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use search::Evaluation;
use zero::Shape;
use zero_train::run::{refresh_cards, run, warm_start, RunConfig, WarmRun};
use zero_train::train::TrainConfig;
use zero_train::warm::WarmConfig;

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
    /// Trains the last generation in OUT on positions from alpha-beta's games (each labelled
    /// with alpha-beta's move and value) and gates it; the positions also join the replay
    /// window of the self-play rounds that follow.
    Warm(WarmArgs),
    /// Recomputes the cards' fingerprints in OUT and prints one line per generation.
    Cards {
        #[arg(long, default_value = "models")]
        out: PathBuf,
    },
}

#[derive(clap::Args)]
struct WarmArgs {
    #[arg(long, default_value = "models")]
    out: PathBuf,
    /// Shape of generation 0, if OUT has none yet.
    #[arg(long, default_value_t = 4)]
    blocks: usize,
    #[arg(long, default_value_t = 32)]
    filters: usize,
    /// Alpha-beta games to label.
    #[arg(long, default_value_t = 400)]
    games: usize,
    /// Alpha-beta's search depth per move.
    #[arg(long, default_value_t = 8)]
    depth: u32,
    /// Weight of the game's result in the value target (the rest is alpha-beta's value).
    #[arg(long, default_value_t = 0.5)]
    result_weight: f32,
    /// Alpha-beta's evaluation: the linear one, or the pattern evaluation master uses.
    #[arg(long, value_enum, default_value_t = EvalArg::Patterns)]
    eval: EvalArg,
    /// Endgame database (pieces, 0 for none) alpha-beta labels and plays its endings with.
    #[arg(long, default_value_t = 5)]
    endgame: u32,
    /// Games labelled and saved together (a stopped labelling resumes at the first chunk not
    /// saved).
    #[arg(long, default_value_t = 100)]
    chunk: usize,
    /// Lower the learning rate along a cosine to a tenth of it by the last step.
    #[arg(long)]
    cosine: bool,
    /// Grow the last generation to a larger network first (BLOCKSxFILTERS, say 6x40), with
    /// the same outputs, and train that.
    #[arg(long, value_parser = parse_shape)]
    grow: Option<Shape>,
    #[command(flatten)]
    common: Common,
}

/// Why `--grow` was refused.
#[derive(Debug, thiserror::Error)]
enum ShapeArgError {
    #[error("expected BLOCKSxFILTERS (6x40, say), not {0:?}")]
    Form(String),
    #[error("blocks and filters must be at least 1")]
    Empty,
}

fn parse_shape(s: &str) -> Result<Shape, ShapeArgError> {
    let bad = || ShapeArgError::Form(s.to_string());
    let (b, f) = s.split_once('x').ok_or_else(bad)?;
    let (blocks, filters) = (
        b.trim().parse().map_err(|_| bad())?,
        f.trim().parse().map_err(|_| bad())?,
    );
    if blocks == 0 || filters == 0 {
        return Err(ShapeArgError::Empty);
    }
    Ok(Shape { blocks, filters })
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum EvalArg {
    Linear,
    Patterns,
}

/// Training and gating options shared by `run` and `warm`.
#[derive(clap::Args)]
struct Common {
    /// Rounds kept in the replay window (kept on disk under OUT/replay).
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
    /// Games of each gating match.
    #[arg(long, default_value_t = 100)]
    gate_games: usize,
    #[arg(long, default_value_t = 100)]
    gate_sims: u32,
    /// Score a candidate needs in its gating match (besides the paper's 1.3 wins per loss).
    #[arg(long, default_value_t = 0.55)]
    accept: f64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// No progress bars.
    #[arg(long)]
    quiet: bool,
}

impl Common {
    fn train(&self) -> TrainConfig {
        TrainConfig {
            steps: self.train_steps,
            batch: self.batch.max(1),
            learning_rate: self.learning_rate,
            weight_decay: self.weight_decay,
            cosine: false,
        }
    }
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
    /// Self-play games per round; 0 plays none and trains on the replay rounds on disk (a warm
    /// round and an earlier self-play round copied there, say).
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Root visits per self-play move.
    #[arg(long, default_value_t = 100)]
    sims: u32,
    /// Share of self-play moves searched in full (the rest with a quarter of the visits and not
    /// trained on): playout-cap randomisation. 1 turns it off.
    #[arg(long, default_value_t = 1.0)]
    full_share: f32,
    /// Gumbel root selection in self-play (sequential halving with Gumbel noise in place of
    /// Dirichlet noise and the temperature), trained on the improved policy: for few visits.
    #[arg(long)]
    gumbel: bool,
    /// Weight of the search's root value in the value targets, the rest being the game's
    /// result (0: the result alone, as in the paper; 0.5 was measured worse, docs/zero.md).
    #[arg(long, default_value_t = 0.0)]
    q_blend: f32,
    /// Games played at once (their leaves are evaluated in one batch).
    #[arg(long, default_value_t = 64)]
    parallel: usize,
    /// Rounds without a new generation before the run stops.
    #[arg(long, default_value_t = 6)]
    attempts: u32,
    /// Train from this network (a rejected warm-start candidate, say) instead of the last
    /// generation; self-play and gating still use the last generation.
    #[arg(long)]
    from: Option<PathBuf>,
    #[command(flatten)]
    common: Common,
}

fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    match Cli::parse().command {
        Command::Run(a) => run_command(a),
        Command::Warm(a) => warm_command(a),
        Command::Cards { out } => {
            for c in refresh_cards(&out)? {
                println!(
                    "generation {}: {} | {} games, {} samples, {} steps | gate {}-{}-{} score {:.3} | Elo {:.0}",
                    c.generation,
                    &c.source,
                    c.games,
                    c.samples,
                    c.train_steps,
                    c.gate_wins,
                    c.gate_draws,
                    c.gate_losses,
                    c.gate_score,
                    c.elo
                );
            }
            Ok(())
        }
    }
}

fn shape(blocks: usize, filters: usize) -> anyhow::Result<Shape> {
    if blocks == 0 || filters == 0 {
        anyhow::bail!("blocks and filters must be at least 1");
    }
    Ok(Shape { blocks, filters })
}

fn run_command(a: RunArgs) -> anyhow::Result<()> {
    if a.sims == 0 || a.common.gate_games == 0 {
        anyhow::bail!("sims and gate-games must be at least 1");
    }
    if !(0.0..=1.0).contains(&a.q_blend) {
        anyhow::bail!("--q-blend must be between 0 and 1, not {}", a.q_blend);
    }
    let c = &a.common;
    run(&RunConfig {
        out: a.out.clone(),
        generations: a.generations,
        shape: shape(a.blocks, a.filters)?,
        games: a.games,
        sims: a.sims,
        full_share: a.full_share.clamp(0.05, 1.0),
        gumbel: a.gumbel,
        q_blend: a.q_blend,
        parallel: a.parallel.max(1),
        window: c.window.max(1),
        train: c.train(),
        gate_games: c.gate_games,
        gate_sims: c.gate_sims.max(1),
        accept: c.accept,
        attempts: a.attempts.max(1),
        from: a.from.clone(),
        seed: c.seed,
        quiet: c.quiet,
    })
}

fn warm_command(a: WarmArgs) -> anyhow::Result<()> {
    if a.games == 0 || a.depth == 0 || a.common.gate_games == 0 {
        anyhow::bail!("games, depth and gate-games must be at least 1");
    }
    let c = &a.common;
    let mut warm = WarmConfig::new(a.games, a.depth, c.seed).with_eval(match a.eval {
        EvalArg::Linear => Evaluation::Linear,
        EvalArg::Patterns => Evaluation::Patterns,
    })?;
    warm.result_weight = a.result_weight.clamp(0.0, 1.0);
    warm.chunk = a.chunk.max(1);
    if a.endgame > 0 {
        warm.play.endgame = Some(search::shared_endgame(a.endgame, warm.play.threads));
    }
    let gen = warm_start(&WarmRun {
        out: a.out.clone(),
        shape: shape(a.blocks, a.filters)?,
        warm,
        train: TrainConfig {
            cosine: a.cosine,
            ..c.train()
        },
        window: c.window.max(1),
        gate_games: c.gate_games,
        gate_sims: c.gate_sims.max(1),
        accept: c.accept,
        grow: a.grow,
        quiet: c.quiet,
    })?;
    tracing::info!("generation {gen} saved");
    Ok(())
}
