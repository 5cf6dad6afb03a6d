//! `eval-train data` makes labelled positions; `eval-train fit` trains the network on them and
//! writes the planner's `evalnet.txt`. `eval-train selfplay` plays fast self-play games;
//! `eval-train patterns` fits the pattern evaluation on their results and writes the planner's
//! `patterns.bin`. `eval-train net` fits the network on the self-play positions instead, over
//! either evaluation.

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
use eval_train::net_fit::{fit as fit_net, Base, NetFitConfig};
use eval_train::patterns_fit::{fit as fit_patterns, Epoch, PatternFitConfig};
use eval_train::selfplay::{
    play_games, read_records, write_header, write_records, Record, SelfPlayConfig,
};
use search::{Evaluation, Patterns, MAX_HIDDEN};

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
        /// Hidden units (the shipped network has 64; the planner takes up to 128).
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
    /// Plays alpha-beta against itself and writes every quiet position with the game's result.
    Selfplay(SelfplayArgs),
    /// Fits the pattern evaluation on self-play positions and writes it in the planner's format.
    Patterns {
        /// Files written by `selfplay` (pooled in order; the last positions are held out).
        #[arg(long, required = true, num_args = 1..)]
        data: Vec<PathBuf>,
        #[arg(long)]
        out: PathBuf,
        /// Start from these weights instead of the linear evaluation alone.
        #[arg(long)]
        from: Option<PathBuf>,
        #[arg(long, default_value_t = 4)]
        epochs: usize,
        #[arg(long, default_value_t = 256)]
        batch: usize,
        #[arg(long, default_value_t = 2e-3)]
        learning_rate: f32,
        #[arg(long, default_value_t = 1e-6)]
        l2: f32,
        #[arg(long, default_value_t = 0.05)]
        valid: f64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Train towards `(1 - W) result + W search`: W of the self-play search's own value of
        /// each position (files of the first format have none: the result alone).
        #[arg(long, default_value_t = 0.0)]
        search_weight: f32,
    },
    /// Fits the network on self-play positions, as a correction to the linear or the pattern
    /// evaluation, and writes it in the planner's format.
    Net {
        /// Files written by `selfplay` (pooled in order; the last positions are held out).
        #[arg(long, required = true, num_args = 1..)]
        data: Vec<PathBuf>,
        #[arg(long)]
        out: PathBuf,
        /// The evaluation the network corrects.
        #[arg(long, value_enum, default_value_t = BaseArg::Patterns)]
        base: BaseArg,
        #[arg(long, default_value_t = 64)]
        hidden: usize,
        #[arg(long, default_value_t = 4)]
        epochs: usize,
        #[arg(long, default_value_t = 256)]
        batch: usize,
        #[arg(long, default_value_t = 1e-3)]
        learning_rate: f32,
        #[arg(long, default_value_t = 0.05)]
        valid: f64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Train towards `(1 - W) result + W search`.
        #[arg(long, default_value_t = 1.0)]
        search_weight: f32,
    },
}

/// The evaluation `eval-train net` fits its network over.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum BaseArg {
    /// The tuned linear evaluation: the network is then used with `net=1`.
    Linear,
    /// The pattern evaluation (`patterns.bin`, or the file `CHECKERS_ROBOT_PATTERNS` names):
    /// used with `patterns=1,net=1`.
    Patterns,
}

/// Alpha-beta's evaluation in `selfplay`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum Engine {
    /// The tuned linear evaluation alone.
    Linear,
    /// With the learned correction (`evalnet.txt`).
    Net,
    /// The pattern evaluation (`patterns.bin`, or the file `CHECKERS_ROBOT_PATTERNS` names).
    Patterns,
    /// Master's: the patterns with the network over them (`evalnet_patterns.txt`, or the file
    /// `CHECKERS_ROBOT_EVALNET` names).
    Master,
}

#[derive(clap::Args, Debug)]
struct SelfplayArgs {
    #[arg(long)]
    out: PathBuf,
    #[arg(long, default_value_t = 10_000)]
    games: usize,
    /// Alpha-beta's depth for each move.
    #[arg(long, default_value_t = 6)]
    depth: u32,
    /// The evaluation the games are played with.
    #[arg(long, value_enum, default_value_t = Engine::Net)]
    eval: Engine,
    /// Decides a game once its position has this many pieces or fewer (0: never).
    #[arg(long, default_value_t = 5)]
    endgame: u32,
    /// Chance of a random move in each of the first 20 plies after the opening.
    #[arg(long, default_value_t = 0.1)]
    explore: f32,
    #[arg(long, default_value_t = 2)]
    threads: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
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
    generate(&cfg, &search::built_in_openings(), |samples| {
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

fn selfplay(a: SelfplayArgs) -> Result<()> {
    let mut cfg = SelfPlayConfig::new(a.depth, a.seed);
    cfg.threads = a.threads.max(1);
    cfg.explore = a.explore.clamp(0.0, 1.0);
    cfg.engine = match a.eval {
        Engine::Linear => Evaluation::Linear,
        Engine::Net => Evaluation::Net,
        Engine::Patterns => Evaluation::Patterns,
        Engine::Master => Evaluation::Master,
    }
    .engine()?;
    if a.endgame > 0 {
        cfg.endgame = Some(search::shared_endgame(a.endgame, cfg.threads));
    }
    let file = File::create(&a.out).with_context(|| format!("creating {}", a.out.display()))?;
    let mut file = BufWriter::new(file);
    write_header(&mut file).with_context(|| format!("writing {}", a.out.display()))?;
    let writer = Mutex::new((file, 0usize, None::<std::io::Error>));
    let pb = bar(a.games as u64, "games");
    let started = Instant::now();
    play_games(&cfg, a.games, |records| {
        if let Ok(mut w) = writer.lock() {
            let (file, count, error) = &mut *w;
            if error.is_none() {
                if let Err(e) = write_records(file, &records) {
                    *error = Some(e);
                }
            }
            *count += records.len();
            pb.set_message(format!("{count} positions"));
        }
        pb.inc(1);
    });
    pb.finish();
    let (mut file, count, error) = writer
        .into_inner()
        .map_err(|_| anyhow::anyhow!("a writer thread panicked"))?;
    if let Some(e) = error {
        return Err(e).with_context(|| format!("writing {}", a.out.display()));
    }
    file.flush()
        .with_context(|| format!("writing {}", a.out.display()))?;
    println!(
        "{count} positions from {} games in {:.0} s -> {}",
        a.games,
        started.elapsed().as_secs_f64(),
        a.out.display()
    );
    Ok(())
}

/// Self-play records of `files`, pooled in order, and where the held-out share `valid`
/// begins; `search_weight` is checked here too, as both fits blend their targets with it.
fn read_split(files: &[PathBuf], valid: f64, search_weight: f32) -> Result<(Vec<Record>, usize)> {
    if !(0.0..1.0).contains(&valid) {
        bail!("--valid must be at least 0 and below 1, not {valid}");
    }
    if !(0.0..=1.0).contains(&search_weight) {
        bail!("--search-weight must be from 0 to 1, not {search_weight}");
    }
    let mut records = Vec::new();
    for f in files {
        records.extend(read_records(f)?);
    }
    let split = records.len() - (records.len() as f64 * valid) as usize;
    println!(
        "{} training and {} validation positions",
        split,
        records.len() - split
    );
    Ok((records, split))
}

fn print_epoch(e: &Epoch) {
    println!(
        "epoch {:3}: training loss {:.5}, validation loss {:.5}",
        e.epoch, e.train_loss, e.valid_loss
    );
}

fn patterns_command(
    files: &[PathBuf],
    out: PathBuf,
    from: Option<PathBuf>,
    cfg: PatternFitConfig,
    valid: f64,
) -> Result<()> {
    let (records, split) = read_split(files, valid, cfg.search_weight)?;
    let start = match from {
        Some(path) => search::load_patterns(&path)?,
        None => Patterns::from_linear(),
    };
    let (train, held) = records.split_at(split);
    let pb = bar((train.len() * cfg.epochs) as u64, "positions");
    let fitted = fit_patterns(
        start,
        train,
        held,
        &cfg,
        |n| pb.inc(n as u64),
        |e| pb.suspend(|| print_epoch(&e)),
    );
    pb.finish_and_clear();
    std::fs::write(&out, fitted.patterns.to_bytes())
        .with_context(|| format!("writing {}", out.display()))?;
    println!(
        "pattern evaluation (validation loss {:.5}, {:.5} at the start) -> {}",
        fitted.best_loss,
        fitted.start_loss,
        out.display()
    );
    Ok(())
}

fn net_command(
    files: &[PathBuf],
    out: PathBuf,
    base: BaseArg,
    cfg: NetFitConfig,
    valid: f64,
) -> Result<()> {
    if !(1..=MAX_HIDDEN).contains(&cfg.hidden) {
        bail!("--hidden must be 1 to {MAX_HIDDEN}, not {}", cfg.hidden);
    }
    let base = match base {
        BaseArg::Linear => Base::Linear,
        BaseArg::Patterns => Base::Patterns((*search::built_in_patterns()?).clone()),
    };
    let (records, split) = read_split(files, valid, cfg.search_weight)?;
    let (train, held) = records.split_at(split);
    let started = Instant::now();
    let pb = bar((train.len() * cfg.epochs) as u64, "positions");
    let fitted = fit_net(
        &base,
        train,
        held,
        &cfg,
        |n| pb.inc(n as u64),
        |e| pb.suspend(|| print_epoch(&e)),
    )?;
    pb.finish_and_clear();
    // Written to run in fixed point, as it was measured (`docs/planners.md`).
    let net = fitted.net.with_fixed_point();
    std::fs::write(&out, net.to_text()).with_context(|| format!("writing {}", out.display()))?;
    println!(
        "network ({} hidden units, base scale {:.3}; validation loss {:.5}, the base alone {:.5}) in {:.0} s -> {}",
        net.hidden(),
        fitted.scale,
        fitted.best_loss,
        fitted.base_loss,
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
                    Some(search::built_in_net()?)
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
        Command::Selfplay(a) => selfplay(a),
        Command::Net {
            data,
            out,
            base,
            hidden,
            epochs,
            batch,
            learning_rate,
            valid,
            seed,
            search_weight,
        } => net_command(
            &data,
            out,
            base,
            NetFitConfig {
                hidden,
                epochs,
                batch,
                learning_rate,
                seed,
                search_weight,
            },
            valid,
        ),
        Command::Patterns {
            data,
            out,
            from,
            epochs,
            batch,
            learning_rate,
            l2,
            valid,
            seed,
            search_weight,
        } => patterns_command(
            &data,
            out,
            from,
            PatternFitConfig {
                epochs,
                batch,
                learning_rate,
                l2,
                seed,
                search_weight,
            },
            valid,
        ),
    }
}
