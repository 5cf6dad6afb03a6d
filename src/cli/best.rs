use std::path::PathBuf;
use std::process::ExitCode;

use draughts::{Game, START_FEN};
use search::{Control, PlannerSpec};

use super::bad_input;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position (PDN FEN).
    #[arg(long, default_value = START_FEN)]
    fen: String,
    /// Moves played from that position before planning (space-separated), so that the planner
    /// sees the history (repetitions).
    #[arg(long, default_value = "")]
    moves: String,
    /// The planner and its limits, e.g. `alphabeta:time=1s`, `mcts:sims=2000`,
    /// `minimax:depth=6`, or `level:NAME` for a difficulty level.
    #[arg(long, default_value = "alphabeta:time=1s")]
    planner: String,
    /// Where the difficulty levels are (for `level:NAME`).
    #[arg(long, default_value = "config/difficulty")]
    levels: PathBuf,
}

/// Resolves a planner spec string, `level:NAME` included.
pub fn resolve_spec(text: &str, levels: &std::path::Path) -> anyhow::Result<PlannerSpec> {
    if let Some(name) = text.trim().strip_prefix("level:") {
        let level = search::load_level(levels, name.trim()).map_err(bad_input)?;
        return Ok(level.spec);
    }
    text.parse::<PlannerSpec>().map_err(bad_input)
}

/// Prints `key: value` lines: planner, move, value, win_probability, depth, seldepth, nodes,
/// sims, tt_hits, time_s, nps and pv.
pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let spec = resolve_spec(&args.planner, &args.levels)?;
    let pos = super::parse_position(&args.fen)?;
    pos.validate().map_err(bad_input)?;
    let mut game = Game::from_position(pos);
    for word in args.moves.split_whitespace() {
        game.play_text(word).map_err(bad_input)?;
    }
    let mut planner = spec.build();
    let d = planner
        .choose(&game, &spec.limits(), &Control::default())
        .map_err(bad_input)?;
    let s = &d.stats;
    let secs = s.elapsed.as_secs_f64();
    println!("planner: {spec}");
    println!("move: {}", d.best);
    println!("value: {}", d.value);
    println!("win_probability: {:.3}", d.win_probability);
    println!("depth: {}", s.depth);
    println!("seldepth: {}", s.seldepth);
    println!("nodes: {}", s.nodes);
    println!("sims: {}", s.sims);
    println!("tt_hits: {}", s.tt_hits);
    println!("time_s: {secs:.4}");
    println!("nps: {:.0}", s.nodes as f64 / secs.max(1e-9));
    let pv: Vec<String> = s.pv.iter().map(|m| m.text()).collect();
    println!("pv: {}", pv.join(" "));
    Ok(ExitCode::SUCCESS)
}
