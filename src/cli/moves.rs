use std::io::Write;
use std::process::ExitCode;

use draughts::Move;

pub fn run(fen: &str) -> anyhow::Result<ExitCode> {
    let pos = super::parse_position(fen)?;
    let mut texts: Vec<String> = pos.legal_moves().iter().map(Move::text).collect();
    texts.sort();
    let mut out = std::io::stdout().lock();
    for t in texts {
        // A reader that stops early (`| head`) is not an error.
        match writeln!(out, "{t}") {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => break,
            Err(e) => return Err(e.into()),
        }
    }
    Ok(ExitCode::SUCCESS)
}
