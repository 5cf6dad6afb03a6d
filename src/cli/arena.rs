use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use anyhow::Context;
use draughts::write_pdn;
use indicatif::{ProgressBar, ProgressStyle};
use search::arena::{play_pairing, schedule, Played, DEFAULT_MAX_PLIES};
use search::elo::Tally;
use search::openings::{built_in, parse_openings, Opening};
use search::PlannerSpec;

use super::best::resolve_spec;
use super::{bad_input, BadInput};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Planner A (`alphabeta:time=1s`, or `level:NAME`).
    #[arg(long, required_unless_present_any = ["ladder", "gauntlet"])]
    a: Option<String>,
    /// Planner B.
    #[arg(long, required_unless_present_any = ["ladder", "gauntlet"])]
    b: Option<String>,
    /// Games to play (per pair of levels with `--ladder`). Each opening is played twice, colours
    /// swapped, so an even number is fairest.
    #[arg(long)]
    games: Option<usize>,
    /// Openings file: one per line, moves from the start or `FEN ; moves`. Default: the
    /// built-in balanced 3-ply set.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Leaves out the first N openings, so that a match can be continued on new ones: a
    /// 40-game match used openings 1-20, and `--skip-openings 20` goes on from the 21st.
    #[arg(long, default_value_t = 0)]
    skip_openings: usize,
    /// Directory to save every game into as PDN.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Games played at once.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=64))]
    threads: u32,
    /// Plies after which a game is adjudicated a draw.
    #[arg(long, default_value_t = DEFAULT_MAX_PLIES)]
    max_plies: usize,
    /// Rates every difficulty level against every other and draws the ladder.
    #[arg(long, conflicts_with_all = ["a", "b"])]
    ladder: bool,
    /// Plays the candidate (`--a`, master by default) against the fixed opponents of
    /// `--gauntlet-file` at each of its time controls, and writes the table (`--table`).
    #[arg(long, conflicts_with_all = ["b", "ladder"])]
    gauntlet: bool,
    /// The gauntlet's opponents and time controls.
    #[arg(long, default_value = "config/gauntlet.yaml")]
    gauntlet_file: PathBuf,
    /// With `--gauntlet`: only these time controls (`100ms,1s`).
    #[arg(long, value_delimiter = ',', value_parser = super::parse_duration_arg)]
    time_controls: Option<Vec<std::time::Duration>>,
    /// With `--gauntlet`: the results table to write.
    #[arg(long, default_value_os_t = super::gauntlet::default_table())]
    table: PathBuf,
    /// Where the difficulty levels are.
    #[arg(long, default_value = "config/difficulty")]
    levels: PathBuf,
    /// The ladder picture (SVG). Default: `ladder.svg` in `--out`, or here.
    #[arg(long)]
    plot: Option<PathBuf>,
    /// With `--ladder`: each level plays only the levels at most SPAN places above or below it
    /// in rank order (the ratings stay connected through the chain). Default: every level.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    span: Option<u32>,
    /// How long the opponent of a `ponder=1` planner thinks on each move (`5s`, `500ms`):
    /// the pondering planner searches meanwhile, as the robot does while the human thinks.
    #[arg(long, value_parser = super::parse_duration_arg)]
    think: Option<std::time::Duration>,
}

/// A game to play: which pair of planners and which pairing of their match.
struct Job {
    pair: usize,
    pairing: search::arena::Pairing,
}

/// Plays `jobs` on `threads` threads with a progress bar; results in job order.
fn play_all(
    pairs: &[(PlannerSpec, PlannerSpec)],
    jobs: &[Job],
    openings: &[Opening],
    threads: usize,
    max_plies: usize,
    think: Option<std::time::Duration>,
) -> Vec<Played> {
    let bar = ProgressBar::new(jobs.len() as u64).with_style(
        ProgressStyle::with_template(
            "{spinner} arena [{bar:30}] {pos}/{len} games {elapsed} {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Played>>> = Mutex::new(vec![None; jobs.len()]);
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = jobs.get(i) else { break };
                let (a, b) = &pairs[job.pair];
                let played = play_pairing(a, b, openings, job.pairing, max_plies, think);
                if let Ok(mut r) = results.lock() {
                    r[i] = Some(played);
                }
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect()
}

fn save_pdn(
    dir: &Path,
    a: &PlannerSpec,
    b: &PlannerSpec,
    openings: &[Opening],
    games: &[Played],
) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for p in games {
        let (white, black) = if p.pairing.a_white {
            (a.to_string(), b.to_string())
        } else {
            (b.to_string(), a.to_string())
        };
        let round = (p.pairing.index + 1).to_string();
        let opening = openings
            .get(p.pairing.opening)
            .map(|o| o.name.clone())
            .unwrap_or_default();
        let text = write_pdn(
            &p.game,
            &[
                ("Event", "checkers-robot arena"),
                ("Round", &round),
                ("White", &white),
                ("Black", &black),
                ("Opening", &opening),
            ],
        );
        let path = dir.join(format!("game-{:04}.pdn", p.pairing.index + 1));
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

pub fn tally(games: &[Played]) -> Tally {
    let mut t = Tally::default();
    for g in games {
        t.add(g.points_a);
    }
    t
}

fn load_openings(path: Option<&Path>) -> anyhow::Result<Vec<Opening>> {
    match path {
        None => Ok(built_in()),
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| bad_input(format!("cannot read {}: {e}", p.display())))?;
            parse_openings(&text).map_err(|e| bad_input(format!("{}: {e}", p.display())))
        }
    }
}

/// Prints `key: value` lines: a, b, games, wins, draws, losses (A's), score, elo, elo_95 (low
/// high), adjudicated. With `--ladder`, see [`super::ladder`].
pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let mut openings = load_openings(args.openings.as_deref())?;
    if args.skip_openings >= openings.len() {
        return Err(BadInput(format!(
            "--skip-openings {} leaves none of the {} openings",
            args.skip_openings,
            openings.len()
        ))
        .into());
    }
    openings.drain(..args.skip_openings);
    if args.games == Some(0) {
        return Err(BadInput("--games must be at least 1".into()).into());
    }
    if args.ladder {
        return super::ladder::run(args_ladder(args), &openings);
    }
    if args.gauntlet {
        let candidate = resolve_spec(args.a.as_deref().unwrap_or("level:master"), &args.levels)?;
        let g = super::gauntlet::GauntletArgs {
            candidate,
            file: &args.gauntlet_file,
            table: &args.table,
            time_controls: args.time_controls.clone(),
            games: args.games.unwrap_or(20),
            threads: args.threads as usize,
            max_plies: args.max_plies,
            think: args.think,
        };
        return super::gauntlet::run(g, &openings);
    }
    let (Some(a), Some(b)) = (&args.a, &args.b) else {
        return Err(BadInput("give --a and --b, or --ladder".into()).into());
    };
    let a = resolve_spec(a, &args.levels)?;
    let b = resolve_spec(b, &args.levels)?;
    let games = args.games.unwrap_or(20);
    let played = play_matches(
        &[(a, b)],
        games,
        &openings,
        args.threads as usize,
        args.max_plies,
        args.think,
    )
    .pop()
    .unwrap_or_default();
    if let Some(dir) = &args.out {
        save_pdn(dir, &a, &b, &openings, &played)?;
    }
    let t = tally(&played);
    let (lo, hi) = t.elo_interval95();
    println!("a: {a}");
    println!("b: {b}");
    println!("games: {}", t.games());
    println!("wins: {}", t.wins);
    println!("draws: {}", t.draws);
    println!("losses: {}", t.losses);
    println!("score: {:.3}", t.score());
    println!("elo: {:.0}", t.elo());
    println!("elo_95: {lo:.0} {hi:.0}");
    println!(
        "adjudicated: {}",
        played.iter().filter(|p| p.adjudicated).count()
    );
    Ok(ExitCode::SUCCESS)
}

/// What the ladder needs of the arguments.
pub struct LadderArgs<'a> {
    pub levels: &'a Path,
    pub games: usize,
    pub threads: usize,
    pub max_plies: usize,
    pub out: Option<&'a Path>,
    pub plot: PathBuf,
    /// Pairs at most this many places apart in rank order (None: all pairs).
    pub span: Option<usize>,
}

fn args_ladder(args: &Args) -> LadderArgs<'_> {
    let plot = args.plot.clone().unwrap_or_else(|| {
        args.out
            .as_deref()
            .unwrap_or(Path::new("."))
            .join("ladder.svg")
    });
    LadderArgs {
        levels: &args.levels,
        games: args.games.unwrap_or(10),
        threads: args.threads as usize,
        max_plies: args.max_plies,
        out: args.out.as_deref(),
        plot,
        span: args.span.map(|s| s as usize),
    }
}

/// Plays a match of `games` games for each pair, all of them `threads` at a time; the games
/// of each pair, in the pairs' order.
pub fn play_matches(
    pairs: &[(PlannerSpec, PlannerSpec)],
    games: usize,
    openings: &[Opening],
    threads: usize,
    max_plies: usize,
    think: Option<std::time::Duration>,
) -> Vec<Vec<Played>> {
    let jobs: Vec<Job> = (0..pairs.len())
        .flat_map(|pair| {
            schedule(games, openings.len())
                .into_iter()
                .map(move |pairing| Job { pair, pairing })
        })
        .collect();
    let played = play_all(pairs, &jobs, openings, threads, max_plies, think);
    let mut by_pair = vec![Vec::new(); pairs.len()];
    for (job, p) in jobs.iter().zip(played) {
        by_pair[job.pair].push(p);
    }
    by_pair
}

/// Plays every pair of `specs` `games` times; the tallies of the first of each pair.
pub fn round_robin(
    specs: &[PlannerSpec],
    openings: &[Opening],
    l: &LadderArgs<'_>,
    names: &[String],
) -> anyhow::Result<Vec<(usize, usize, Tally)>> {
    let mut pairs = Vec::new();
    let mut index = Vec::new();
    for i in 0..specs.len() {
        for j in i + 1..specs.len() {
            if l.span.is_some_and(|span| j - i > span) {
                continue;
            }
            pairs.push((specs[j], specs[i]));
            index.push((j, i));
        }
    }
    let by_pair = play_matches(&pairs, l.games, openings, l.threads, l.max_plies, None);
    let mut out = Vec::new();
    for (k, (&(j, i), games)) in index.iter().zip(by_pair).enumerate() {
        if let Some(dir) = l.out {
            let sub = dir.join(format!("{}-vs-{}", names[j], names[i]));
            save_pdn(&sub, &pairs[k].0, &pairs[k].1, openings, &games)?;
        }
        out.push((j, i, tally(&games)));
    }
    Ok(out)
}
