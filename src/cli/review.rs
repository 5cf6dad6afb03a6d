//! `checkers-robot review FILE.pdn`: what a teacher would say after the game. Every move of the
//! reviewed side is judged against all the others by an alpha-beta search (`search::review_game`);
//! the worst ones are printed with the better move and the line that refutes them, and
//! `--annotate OUT.pdn` writes the games again with the verdicts as comments.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use draughts::{parse_pdn, write_pdn_with_comments, PdnGame};
use draughts::{Color, Game};
use indicatif::{ProgressBar, ProgressStyle};
use search::{comment, describe, review_game, worst, Reviewed, Thresholds, Verdict};

use super::bad_input;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The PDN file (every game in it is reviewed).
    file: PathBuf,
    /// Whose moves: `human` (the player the robot's archive names "Human"; both sides when no
    /// player is), `white`, `black` or `both`.
    #[arg(long, default_value = "human")]
    side: String,
    /// Search depth of each judged move, in plies.
    #[arg(long, default_value_t = 8)]
    depth: u32,
    /// How many of the worst moves to show per game.
    #[arg(long, default_value_t = 3)]
    worst: usize,
    /// Writes the games here with each judged move's verdict as a PDN comment.
    #[arg(long)]
    annotate: Option<PathBuf>,
    /// Writes every judged move here as CSV (game, ply, side, player, loss, verdict): what the
    /// verdicts' thresholds were set from (docs/teaching.md).
    #[arg(long)]
    losses: Option<PathBuf>,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| bad_input(format!("cannot read {}: {e}", args.file.display())))?;
    let games = parse_pdn(&text).map_err(|e| bad_input(format!("{}: {e}", args.file.display())))?;
    if games.is_empty() {
        return Err(bad_input(format!(
            "{}: no games found",
            args.file.display()
        )));
    }
    if !(1..=20).contains(&args.depth) {
        return Err(bad_input("--depth must be 1..20"));
    }
    let mut annotated = String::new();
    let mut csv = String::from("game,ply,side,player,loss,verdict\n");
    for (i, pdn) in games.iter().enumerate() {
        let mut game = pdn
            .replay()
            .map_err(|e| bad_input(format!("{} game {}: {e}", args.file.display(), i + 1)))?;
        // A resignation is in the result tag only: keep it in the annotated copy.
        if !game.result().is_over() {
            match pdn.result.as_deref() {
                Some("1-0" | "2-0") => game.resign(Color::Black),
                Some("0-1" | "0-2") => game.resign(Color::White),
                _ => {}
            }
        }
        let side = reviewed_side(&args.side, pdn)?;
        let reviewed = judge_with_progress(&game, side, args.depth);
        for line in review_text(i + 1, pdn, &game, side, &reviewed, args.worst) {
            println!("{line}");
        }
        for r in &reviewed {
            let mover = search::mover(&game, r.ply);
            let (side_name, key) = match mover {
                Color::White => ("white", "White"),
                Color::Black => ("black", "Black"),
            };
            let player = pdn.header(key).unwrap_or("?").replace(',', ";");
            csv.push_str(&format!(
                "{},{},{side_name},{player},{:.4},{}\n",
                i + 1,
                r.ply,
                r.judgement.loss,
                r.judgement.verdict
            ));
        }
        if args.annotate.is_some() {
            let mut comments = vec![String::new(); game.moves().len()];
            for r in &reviewed {
                if let Some(c) = comments.get_mut(r.ply) {
                    *c = comment(&r.judgement);
                }
            }
            let headers: Vec<(&str, &str)> = pdn
                .headers
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
            annotated.push_str(&write_pdn_with_comments(&game, &headers, &comments));
        }
    }
    if let Some(out) = &args.losses {
        std::fs::write(out, &csv).with_context(|| format!("writing {}", out.display()))?;
        println!("losses: {}", out.display());
    }
    if let Some(out) = &args.annotate {
        std::fs::write(out, annotated).with_context(|| format!("writing {}", out.display()))?;
        println!("annotated: {}", out.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// The side `--side` names for this game; `None` is both.
fn reviewed_side(side: &str, pdn: &PdnGame) -> anyhow::Result<Option<Color>> {
    let named = |key: &str| {
        pdn.header(key)
            .is_some_and(|v| v.eq_ignore_ascii_case("human"))
    };
    match side.to_ascii_lowercase().as_str() {
        "white" => Ok(Some(Color::White)),
        "black" => Ok(Some(Color::Black)),
        "both" => Ok(None),
        "human" if named("White") && !named("Black") => Ok(Some(Color::White)),
        "human" if named("Black") && !named("White") => Ok(Some(Color::Black)),
        "human" => Ok(None),
        other => Err(bad_input(format!(
            "--side {other:?}: use human, white, black or both"
        ))),
    }
}

fn judge_with_progress(game: &Game, side: Option<Color>, depth: u32) -> Vec<Reviewed> {
    let bar = ProgressBar::new(0).with_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} moves judged [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let reviewed = review_game(game, side, depth, &Thresholds::default(), |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    reviewed
}

/// The review of the last game of a PDN file as `play` shows it after the game: the human's
/// moves judged to `depth`, the three worst.
pub fn review_last_game(path: &std::path::Path, depth: u32) -> anyhow::Result<Vec<String>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let games = parse_pdn(&text).with_context(|| format!("reading {}", path.display()))?;
    let n = games.len();
    let pdn = games
        .last()
        .ok_or_else(|| anyhow::anyhow!("{}: no game", path.display()))?;
    let game = pdn
        .replay()
        .with_context(|| format!("replaying {}", path.display()))?;
    let side = reviewed_side("human", pdn)?;
    let reviewed = review_game(&game, side, depth, &Thresholds::default(), |_, _| {});
    Ok(review_text(n, pdn, &game, side, &reviewed, 3))
}

fn review_text(
    n: usize,
    pdn: &PdnGame,
    game: &Game,
    side: Option<Color>,
    reviewed: &[Reviewed],
    how_many: usize,
) -> Vec<String> {
    let mut out = Vec::new();
    let who = match side {
        Some(Color::White) => "White",
        Some(Color::Black) => "Black",
        None => "both sides",
    };
    let players = format!(
        "{} - {}",
        pdn.header("White").unwrap_or("?"),
        pdn.header("Black").unwrap_or("?")
    );
    out.push(format!(
        "game {n} ({players}, {}): {} move{} of {who} judged",
        pdn.result.as_deref().unwrap_or("*"),
        reviewed.len(),
        if reviewed.len() == 1 { "" } else { "s" }
    ));
    let count = |v: Verdict| reviewed.iter().filter(|r| r.judgement.verdict == v).count();
    let tally: Vec<String> = [
        Verdict::Brilliant,
        Verdict::Best,
        Verdict::Good,
        Verdict::Inaccuracy,
        Verdict::Mistake,
        Verdict::Blunder,
    ]
    .into_iter()
    .map(|v| format!("{v} {}", count(v)))
    .collect();
    out.push(format!("  {}", tally.join(", ")));
    let bad = worst(reviewed, how_many);
    if bad.is_empty() {
        out.push("  no move gave anything away".into());
    }
    for r in bad {
        out.push(format!("  {}", describe(game, r)));
    }
    out
}
