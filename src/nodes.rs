//! `checkers-robot node NAME [ARGS] [--ros-args ...]`: runs one of the robot's nodes (the
//! library's [node table](checkers_robot::node_table)) in this process. One executable holding
//! every node means one link of the release build, not eight.

use std::ffi::OsString;
use std::process::ExitCode;

use checkers_robot::node_table;

/// Runs a node when this process was started as one (`checkers-robot node NAME ...`); `None`
/// for every other command line, which the subcommands parse.
pub fn dispatch(argv: &[OsString]) -> Option<ExitCode> {
    if argv.get(1).is_none_or(|a| a != "node") {
        return None;
    }
    let name = argv.get(2).and_then(|n| n.to_str()).unwrap_or_default();
    let Some(node) = node_table::find(name) else {
        let names: Vec<_> = node_table::names().collect();
        eprintln!(
            "error: `checkers-robot node` takes a node's name, one of: {}",
            names.join(", ")
        );
        return Some(ExitCode::from(2));
    };
    if let Err(e) = node_exec::tune_allocator() {
        eprintln!("warning: {name} runs with glibc's malloc untuned: {e}");
    }
    let args: Vec<String> = argv[3..]
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    Some(match node.run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // As a `main` returning the error would print it.
            eprintln!("Error: {e:?}");
            ExitCode::FAILURE
        }
    })
}

#[cfg(test)]
mod tests;
