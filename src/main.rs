//! `checkers-robot`: the command line of the draughts robot.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    cli::init_logging(&args);
    match cli::run(args) {
        Ok(code) => code,
        Err(e) => {
            // One line, the whole chain: what failed and why.
            eprintln!("error: {e:#}");
            if e.is::<cli::BadInput>() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}
