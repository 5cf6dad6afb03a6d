//! `checkers-robot launch FILE [name:=value ...]`: runs the project's ROS 2 XML launch files
//! on a machine without ROS 2. The library's [launch interpreter](checkers_robot::launch) reads
//! them; this starts each node of this package (each is this executable, `checkers-robot node
//! NAME`: src/nodes.rs), skips nodes of other packages
//! (robot_state_publisher, rviz2) with a note, and supervises the processes.

mod run;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use checkers_robot::launch::{find_share, shell_quote, Entry, Loader, PACKAGE};

use super::bad_input;
use checkers_robot::node_table;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The launch file: a path, or `checkers_robot NAME` as `ros2 launch` takes it.
    file: String,
    /// Launch arguments as `name:=value`.
    args: Vec<String>,
    /// Print each node's command line (stdout, one line per node) instead of starting them.
    #[arg(long)]
    dry_run: bool,
    /// Seconds the nodes get to exit after SIGINT before they are killed.
    #[arg(long, default_value_t = 5.0)]
    grace_s: f64,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let (file, launch_args) = resolve_file(&args.file, &args.args)?;
    let share = find_share(file.parent().unwrap_or(Path::new(".")));
    tracing::debug!(file = %file.display(), share = %share.display(), "launch");
    let entries = Loader::new(&share, &launch_args, std::env::vars().collect())
        .and_then(|l| l.load(&file))
        .map_err(bad_input)?;
    // Every node of this package runs inside this executable (`checkers-robot node NAME`).
    let exe = std::env::current_exe().context("finding this executable")?;
    let mut nodes = Vec::new();
    let mut unknown = Vec::new();
    for e in entries {
        match e {
            Entry::Foreign { pkg, exec, origin } => eprintln!(
                "[launch] skipping {exec} (package {pkg}, {origin}): not ours; it runs under ros2 launch"
            ),
            Entry::Node(spec) if node_table::find(&spec.exec).is_none() => {
                unknown.push(format!("{} ({})", spec.exec, spec.origin));
            }
            Entry::Node(spec) => {
                let mut argv = vec!["node".to_string(), spec.exec.clone()];
                argv.extend(spec.argv());
                nodes.push(run::Start {
                    spec,
                    program: exe.clone(),
                    argv,
                });
            }
        }
    }
    if !unknown.is_empty() {
        return Err(bad_input(format!(
            "{PACKAGE} has no executable {}; its nodes are {}",
            unknown.join(", "),
            node_table::names().collect::<Vec<_>>().join(", ")
        )));
    }
    if args.dry_run {
        for n in &nodes {
            let argv: Vec<_> = n.argv.iter().map(|a| shell_quote(a)).collect();
            println!(
                "{}: {} {}",
                n.spec.label(),
                shell_quote(&n.program.display().to_string()),
                argv.join(" ")
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    if nodes.is_empty() {
        eprintln!("[launch] nothing of {PACKAGE} to start");
        return Ok(ExitCode::SUCCESS);
    }
    if !(args.grace_s.is_finite() && args.grace_s >= 0.0) {
        return Err(bad_input(format!(
            "--grace-s {} is not a duration",
            args.grace_s
        )));
    }
    run::supervise(nodes, Duration::from_secs_f64(args.grace_s))
}

/// `FILE args...` or `checkers_robot NAME args...` (ros2 launch's package form: NAME in the
/// package's launch/ directory).
fn resolve_file(file: &str, args: &[String]) -> anyhow::Result<(PathBuf, Vec<String>)> {
    if file == PACKAGE {
        if let Some((name, rest)) = args.split_first().filter(|(n, _)| !n.contains(":=")) {
            let cwd = std::env::current_dir().context("reading the working directory")?;
            let path = find_share(&cwd).join("launch").join(name);
            return Ok((path, rest.to_vec()));
        }
    }
    Ok((PathBuf::from(file), args.to_vec()))
}
