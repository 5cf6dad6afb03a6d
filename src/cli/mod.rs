//! Subcommands of `checkers-robot`. Output goes to stdout in a stable, line-oriented form
//! other tools can parse; logs and progress go to stderr.

mod arena;
mod bench;
mod best;
mod book;
mod gauntlet;
mod hw;
mod ladder;
mod launch;
mod matches;
mod moves;
mod pdn;
mod perft;
mod play;
mod replay;
mod review;
mod security;
mod soak;
mod watch;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use draughts::{parse_fen, Position, START_FEN};

#[derive(Debug, Parser)]
#[command(
    name = "checkers-robot",
    version,
    about = "A robot that plays Russian draughts",
    after_help = "The robot's nodes run in this executable too: `checkers-robot node NAME \
                  [--ros-args ...]`, NAME one of sim_node, board_sensor_node, arm_node, \
                  planner_node, arbiter_node, expression_node, web_node, recorder_node (the executables `ros2 run` and \
                  the launch files name)."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Every legal move of a position, full-path notation, one per line, sorted.
    Moves {
        /// The position (PDN FEN, numeric or algebraic squares).
        #[arg(long, default_value = START_FEN)]
        fen: String,
    },
    /// Counts the leaves of the move tree to a depth, with time and speed.
    Perft(perft::Args),
    /// PDN game files.
    Pdn {
        #[command(subcommand)]
        command: pdn::Command,
    },
    /// Measures random playouts per second and perft throughput.
    Bench(bench::Args),
    /// One planner's move for a position, with its value and search statistics.
    Best(best::Args),
    /// Plays two planners against each other, or rates every difficulty level (`--ladder`).
    Arena(arena::Args),
    /// Builds the opening book: every move of each position scored by alpha-beta, the good
    /// ones kept, ply by ply from the start and the arena's openings.
    Book(book::Args),
    /// Runs a ROS 2 XML launch file without ROS 2: `launch launch/sim.launch.xml difficulty:=hard`.
    Launch(launch::Args),
    /// Play the simulated robot in a terminal UI: launches the sim graph and shows the board,
    /// the robot's face, its words, the events and its evaluation. Start here.
    Play(play::Args),
    /// The simulated robot against a simulated human driven by a planner: `watch --level easy --opponent alphabeta:depth=2`.
    Watch(watch::Args),
    /// Game after game against one launch of the simulated robot with faults and node kills
    /// drawn at random; checks every game ends and replays, and watches each node's memory:
    /// `soak --games 100 --time-scale 500`.
    Soak(soak::Args),
    /// Bring-up tools for the real robot's controllers (or, with `--sim`, the simulated
    /// ones): `hw ports`, `hw field`, `hw arm home`, `hw arm jog --joint 1 --by 10`,
    /// `hw head sweep`, `hw head eyes`.
    Hw(hw::Args),
    /// A teacher's review of the games of a PDN file: each move judged (best, good,
    /// inaccuracy, mistake, blunder, brilliant), the worst with the better move and its
    /// refutation.
    Review(review::Args),
    /// A recorded game (STATE_DIR/games/*.mcap) played back into the web window, at the
    /// printed URL: `replay FILE.mcap --speed 4`.
    Replay(replay::Args),
    /// DDS Security (SROS2): `security init DIR` makes a keystore with the robot's enclaves
    /// (config/security/policy.xml), as `ros2 security` would.
    Security(security::Args),
}

/// Input the user got wrong (a malformed FEN, an illegal move, a missing file): exit status 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// Wraps any error as bad input.
pub fn bad_input(e: impl std::fmt::Display) -> anyhow::Error {
    BadInput(e.to_string()).into()
}

pub fn parse_position(fen: &str) -> anyhow::Result<Position> {
    parse_fen(fen).map_err(bad_input)
}

/// Warnings and errors on stderr, except the DDS layers' internals (RustDDS's loopback
/// discovery chatter and teardown errors, ros2-client's notes), which are not the user's
/// business; `RUST_LOG` replaces the whole filter.
pub fn init_logging(cli: &Cli) {
    // `hw` says itself what went wrong with a port; the link's and the in-process sim's own
    // warnings (a probe refused, a probe's session ended) would only bury that.
    let default = match cli.command {
        Command::Hw(_) => "warn,rustdds=off,ros2_client=off,serial_link=off,sim=off",
        _ => "warn,rustdds=off,ros2_client=off",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Moves { fen } => moves::run(&fen),
        Command::Perft(args) => perft::run(&args),
        Command::Pdn { command } => pdn::run(command),
        Command::Bench(args) => bench::run(&args),
        Command::Best(args) => best::run(&args),
        Command::Arena(args) => arena::run(&args),
        Command::Book(args) => book::run(&args),
        Command::Launch(args) => launch::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Watch(args) => watch::run(&args),
        Command::Soak(args) => soak::run(&args),
        Command::Review(args) => review::run(&args),
        Command::Hw(args) => hw::run(&args),
        Command::Replay(args) => replay::run(&args),
        Command::Security(args) => security::run(&args).map(|()| ExitCode::SUCCESS),
    }
}
