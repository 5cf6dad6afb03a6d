//! `checkers-robot soak`: game after game against one launch of the simulated robot, with
//! faults of the sim's and node kills drawn at random, as `watch` plays them otherwise. The
//! simulated human does what a person at the robot does: it puts the board right when asked,
//! presses confirm again when a press was lost, resolves an ambiguous move. Checked: every game
//! ends, every archived PDN replays to the game's end, the games differ for either colour, and
//! each node's memory and open files (`health`) after every game; ERROR lines of the launch
//! are counted. With `--planner-apart` the planner thinks on a second computer over a link that
//! drops (`apart`). docs/soak.md has the long runs' figures.

mod apart;
mod faults;
mod health;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use checkers_msgs::convert::position_from_msg;
use checkers_msgs::msg::{GameEvent, GameState};
use checkers_msgs::srv::{HumanMove_Request, NewGame_Request};
use indicatif::{ProgressBar, ProgressStyle};
use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use sim::rng::Rng;

use super::best::resolve_spec;
use super::watch::{human_move_text, line};
use apart::Apart;
use checkers_robot::graph::client::{describe_state, GraphClient, PLAY_ENCLAVE};
use checkers_robot::graph::sim::{
    archived_games, latest_pids, private_domain, SimGraph, SimOptions,
};
use faults::{Fault, NetFault, Turn};
use health::Health;
use ros::security::{SecurityEnv, Strategy};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The robot's difficulty level (config/difficulty/LEVEL.yaml).
    #[arg(long, default_value = "easy")]
    level: String,
    /// The simulated human's planner (`alphabeta:depth=2`, `random`, `level:NAME`).
    #[arg(long, default_value = "alphabeta:depth=2")]
    opponent: String,
    /// The most games to play.
    #[arg(long, default_value_t = 10)]
    games: u32,
    /// Stop after the game in which this much time has passed (`90m`, `3600s`), if that comes
    /// before `--games`: a soak at `--time-scale 1` is measured in hours, not games.
    #[arg(long, value_parser = search::parse_duration)]
    duration: Option<Duration>,
    /// Speed of the simulated world (arm, human); the arm node allows up to 1000.
    #[arg(long, default_value_t = 200.0)]
    time_scale: f64,
    /// Plies after which the human resigns.
    #[arg(long, default_value_t = 120)]
    max_plies: u32,
    /// Where the difficulty levels are (for `level:NAME` opponents).
    #[arg(long, default_value = "config/difficulty")]
    levels: PathBuf,
    /// Chance, per robot turn, that one of the sim's faults is in force for it.
    #[arg(long, default_value_t = 0.1)]
    fault_rate: f64,
    /// Chance, per robot turn, that a node of the robot is killed (SIGKILL) in it.
    #[arg(long, default_value_t = 0.03)]
    kill_rate: f64,
    /// The planner on a second computer (a network namespace of its own, joined to the robot's
    /// by a veth pair; root only), the link to it lossy or cut in some of the robot's turns.
    #[arg(long)]
    planner_apart: bool,
    /// With `--planner-apart`: chance, per robot turn, that the link loses 30% of its packets
    /// (until the human's next turn) or is cut for 20 s, either alike.
    #[arg(long, default_value_t = 0.1)]
    net_fault_rate: f64,
    /// Secured: a keystore made for the run (`security init` with config/security/policy.xml),
    /// every node in its enclave under Enforce, the soak's client in the play enclave.
    #[arg(long)]
    secure: bool,
    /// Seed of the faults and kills drawn (0: a random one).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// A state that has not changed for this long is looked at again (a confirm lost, a kill's
/// lease running out).
const STALL: Duration = Duration::from_secs(20);
/// Longer than this without any change, and the robot is stuck: the soak fails.
const STUCK: Duration = Duration::from_secs(180);
/// A kill lands within this much of the human's confirm: the robot thinks, moves, scans.
const KILL_WITHIN: Duration = Duration::from_millis(2500);
/// A game in which the board has to be put right more often than this is stuck.
const MAX_PUT_RIGHT: u32 = 30;

/// What the soak counted.
#[derive(Debug, Default)]
struct Tally {
    results: BTreeMap<String, u32>,
    faults: BTreeMap<&'static str, u32>,
    /// Kills that landed (one drawn while the node was still down from the last is moot).
    kills: std::sync::Arc<std::sync::Mutex<BTreeMap<&'static str, u32>>>,
    /// The arbiter said the planner did not answer and waited for it (`KIND_PLANNER_AWAY`).
    planner_away: u32,
    /// The arbiter played without the planner (`KIND_PLANNER_TIMEOUT`).
    planner_timeouts: u32,
    put_right: u32,
    confirmed_again: u32,
    resolved: u32,
    replayed: u32,
    /// The moves of each game, by the colour the human played.
    games: BTreeMap<&'static str, BTreeSet<String>>,
    played: BTreeMap<&'static str, u32>,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let spec = resolve_spec(&args.opponent, &args.levels)?;
    if !(args.time_scale.is_finite() && args.time_scale > 0.0) {
        return Err(super::bad_input("--time-scale must be positive"));
    }
    for (name, rate) in [
        ("--fault-rate", args.fault_rate),
        ("--kill-rate", args.kill_rate),
        ("--net-fault-rate", args.net_fault_rate),
    ] {
        if !(0.0..=1.0).contains(&rate) {
            return Err(super::bad_input(format!("{name} must be within 0..1")));
        }
    }
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")?
        .block_on(soak(args, &spec))
}

async fn soak(args: &Args, spec: &search::PlannerSpec) -> anyhow::Result<ExitCode> {
    let run_dir = std::env::temp_dir().join(format!("checkers_soak_{}", std::process::id()));
    std::fs::create_dir_all(&run_dir).with_context(|| format!("creating {}", run_dir.display()))?;
    let log = run_dir.join("launch.log");
    let exe = std::env::current_exe().context("finding this executable")?;
    let share = checkers_robot::launch::find_share(
        &std::env::current_dir().context("reading the working directory")?,
    );
    let domain = private_domain(150..170, 0);
    let keystore = if args.secure {
        let ks = run_dir.join("keystore");
        let policy = share.join("config/security/policy.xml");
        sros2::init(&ks, &policy, &[])
            .with_context(|| format!("making the keystore {}", ks.display()))?;
        Some(ks)
    } else {
        None
    };
    let security = keystore.as_ref().map(|ks| SecurityEnv {
        strategy: Strategy::Enforce,
        keystore: Some(ks.clone()),
        enclave_override: None,
    });
    // Made before the launch and so dropped after it: the namespaces outlive the nodes in them.
    let mut apart = if args.planner_apart {
        let ks = keystore.as_deref();
        Some(Apart::start(
            &exe,
            &share,
            &args.level,
            domain,
            &run_dir,
            ks,
        )?)
    } else {
        None
    };
    let options = SimOptions {
        exe,
        share,
        domain,
        level: args.level.clone(),
        time_scale: args.time_scale,
        run_dir: run_dir.clone(),
        log: Some(log.clone()),
        keystore: keystore.clone(),
        firmware: "native".to_string(),
        web_port: 0,
        args: match apart {
            Some(_) => vec!["planner:=false".to_string()],
            None => Vec::new(),
        },
        netns: apart.as_ref().map(|a| a.link.a.ns.clone()),
    };
    let mut graph = SimGraph::launch(&options)?;
    let client = match &apart {
        Some(a) => a.client(domain, security)?,
        None if security.is_some() => GraphClient::connect_with(domain, security, PLAY_ENCLAVE)?,
        None => GraphClient::connect(domain)?,
    };
    let logs: Vec<PathBuf> = std::iter::once(log.clone())
        .chain(apart.as_ref().map(|a| a.log.clone()))
        .collect();
    let ready = async {
        client.wait_ready(Duration::from_secs(120)).await?;
        client.wait_human(Duration::from_secs(60)).await
    };
    ready
        .await
        .with_context(|| format!("the robot did not start (launch log: {})", log.display()))?;
    println!("soak: launch log {}", log.display());
    if let Some(a) = &apart {
        println!(
            "soak: the planner on a second computer ({} -> {}), its log {}",
            a.link.a.addr,
            a.link.b.addr,
            a.log.display()
        );
    }
    let started = Instant::now();
    let mut tally = Tally::default();
    let mut health = Health::default();
    let mut rng = Rng::new(args.seed);
    let mut soak = Soak {
        args,
        spec,
        client: &client,
        events: client.events(),
        logs: &logs,
        apart: apart.as_mut(),
        rng: &mut rng,
        tally: &mut tally,
    };
    let bar = ProgressBar::new(u64::from(args.games)).with_style(
        ProgressStyle::with_template("{bar:30} game {pos}/{len} [{elapsed}] {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut failed = None;
    for n in 1..=args.games {
        bar.set_position(u64::from(n - 1));
        if let Some(status) = graph.exited() {
            failed = Some(format!("the launch ended ({status})"));
            break;
        }
        match soak.game(n, &graph.state_dir).await {
            Ok(text) => line(&bar, text),
            Err(e) => {
                failed = Some(format!("game {n}: {e:#}"));
                break;
            }
        }
        health.sample(&read_logs(&logs), started.elapsed());
        line(&bar, format!("health: {}", health.latest()));
        if args.duration.is_some_and(|d| started.elapsed() >= d) {
            line(
                &bar,
                format!(
                    "soak: {n} games in {:.0?}, the time asked for",
                    started.elapsed()
                ),
            );
            break;
        }
    }
    bar.finish_and_clear();
    report(&tally, &health, &read_logs(&logs), started.elapsed());
    client.close().await;
    graph.stop();
    drop(apart);
    match failed {
        Some(why) => {
            println!("soak FAILED: {why} (launch log: {})", log.display());
            Ok(ExitCode::FAILURE)
        }
        None => Ok(ExitCode::SUCCESS),
    }
}

/// The launch's log, and the apart planner's after it.
fn read_logs(logs: &[PathBuf]) -> String {
    logs.iter()
        .map(|l| std::fs::read_to_string(l).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

struct Soak<'a> {
    args: &'a Args,
    spec: &'a search::PlannerSpec,
    client: &'a GraphClient,
    events: tokio::sync::broadcast::Receiver<GameEvent>,
    logs: &'a [PathBuf],
    apart: Option<&'a mut Apart>,
    rng: &'a mut Rng,
    tally: &'a mut Tally,
}

impl Soak<'_> {
    /// Game `n`, from `/game/new` to its archived PDN replayed; its result line.
    async fn game(&mut self, n: u32, state_dir: &Path) -> anyhow::Result<String> {
        let client = self.client;
        let game_start = Instant::now();
        // The simulated human plays White in odd games, Black in even ones.
        let (robot_color, human_side) = if n.is_multiple_of(2) {
            (NewGame_Request::SIDE_WHITE, "Black")
        } else {
            (NewGame_Request::SIDE_BLACK, "White")
        };
        let before = client.state().map(|s| s.game_id);
        client.new_game(robot_color, "", "").await?;
        let mut state = client
            .wait_state(STUCK, |s| {
                Some(s.game_id) != before && s.robot_color == robot_color && s.ply <= 1
            })
            .await?;
        let mut human = self
            .spec
            .with_seed(self.spec.seed().wrapping_add(u64::from(n)))
            .build();
        let openings = search::built_in_openings();
        let mut moved_at: Option<u32> = None;
        let mut in_force: Option<Fault> = None;
        let mut lossy = false;
        let mut put_right = 0;
        let mut last_move = String::new();
        let mut unchanged = Duration::ZERO;
        while state.status < GameState::STATUS_WHITE_WON {
            match state.status {
                GameState::STATUS_WAITING_FOR_HUMAN if moved_at == Some(state.ply) => {
                    // Moved, and nothing came of it: the press was lost (a board sensor that
                    // died under it). A person presses again.
                    if let Some(f) = in_force.take() {
                        client.set_fault(f.clear, STALL).await?;
                    }
                    self.heal(&mut lossy)?;
                    client
                        .human_move("", HumanMove_Request::ERROR_NO_MOVE, true)
                        .await?;
                    self.tally.confirmed_again += 1;
                }
                GameState::STATUS_WAITING_FOR_HUMAN => {
                    if let Some(f) = in_force.take() {
                        client.set_fault(f.clear, STALL).await?;
                    }
                    self.heal(&mut lossy)?;
                    if state.ply >= self.args.max_plies {
                        client.resign(state.position.side_to_move).await?;
                    } else {
                        let pos =
                            position_from_msg(&state.position).context("the arbiter's position")?;
                        last_move = human_move_text(
                            &openings,
                            state.ply,
                            pos,
                            n,
                            human.as_mut(),
                            self.spec,
                        )?;
                        let turn = faults::draw(
                            self.rng,
                            self.args.fault_rate,
                            self.args.kill_rate,
                            KILL_WITHIN,
                        );
                        // Before the confirm, so that the robot's whole turn meets it.
                        lossy = self.trouble_link()?;
                        client
                            .human_move(&last_move, HumanMove_Request::ERROR_NONE, true)
                            .await?;
                        moved_at = Some(state.ply);
                        self.kill_later(&turn);
                        in_force = self.set_fault(&turn).await?;
                    }
                }
                GameState::STATUS_BOARD_MISMATCH | GameState::STATUS_ERROR => {
                    put_right += 1;
                    if put_right > MAX_PUT_RIGHT {
                        bail!(
                            "the board was put right {MAX_PUT_RIGHT} times in one game: {}",
                            describe_state(&state)
                        );
                    }
                    // Whatever stands (a robot's move the arm did not finish included), as a
                    // person sets it up and confirms.
                    client
                        .human_move("", HumanMove_Request::ERROR_SET_UP, true)
                        .await?;
                    self.tally.put_right += 1;
                }
                GameState::STATUS_AMBIGUOUS => {
                    client.resolve(0, &last_move).await?;
                    self.tally.resolved += 1;
                }
                _ => {}
            }
            self.count_planner_events();
            let seen = state.clone();
            match client
                .wait_state(STALL, |s| {
                    (s.game_id, s.ply, s.status) != (seen.game_id, seen.ply, seen.status)
                })
                .await
            {
                Ok(s) => {
                    state = s;
                    unchanged = Duration::ZERO;
                }
                Err(_) => {
                    unchanged += STALL;
                    if unchanged >= STUCK {
                        bail!("nothing happened for {STUCK:?}: {}", describe_state(&state));
                    }
                }
            }
        }
        if let Some(f) = in_force.take() {
            client.set_fault(f.clear, STALL).await?;
        }
        self.heal(&mut lossy)?;
        self.count_planner_events();
        let moves = self.replayed(n, state_dir, &state).await?;
        self.tally
            .games
            .entry(human_side)
            .or_default()
            .insert(moves);
        *self.tally.played.entry(human_side).or_default() += 1;
        *self.tally.results.entry(state.result.clone()).or_default() += 1;
        Ok(format!(
            "game {n}: {} ({}), the human playing {human_side}, {} plies in {:.1} s; its PDN replays",
            state.result,
            state.result_reason,
            state.ply,
            game_start.elapsed().as_secs_f64()
        ))
    }

    /// Sets the turn's fault once the human has confirmed, for the robot's turn; returns it,
    /// to be taken back at the human's next turn.
    async fn set_fault(&mut self, turn: &Turn) -> anyhow::Result<Option<Fault>> {
        let Some(f) = turn.fault else { return Ok(None) };
        self.client.set_fault(f.set, STALL).await?;
        *self.tally.faults.entry(f.name).or_default() += 1;
        Ok(Some(f))
    }

    /// With the planner apart, draws the link's trouble for the robot's turn and sets it: a
    /// loss (true: to be healed at the human's next turn) or a cut, which mends itself. Nothing
    /// is drawn while the last cut is still on.
    fn trouble_link(&mut self) -> anyhow::Result<bool> {
        let Some(apart) = self.apart.as_deref_mut() else {
            return Ok(false);
        };
        if apart.cut_pending()? {
            return Ok(false);
        }
        let Some(f) = faults::draw_net(self.rng, self.args.net_fault_rate) else {
            return Ok(false);
        };
        *self.tally.faults.entry(f.name()).or_default() += 1;
        match f {
            NetFault::Loss => {
                apart
                    .link
                    .lose(apart::LOSS_PERCENT)
                    .context("making the link lossy")?;
                Ok(true)
            }
            NetFault::Cut => {
                apart.cut()?;
                Ok(false)
            }
        }
    }

    /// Ends the link's loss, if one is on.
    fn heal(&mut self, lossy: &mut bool) -> anyhow::Result<()> {
        if let (true, Some(apart)) = (*lossy, self.apart.as_deref()) {
            apart.link.heal().context("ending the link's loss")?;
        }
        *lossy = false;
        Ok(())
    }

    /// Counts what the arbiter said of an absent planner since the last look.
    fn count_planner_events(&mut self) {
        use tokio::sync::broadcast::error::TryRecvError;
        loop {
            match self.events.try_recv() {
                Ok(e) if e.kind == GameEvent::KIND_PLANNER_AWAY => self.tally.planner_away += 1,
                Ok(e) if e.kind == GameEvent::KIND_PLANNER_TIMEOUT => {
                    self.tally.planner_timeouts += 1
                }
                Ok(_) | Err(TryRecvError::Lagged(_)) => {}
                Err(TryRecvError::Empty | TryRecvError::Closed) => break,
            }
        }
    }

    /// Kills the turn's node at its moment after the human's confirm (in the background: the
    /// soak goes on watching the game).
    fn kill_later(&mut self, turn: &Turn) {
        let Some((node, after)) = turn.kill else {
            return;
        };
        let kills = std::sync::Arc::clone(&self.tally.kills);
        let logs = self.logs.to_vec();
        tokio::spawn(async move {
            tokio::time::sleep(after).await;
            let pid = latest_pids(&read_logs(&logs)).get(node).copied();
            match pid.and_then(|p| i32::try_from(p).ok()) {
                Some(pid) => match kill(Pid::from_raw(pid), Signal::SIGKILL) {
                    Ok(()) => {
                        *kills
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .entry(node)
                            .or_default() += 1;
                    }
                    // Still down from the last kill, not yet respawned.
                    Err(nix::errno::Errno::ESRCH) => {}
                    Err(e) => tracing::warn!("killing {node} ({pid}): {e}"),
                },
                None => tracing::warn!("no pid of {node} in the launch log"),
            }
        });
    }

    /// Waits for game `n`'s PDN (the arbiter writes it as the game ends), replays it and checks
    /// it reaches the game's last ply; its moves, for telling games apart.
    async fn replayed(
        &mut self,
        n: u32,
        state_dir: &Path,
        state: &GameState,
    ) -> anyhow::Result<String> {
        let deadline = Instant::now() + STALL;
        let path = loop {
            let games = archived_games(state_dir);
            if games.len() >= n as usize {
                break games.last().cloned();
            }
            if Instant::now() > deadline {
                break None;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        let path = path.with_context(|| format!("game {n} was not archived"))?;
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let games =
            draughts::parse_pdn(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let game = games
            .first()
            .with_context(|| format!("{}: no game", path.display()))?;
        let replay = game
            .replay()
            .map_err(|e| anyhow::anyhow!("{} does not replay: {e}", path.display()))?;
        if replay.ply_count() != state.ply as usize {
            bail!(
                "{} replays to ply {}, the game ended at {}",
                path.display(),
                replay.ply_count(),
                state.ply
            );
        }
        self.tally.replayed += 1;
        Ok(game
            .moves
            .iter()
            .map(|(m, _)| m.as_str())
            .collect::<Vec<_>>()
            .join(" "))
    }
}

/// The summary: games and results, what was done to the robot, what the human had to do, the
/// distinct games per colour, ERROR lines, and each node's memory and open files.
fn report(t: &Tally, health: &Health, log: &str, took: Duration) {
    let games: u32 = t.results.values().sum();
    let list = |m: &BTreeMap<&str, u32>| {
        if m.is_empty() {
            "none".to_string()
        } else {
            m.iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    println!(
        "soak: {games} games in {:.1} min, results {}; {} PDNs replayed",
        took.as_secs_f64() / 60.0,
        t.results
            .iter()
            .map(|(k, v)| format!("{k} x{v}"))
            .collect::<Vec<_>>()
            .join(", "),
        t.replayed
    );
    println!("soak: faults {}", list(&t.faults));
    println!(
        "soak: kills {}",
        list(&t.kills.lock().unwrap_or_else(|p| p.into_inner()))
    );
    println!(
        "soak: the planner did not answer {} times (the arbiter waited), the robot played without it {} times",
        t.planner_away, t.planner_timeouts
    );
    println!(
        "soak: the human put the board right {} times, pressed confirm again {} times, resolved {} ambiguities",
        t.put_right, t.confirmed_again, t.resolved
    );
    for (side, games) in &t.games {
        println!(
            "soak: the human playing {side}: {} distinct games of {}",
            games.len(),
            t.played.get(side).copied().unwrap_or(0)
        );
    }
    let errors: Vec<&str> = log.lines().filter(|l| l.contains("ERROR")).collect();
    println!("soak: {} ERROR lines in the launch log", errors.len());
    for l in errors.iter().take(10) {
        println!("  {l}");
    }
    for line in health.report() {
        println!("health: {line}");
    }
}
