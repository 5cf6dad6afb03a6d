use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use search::{
    built_in_openings, parse_openings, play_matches, MatchSettings, Opening, DEFAULT_MAX_PLIES,
};

use super::best::resolve_spec;
use super::matches::{progress, save_pdn};
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
    #[arg(long, value_delimiter = ',', value_parser = search::parse_duration)]
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
    #[arg(long, value_parser = search::parse_duration)]
    think: Option<std::time::Duration>,
}

fn load_openings(path: Option<&Path>) -> anyhow::Result<Vec<Opening>> {
    match path {
        None => Ok(built_in_openings()),
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
    let settings = MatchSettings {
        games: args.games.unwrap_or(20),
        threads: args.threads as usize,
        max_plies: args.max_plies,
        think: args.think,
    };
    let bar = progress(settings.games);
    let played = play_matches(&[(a, b)], &openings, &settings, &|| bar.inc(1))
        .pop()
        .context("the match was not played")?;
    bar.finish_and_clear();
    if let Some(dir) = &args.out {
        save_pdn(dir, &played, &openings)?;
    }
    let t = played.tally();
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
        played.games.iter().filter(|p| p.adjudicated).count()
    );
    Ok(ExitCode::SUCCESS)
}

fn args_ladder(args: &Args) -> super::ladder::LadderArgs<'_> {
    let plot = args.plot.clone().unwrap_or_else(|| {
        args.out
            .as_deref()
            .unwrap_or(Path::new("."))
            .join("ladder.svg")
    });
    super::ladder::LadderArgs {
        levels: &args.levels,
        games: args.games.unwrap_or(10),
        threads: args.threads as usize,
        max_plies: args.max_plies,
        out: args.out.as_deref(),
        plot,
        span: args.span.map(|s| s as usize),
    }
}
