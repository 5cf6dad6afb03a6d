//! `checkers-robot play`: the simulated robot and a terminal UI to play it. It launches
//! `launch/sim.launch.xml` (through [`graph::sim`](checkers_robot::graph::sim), on a private ROS
//! domain and run directory), joins the graph with the [graph client](checkers_robot::graph::client)
//! and shows the board as the arbiter sees it, the robot's eyes, what it says, the events and
//! the planner's evaluation; the player's moves are performed by the simulated human.
//!
//! - [`app`]: the UI's state, fed by messages (pure);
//! - [`input`]: keys and typed moves checked against the legal moves (pure);
//! - [`board_widget`], [`face_widget`], [`ui`]: drawing;
//! - [`setup`]: the terminal check, levels, node executables, stderr to a file;
//! - [`runner`]: the loop.

mod app;
mod board_widget;
mod face_widget;
mod input;
mod runner;
mod setup;
#[cfg(test)]
mod test_util;
mod ui;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;

use super::bad_input;
use checkers_robot::graph::client::GraphClient;
use checkers_robot::graph::sim::{private_domain, SimGraph, SimOptions};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The level the robot starts at (config/difficulty/LEVEL.yaml); the new-game dialog
    /// changes it.
    #[arg(long, default_value = "medium")]
    level: String,
    /// Speed of the simulated world (the arm, the simulated human's pauses).
    #[arg(long, default_value_t = 2.0)]
    time_scale: f64,
    /// What runs the controllers: `native` (the firmware core, compiled here) or `emulated`
    /// (the Pico binaries in the RP2040 emulator: firmware/pico/build.sh first). Emulated
    /// boards run at the chip's own speed, so the world's time scale is then 1.
    #[arg(long, default_value = "native", value_parser = ["native", "emulated"])]
    firmware: String,
    /// ROS domain of the launched graph; default: one derived from this process's id.
    #[arg(long)]
    domain: Option<u16>,
    /// The web window's port (docs/web.md): the game in a browser too, where you can also
    /// play; the next free port of ten is taken, 0 takes any.
    #[arg(long, default_value_t = 8080)]
    web_port: u16,
    /// Where the sim's ports, the arbiter's games and the logs go; default: a new directory
    /// under $TMPDIR.
    #[arg(long)]
    run_dir: Option<PathBuf>,
}

/// Domains `play` picks from: apart from the ranges the tests use.
const DOMAINS: std::ops::Range<u16> = 130..150;

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    setup::require_terminal()?;
    let share = setup::find_share();
    let levels = setup::levels(&share);
    if !levels.is_empty() && !levels.contains(&args.level) {
        return Err(bad_input(format!(
            "no level {:?}: the levels are {}",
            args.level,
            levels.join(", ")
        )));
    }
    let exe = std::env::current_exe().context("finding this executable")?;
    let domain = args.domain.unwrap_or_else(|| private_domain(DOMAINS, 0));
    let run_dir = args.run_dir.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("checkers_play_{}", std::process::id()))
    });
    std::fs::create_dir_all(&run_dir).with_context(|| format!("creating {}", run_dir.display()))?;
    let launch_log = run_dir.join("launch.log");
    let play_log = run_dir.join("play.log");
    eprintln!(
        "[play] starting the simulated robot (ROS domain {domain}, logs in {})",
        run_dir.display()
    );
    let mut graph = SimGraph::launch(&SimOptions {
        exe,
        share,
        domain,
        level: args.level.clone(),
        time_scale: if args.firmware == "emulated" {
            1.0
        } else {
            args.time_scale
        },
        run_dir: run_dir.clone(),
        log: Some(launch_log.clone()),
        keystore: None,
        firmware: args.firmware.clone(),
        web_port: args.web_port,
        args: Vec::new(),
        netns: None,
    })?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let mut app = app::App::new(levels);
    app.graph_note = Some(format!(
        "starting the simulated robot (ROS domain {domain}): moves can be played once it reads its board"
    ));
    let outcome = {
        // Until the terminal is restored and the ROS nodes of this process are gone (their
        // DDS threads complain as they close), nothing may write to it but the UI.
        let _stderr = setup::StderrToFile::new(&play_log)?;
        let outcome = runtime.block_on(async {
            let client = Arc::new(GraphClient::connect(domain)?);
            let closer = client.closer();
            let r = match ratatui::try_init().context("opening the terminal UI") {
                Ok(mut terminal) => {
                    // What was printed before the UI (the launch note) must not show through
                    // cells the first frame leaves blank.
                    let r = match terminal.clear() {
                        Ok(()) => {
                            runner::run(
                                &mut terminal,
                                &mut app,
                                client,
                                &mut graph,
                                &launch_log.display().to_string(),
                            )
                            .await
                        }
                        Err(e) => Err(e).context("clearing the terminal"),
                    };
                    ratatui::restore();
                    r
                }
                Err(e) => {
                    drop(client);
                    Err(e)
                }
            };
            // The loop stopped every task holding the client, and the client went with it:
            // its readers and writers have left before its participant now does.
            closer.close().await;
            r
        });
        runtime.shutdown_timeout(std::time::Duration::from_secs(1));
        outcome
    };
    eprintln!("[play] stopping the simulated robot...");
    graph.stop();
    eprintln!(
        "[play] stopped. Logs and the finished games are in {}",
        run_dir.display()
    );
    outcome.map(|()| ExitCode::SUCCESS)
}
