use std::process::ExitCode;

use draughts::Move;

pub fn run(fen: &str) -> anyhow::Result<ExitCode> {
    let pos = super::parse_position(fen)?;
    let mut texts: Vec<String> = pos.legal_moves().iter().map(Move::text).collect();
    texts.sort();
    for t in texts {
        println!("{t}");
    }
    Ok(ExitCode::SUCCESS)
}
