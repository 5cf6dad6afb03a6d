//! `checkers-robot`: the command line of the draughts robot, and each of its nodes
//! (`checkers-robot node NAME`, src/nodes.rs).

mod cli;
mod nodes;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let argv: Vec<_> = std::env::args_os().collect();
    if let Some(code) = nodes::dispatch(&argv) {
        return code;
    }
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
