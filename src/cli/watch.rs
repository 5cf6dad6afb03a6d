//! `checkers-robot watch --level LEVEL --opponent SPEC`: the simulated robot against a
//! simulated human whose moves a planner chooses, for demos and for measuring the whole graph.
//! Each game gets a fresh launch (the sim's board cannot be reset in place); the moves, the
//! events and what the robot says go to stdout, the PDN the arbiter archived is named at the end.
//! `--timings` also measures, for each robot move, confirm press -> planning -> first arm motion.
//! Games differ: the simulated human plays White in odd games, Black in even ones, and while the
//! game follows any of the built-in openings it plays one of their next moves, a different one
//! in each game of its colour (its planner also gets seed + N), so that the robot's fixed
//! replies still meet a new game each time.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use checkers_msgs::convert::position_from_msg;
use checkers_msgs::msg::{BoardOccupancy, GameState};
use checkers_msgs::sensor_msgs::msg::JointState;
use checkers_msgs::srv::{HumanMove_Request, NewGame_Request};
use draughts::{Game, Move};
use futures::StreamExt;
use indicatif::{ProgressBar, ProgressStyle};
use ros::{Node, Qos};
use search::Control;
use tokio::sync::mpsc;

use super::best::resolve_spec;
use checkers_robot::graph::client::{
    client_node, describe_state, event_kind, GraphClient, PLAY_ENCLAVE,
};
use checkers_robot::graph::sim::{archived_games, private_domain, web_url, SimGraph, SimOptions};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The robot's difficulty level (config/difficulty/LEVEL.yaml).
    #[arg(long, default_value = "easy")]
    level: String,
    /// The simulated human's planner (`alphabeta:depth=2`, `random`, `level:NAME`).
    #[arg(long, default_value = "alphabeta:depth=2")]
    opponent: String,
    #[arg(long, default_value_t = 1)]
    games: u32,
    /// Speed of the simulated world (arm, human); the arm node allows up to 1000.
    #[arg(long, default_value_t = 10.0)]
    time_scale: f64,
    /// What runs the controllers: `native` (the firmware core, compiled here) or `emulated`
    /// (the Pico binaries in the RP2040 emulator: firmware/pico/build.sh first). Emulated
    /// boards run at the chip's own speed, so the world's time scale is then 1.
    #[arg(long, default_value = "native", value_parser = ["native", "emulated"])]
    firmware: String,
    /// The web window's port (docs/web.md), where the game can be watched in a browser too;
    /// the next free port of ten is taken, 0 takes any.
    #[arg(long, default_value_t = 8080)]
    web_port: u16,
    /// Plies after which the human resigns.
    #[arg(long, default_value_t = 200)]
    max_plies: u32,
    /// Where the difficulty levels are (for `level:NAME` opponents).
    #[arg(long, default_value = "config/difficulty")]
    levels: PathBuf,
    /// Measure confirm -> arm motion for each robot move.
    #[arg(long)]
    timings: bool,
    /// The simulated human takes at least this long over each move (`5s`), as a person
    /// would: the time a pondering robot (`ponder: true`, master) thinks on.
    #[arg(long, value_parser = search::parse_duration)]
    think: Option<Duration>,
}

/// Waits for anything the graph does; generous for a busy machine.
const WAIT: Duration = Duration::from_secs(120);

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let spec = resolve_spec(&args.opponent, &args.levels)?;
    if !(args.time_scale.is_finite() && args.time_scale > 0.0) {
        return Err(super::bad_input("--time-scale must be positive"));
    }
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")?
        .block_on(async {
            for n in 1..=args.games {
                play_one(args, &spec, n).await?;
            }
            Ok(ExitCode::SUCCESS)
        })
}

/// The opening's move at `ply` when the game has followed the opening so far (its position is
/// the opening's position at that ply).
fn opening_move(opening: &search::Opening, ply: u32, pos: &draughts::Position) -> Option<Move> {
    let k = ply as usize;
    let mv = *opening.moves.get(k)?;
    let mut game = Game::from_position(opening.start);
    for m in &opening.moves[..k] {
        game.play(m).ok()?;
    }
    (game.position() == pos).then_some(mv)
}

/// The simulated human's book move in game `n`: the distinct next moves of the built-in
/// openings the game has followed so far, sorted, and the one this game of its colour picks;
/// `None` once the game has left them all.
pub(super) fn book_move(
    openings: &[search::Opening],
    ply: u32,
    pos: &draughts::Position,
    n: u32,
) -> Option<Move> {
    let mut moves: Vec<(String, Move)> = openings
        .iter()
        .filter_map(|o| opening_move(o, ply, pos))
        .map(|m| (m.text(), m))
        .collect();
    moves.sort_by(|a, b| a.0.cmp(&b.0));
    moves.dedup_by(|a, b| a.0 == b.0);
    // Games 1, 3, 5... (White) and 2, 4, 6... (Black) each count 0, 1, 2...
    let pick = (n.saturating_sub(1) / 2) as usize;
    moves.get(pick % moves.len().max(1)).map(|(_, m)| *m)
}

/// The simulated human's move in game `n`: the openings' move while the game follows one, else
/// its planner's.
pub(super) fn human_move_text(
    openings: &[search::Opening],
    ply: u32,
    pos: draughts::Position,
    n: u32,
    human: &mut dyn search::Planner,
    spec: &search::PlannerSpec,
) -> anyhow::Result<String> {
    if let Some(mv) = book_move(openings, ply, &pos, n) {
        return Ok(mv.text());
    }
    let decision = human
        .choose(
            &Game::from_position(pos),
            &spec.limits(),
            &Control::default(),
        )
        .map_err(|e| anyhow::anyhow!("the opponent's planner: {e}"))?;
    Ok(decision.best.text())
}

async fn play_one(args: &Args, spec: &search::PlannerSpec, n: u32) -> anyhow::Result<()> {
    let exe = std::env::current_exe().context("finding this executable")?;
    let cwd = std::env::current_dir().context("reading the working directory")?;
    let run_dir = std::env::temp_dir().join(format!("checkers_watch_{}_{n}", std::process::id()));
    let domain = private_domain(150..170, u16::try_from(n % 20).unwrap_or(0));
    let options = SimOptions {
        exe,
        share: checkers_robot::launch::find_share(&cwd),
        domain,
        level: args.level.clone(),
        time_scale: if args.firmware == "emulated" {
            1.0
        } else {
            args.time_scale
        },
        run_dir: run_dir.clone(),
        log: Some(run_dir.join("launch.log")),
        keystore: None,
        firmware: args.firmware.clone(),
        web_port: args.web_port,
        args: Vec::new(),
        netns: None,
    };
    std::fs::create_dir_all(&run_dir).with_context(|| format!("creating {}", run_dir.display()))?;
    let mut graph = SimGraph::launch(&options)?;
    let client = GraphClient::connect(domain)?;
    let bar = ProgressBar::new_spinner().with_style(
        ProgressStyle::with_template("{spinner} game {prefix}: {msg} [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.set_prefix(n.to_string());
    bar.enable_steady_tick(Duration::from_millis(200));
    bar.set_message("starting the simulated robot");
    let ready = async {
        client.wait_ready(WAIT).await?;
        client.wait_human(WAIT).await
    };
    if let Err(e) = ready.await {
        bar.finish_and_clear();
        bail!(
            "{e:#} (launch log: {})",
            run_dir.join("launch.log").display()
        );
    }
    // The web window says its address once it listens, about when the graph is ready.
    for _ in 0..50 {
        if let Some((url, _)) = web_url(&run_dir) {
            line(&bar, format!("  in a browser: {url}"));
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let openings = search::built_in_openings();
    let timings = if args.timings {
        Some(Timings::start(domain)?)
    } else {
        None
    };
    let mut events = client.events();
    let mut says = client.says();
    let printer = tokio::spawn({
        let bar = bar.clone();
        async move {
            loop {
                tokio::select! {
                    Ok(e) = events.recv() => line(&bar, format!("  [{}] {}", event_kind(e.kind), e.text)),
                    Ok(s) = says.recv() => line(&bar, format!("  robot says: {s}")),
                    else => break,
                }
            }
        }
    });
    let started = Instant::now();
    let mut human = spec
        .with_seed(spec.seed().wrapping_add(u64::from(n)))
        .build();
    // Colours alternate: the simulated human plays White in odd games, Black in even ones.
    let robot_color = if n.is_multiple_of(2) {
        NewGame_Request::SIDE_WHITE
    } else {
        NewGame_Request::SIDE_BLACK
    };
    let first = client.wait_state(WAIT, |_| true).await?;
    if first.robot_color != robot_color {
        client.new_game(robot_color, "", "").await?;
    }
    let mut state = client
        .wait_state(WAIT, |s| {
            s.robot_color == robot_color
                && (s.status == GameState::STATUS_WAITING_FOR_HUMAN
                    || s.status >= GameState::STATUS_BOARD_MISMATCH)
        })
        .await?;
    let human_side = if robot_color == NewGame_Request::SIDE_WHITE {
        "Black"
    } else {
        "White"
    };
    if state.ply == 1 {
        line(&bar, format!("  1. {}", state.last_move.text));
    }
    while state.status < GameState::STATUS_WHITE_WON {
        if let Some(status) = graph.exited() {
            bail!(
                "the launch ended ({status}); see {}",
                run_dir.join("launch.log").display()
            );
        }
        bar.set_message(describe_state(&state));
        if state.status != GameState::STATUS_WAITING_FOR_HUMAN {
            bail!("the robot needs a person: {}", describe_state(&state));
        }
        if state.ply >= args.max_plies {
            client.resign(state.position.side_to_move).await?;
            state = client
                .wait_state(WAIT, |s| s.status >= GameState::STATUS_WHITE_WON)
                .await?;
            break;
        }
        let pos = position_from_msg(&state.position).context("the arbiter's position")?;
        let thinking = Instant::now();
        let text = human_move_text(&openings, state.ply, pos, n, human.as_mut(), spec)?;
        if let Some(rest) = args.think.and_then(|t| t.checked_sub(thinking.elapsed())) {
            tokio::time::sleep(rest).await;
        }
        client
            .human_move(&text, HumanMove_Request::ERROR_NONE, true)
            .await?;
        let ply = state.ply;
        state = client
            .wait_state(WAIT, |s| {
                s.ply > ply
                    && (s.status == GameState::STATUS_WAITING_FOR_HUMAN
                        || s.status >= GameState::STATUS_BOARD_MISMATCH)
            })
            .await?;
        let robot = if state.ply > ply + 1 {
            state.last_move.text.as_str()
        } else {
            ""
        };
        let dots = if ply.is_multiple_of(2) { "." } else { "..." };
        line(&bar, format!("{:>3}{dots} {text} {robot}", ply / 2 + 1));
    }
    let wall = started.elapsed();
    // The last words (game over, the robot's phrase) before the launch stops.
    tokio::time::sleep(Duration::from_millis(500)).await;
    printer.abort();
    bar.finish_and_clear();
    println!(
        "game {n}: {} ({}), the human playing {human_side}, after {} plies in {:.1} s wall time (time scale {})",
        state.result,
        state.result_reason,
        state.ply,
        wall.as_secs_f64(),
        if args.firmware == "emulated" {
            "1, emulated firmware".to_string()
        } else {
            args.time_scale.to_string()
        }
    );
    for pdn in archived_games(&graph.state_dir) {
        println!("pdn: {}", pdn.display());
    }
    if let Some(t) = timings {
        t.report().await;
    }
    // The client's readers and writers leave before its participant, and both before the graph
    // is stopped.
    client.close().await;
    graph.stop();
    Ok(())
}

/// A line on stdout above the spinner (a hidden spinner, stderr not a terminal, drops its
/// `println`, so print directly then).
pub(super) fn line(bar: &ProgressBar, text: String) {
    if bar.is_hidden() {
        println!("{text}");
    } else {
        bar.println(text);
    }
}

/// Stamps for the confirm-to-arm latency and the arm's move: confirmed readings, the arbiter's
/// states, every joint change and every joint state.
struct Timings {
    node: Node,
    rx: mpsc::UnboundedReceiver<(u8, f64)>,
}

const CONFIRM: u8 = 100;
const ARM: u8 = 101;
/// Any joint state, moving or not.
const JOINTS: u8 = 102;

impl Timings {
    fn start(domain: u16) -> anyhow::Result<Timings> {
        let security = ros::security::SecurityEnv::from_lookup(|k| std::env::var(k).ok());
        let mut node = client_node(domain, security, PLAY_ENCLAVE, "play", "watch_timings")?;
        let (tx, rx) = mpsc::unbounded_channel();
        let occ = node.subscription::<BoardOccupancy>("/board/occupancy", Qos::Events)?;
        let states = node.subscription::<GameState>("/game/state", Qos::State)?;
        let joints = node.subscription::<JointState>("/joint_states", Qos::Sensor)?;
        let t = tx.clone();
        node.spawn(async move {
            let mut s = occ.stream();
            while let Some(m) = s.next().await {
                if m.confirmed {
                    let _ = t.send((CONFIRM, ros::clock::seconds(&m.header.stamp)));
                }
            }
        });
        let t = tx.clone();
        node.spawn(async move {
            let mut s = states.stream();
            while let Some(m) = s.next().await {
                let _ = t.send((m.status, ros::clock::seconds(&m.header.stamp)));
            }
        });
        node.spawn(async move {
            let mut s = joints.stream();
            let mut last: Option<Vec<f64>> = None;
            while let Some(m) = s.next().await {
                let stamp = ros::clock::seconds(&m.header.stamp);
                if last.as_ref().is_some_and(|l| *l != m.position) {
                    let _ = tx.send((ARM, stamp));
                }
                let _ = tx.send((JOINTS, stamp));
                last = Some(m.position);
            }
        });
        Ok(Timings { node, rx })
    }

    /// Per robot move: confirm -> THINKING, THINKING -> MOVING (the planner), MOVING -> first
    /// joint change, the total minus the planning, MOVING -> VERIFYING (the arm's whole move),
    /// and the longest gap between two joint states while the arm moves.
    async fn report(mut self) {
        let mut marks = Vec::new();
        while let Ok(m) = self.rx.try_recv() {
            marks.push(m);
        }
        self.node.close().await;
        let mut rows = Vec::new();
        let mut i = 0;
        while i < marks.len() {
            if marks[i].0 != CONFIRM {
                i += 1;
                continue;
            }
            let confirm = marks[i].1;
            let find = |kind: u8, from: usize| {
                marks[from..]
                    .iter()
                    .position(|m| m.0 == kind)
                    .map(|p| p + from)
            };
            let (Some(a), Some(b)) = (
                find(GameState::STATUS_ROBOT_THINKING, i),
                find(GameState::STATUS_ROBOT_MOVING, i),
            ) else {
                break;
            };
            let Some(c) = find(ARM, b) else { break };
            let Some(d) = find(GameState::STATUS_VERIFYING, c) else {
                break;
            };
            // A move that went wrong (an arm fault, a board mismatch) is not checked by a
            // fresh scan: its VERIFYING would be the next move's.
            if find(CONFIRM, c).is_some_and(|next| next < d) {
                i = c + 1;
                continue;
            }
            let (thinking, moving, arm) = (marks[a].1, marks[b].1, marks[c].1);
            // The arm node's joint states come at a steady rate (50 Hz) whether the arm moves
            // or waits on its gripper: a long gap means it was starved of the cores (by a
            // ponder, say).
            let stamps: Vec<f64> = marks[c..d]
                .iter()
                .filter(|m| m.0 == JOINTS)
                .map(|m| m.1)
                .collect();
            let gap = stamps.windows(2).map(|w| w[1] - w[0]).fold(0.0, f64::max);
            rows.push([
                thinking - confirm,
                moving - thinking,
                arm - moving,
                arm - confirm - (moving - thinking),
                marks[d].1 - moving,
                gap,
            ]);
            i = d + 1;
        }
        if rows.is_empty() {
            println!("timings: none measured");
            return;
        }
        let ms = |v: f64| v * 1000.0;
        for (k, name) in [
            "confirm->thinking",
            "planning",
            "moving->arm",
            "confirm->arm minus planning",
            "the arm's move (moving->verifying)",
            "longest gap between joint states during the move",
        ]
        .iter()
        .enumerate()
        {
            let mut v: Vec<f64> = rows.iter().map(|r| r[k]).collect();
            v.sort_by(f64::total_cmp);
            println!(
                "timings: {name}: median {:.1} ms, max {:.1} ms over {} robot moves",
                ms(v[v.len() / 2]),
                ms(v[v.len() - 1]),
                v.len()
            );
        }
    }
}
