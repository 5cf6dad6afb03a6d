//! Replays a PDN game and prints, for every ply, the move played and a planner's value of the
//! position before it, from White's view: where a game was lost or drawn.
//! `cargo run --release -p search --example review_game -- GAME.pdn alphabeta:depth=14`

use anyhow::{anyhow, Context};
use draughts::parse_pdn;
use draughts::{Color, Game};
use search::Control;
use search::PlannerSpec;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let file = args.next().context("usage: review_game GAME.pdn [SPEC]")?;
    let spec: PlannerSpec = args
        .next()
        .unwrap_or_else(|| "alphabeta:depth=14".to_string())
        .parse()
        .map_err(|e| anyhow!("{e}"))?;
    let text = std::fs::read_to_string(&file).with_context(|| format!("reading {file}"))?;
    let pdn = parse_pdn(&text)?;
    let played = pdn.first().context("no game in the file")?.replay()?;
    let mut planner = spec.build();
    let limits = spec.limits();
    let mut game = Game::from_position(*played.start_position());
    for (ply, mv) in played.moves().iter().enumerate() {
        let d = planner
            .choose(&game, &limits, &Control::default())
            .map_err(|e| anyhow!("{e}"))?;
        let white = match game.position().side_to_move() {
            Color::White => d.value,
            Color::Black => -d.value,
        };
        let agree = if d.best == *mv { "" } else { "  planner: " };
        let alt = if d.best == *mv {
            String::new()
        } else {
            d.best.to_string()
        };
        println!(
            "{:3} {:>12} {:6}{agree}{alt:8} {}",
            ply + 1,
            mv.to_string(),
            white,
            draughts::to_fen(game.position())
        );
        game.play(mv)?;
    }
    println!("{}", played.result());
    Ok(())
}
