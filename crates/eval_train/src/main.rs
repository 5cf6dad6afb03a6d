//! `eval-train data` makes labelled positions; `eval-train fit` trains the network on them and
//! writes the planner's `evalnet.txt`.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use eval_train::data::{generate, read_samples, write_samples, DataConfig};
use eval_train::model::{fit, linear_baseline, Encoded, FitConfig};
use search::alphabeta::net::MAX_HIDDEN;

#[derive(Parser, Debug)]
#[command(
    name = "eval-train",
    about = "Trains alpha-beta's learned evaluation correction"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Plays alpha-beta against MCTS and writes every quiet position with MCTS's value of it.
    Data(DataArgs),
    /// Trains the network and writes it in the planner's format.
    Fit {
        /// Sample files written by `data` (their lines are pooled in order).
        #[arg(long, required = true, num_args = 1..)]
        data: Vec<PathBuf>,
        #[arg(long)]
        out: PathBuf,
        /// Hidden units (the shipped network has 64, the most the planner takes).
        #[arg(long, default_value_t = 64)]
        hidden: usize,
        #[arg(long, default_value_t = 30)]
        epochs: usize,
        #[arg(long, default_value_t = 256)]
        batch: usize,
        #[arg(long, default_value_t = 2e-3)]
        learning_rate: f64,
        /// Weight of MCTS's value in the target; the game's result gets the rest.
        #[arg(long, default_value_t = 1.0)]
        mcts_weight: f32,
        /// Share of the samples (the last ones) held out to validate.
        #[arg(long, default_value_t = 0.1)]
        valid: f64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

#[derive(clap::Args, Debug)]
struct DataArgs {
    #[arg(long)]
    out: PathBuf,
    #[arg(long, default_value_t = 800)]
    games: usize,
    /// Alpha-beta's depth in the games.
    #[arg(long, default_value_t = 6)]
    depth: u32,
    /// MCTS's simulations per move in the games.
    #[arg(long, default_value_t = 1000)]
    play_sims: u64,
    /// Simulations of the search that labels each position.
    #[arg(long, default_value_t = 10_000)]
    label_sims: u64,
    #[arg(long, default_value_t = 2)]
    threads: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Alpha-beta plays with the planner's built-in network.
    #[arg(long)]
    net: bool,
}

fn bar(len: u64, what: &str) -> ProgressBar {
    let pb = ProgressBar::new(len);
    pb.set_style(
        ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {what} {{msg}}"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    pb
}

fn data(cfg: DataConfig, out: PathBuf) -> Result<()> {
    let file = File::create(&out).with_context(|| format!("creating {}", out.display()))?;
    let writer = Mutex::new((BufWriter::new(file), 0usize, None::<std::io::Error>));
    let pb = bar(cfg.games as u64, "games");
    let started = Instant::now();
    generate(&cfg, &search::openings::built_in(), |samples| {
        if let Ok(mut w) = writer.lock() {
            let (file, count, error) = &mut *w;
            if error.is_none() {
                if let Err(e) = write_samples(file, &samples).and_then(|()| file.flush()) {
                    *error = Some(e);
                }
            }
            *count += samples.len();
            pb.set_message(format!("{count} positions"));
        }
        pb.inc(1);
    });
    pb.finish();
    let (_, count, error) = writer
        .into_inner()
        .map_err(|_| anyhow::anyhow!("a writer thread panicked"))?;
    if let Some(e) = error {
        return Err(e).with_context(|| format!("writing {}", out.display()));
    }
    println!(
        "{count} positions from {} games in {:.0} s -> {}",
        cfg.games,
        started.elapsed().as_secs_f64(),
        out.display()
    );
    Ok(())
}

fn fit_command(
    files: &[PathBuf],
    out: PathBuf,
    cfg: FitConfig,
    mcts_weight: f32,
    valid: f64,
) -> Result<()> {
    if !(0.0..=1.0).contains(&mcts_weight) {
        bail!("--mcts-weight must be from 0 to 1, not {mcts_weight}");
    }
    if !(1..=MAX_HIDDEN).contains(&cfg.hidden) {
        bail!("--hidden must be 1 to {MAX_HIDDEN}, not {}", cfg.hidden);
    }
    if !(0.0..1.0).contains(&valid) {
        bail!("--valid must be at least 0 and below 1, not {valid}");
    }
    let mut samples = Vec::new();
    for f in files {
        let file = File::open(f).with_context(|| format!("opening {}", f.display()))?;
        samples.extend(
            read_samples(BufReader::new(file))
                .with_context(|| format!("reading {}", f.display()))?,
        );
    }
    let split = samples.len() - (samples.len() as f64 * valid) as usize;
    let train = Encoded::new(&samples[..split], mcts_weight);
    let held = Encoded::new(&samples[split..], mcts_weight);
    println!(
        "{} training and {} validation positions; the linear evaluation alone: validation loss {:.5}",
        train.len(),
        held.len(),
        linear_baseline(&train, &held)
    );
    let pb = bar(cfg.epochs as u64, "epochs");
    let model = fit(&train, &held, &cfg, |e| {
        // Printed, not `pb.println`, which says nothing when the bar is hidden (no terminal).
        pb.suspend(|| {
            println!(
                "epoch {:3}: training loss {:.5}, validation loss {:.5}",
                e.epoch, e.train_loss, e.valid_loss
            );
        });
        pb.inc(1);
    })?;
    pb.finish_and_clear();
    let net = model.export()?;
    std::fs::write(&out, net.to_text()).with_context(|| format!("writing {}", out.display()))?;
    println!(
        "network ({} hidden units) -> {}",
        net.hidden(),
        out.display()
    );
    Ok(())
}

fn main() -> Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    match Cli::parse().command {
        Command::Data(a) => data(
            DataConfig {
                games: a.games,
                depth: a.depth,
                play_sims: a.play_sims,
                label_sims: a.label_sims,
                threads: a.threads,
                seed: a.seed,
                net: if a.net {
                    Some(search::alphabeta::net::built_in()?)
                } else {
                    None
                },
            },
            a.out,
        ),
        Command::Fit {
            data,
            out,
            hidden,
            epochs,
            batch,
            learning_rate,
            mcts_weight,
            valid,
            seed,
        } => fit_command(
            &data,
            out,
            FitConfig {
                hidden,
                epochs,
                batch,
                learning_rate,
                seed,
            },
            mcts_weight,
            valid,
        ),
    }
}
