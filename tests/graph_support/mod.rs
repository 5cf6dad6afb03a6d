//! What the whole-graph tests share: the simulated robot launched by `checkers-robot launch`
//! in a private ROS domain and temp directory, and the graph client beside it, both from the
//! package's library ([`checkers_robot::graph`]): the tests drive the graph exactly as `watch`
//! and `play` do.

// Each test file uses its own part of what is shared here.
#![allow(dead_code)]

pub mod nodes;

pub use checkers_robot::graph::{client, sim};

use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::sync::{Mutex, MutexGuard};

use checkers_msgs::msg::GameState;
#[allow(unused_imports)]
pub use client::{event_kind, next_event, GraphClient};
use sim::{SimGraph, SimOptions};

/// Guards against hangs, not timing assertions: a graph starting on a busy 2-core machine
/// (discovery, homing) can take tens of seconds.
pub const START: Duration = Duration::from_secs(90);
pub const WAIT: Duration = Duration::from_secs(60);
/// The simulated world's speed: the arm and the human's pauses.
pub const TIME_SCALE: f64 = 20.0;

/// One graph at a time per test binary: each is six processes, and the machine has two cores.
/// (An async mutex: the guard is held across the test's awaits, and a failed test's guard
/// does not poison the next test's.)
static ONE_AT_A_TIME: Mutex<()> = Mutex::const_new(());

pub async fn serial() -> MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().await
}

/// A domain per test binary and test, away from the other test files' ranges (10..170 and
/// 170..195): 200..232.
/// The human plays the first legal move of `state`; then the first event of `kind` within
/// `within`. Panics with `what` and the log from `tail` when either fails.
pub async fn first_move_then(
    client: &GraphClient,
    state: &GameState,
    events: &mut tokio::sync::broadcast::Receiver<checkers_msgs::msg::GameEvent>,
    (kind, within, what): (u8, Duration, &str),
    tail: impl Fn() -> String,
) -> checkers_msgs::msg::GameEvent {
    let mv = state
        .legal_moves
        .first()
        .expect("a legal move")
        .text
        .clone();
    client
        .human_move(&mv, 0, true)
        .await
        .unwrap_or_else(|e| panic!("the human's move: {e:#}\n{}", tail()));
    next_event(events, within, |e| e.kind == kind)
        .await
        .unwrap_or_else(|e| panic!("{what}: {e:#}\n{}", tail()))
}

/// A keystore made by `checkers-robot security init` from the repository's policy, under `dir`.
pub fn keystore(dir: &Path) -> PathBuf {
    let ks = dir.join("keystore");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_checkers-robot"))
        .args(["security", "init"])
        .arg(&ks)
        .arg("--policy")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("config/security/policy.xml"))
        .output()
        .expect("checkers-robot runs");
    assert!(
        out.status.success(),
        "security init: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    ks
}

pub fn domain(salt: u16) -> u16 {
    sim::private_domain(200..232, salt)
}

/// The launch of the simulated robot at `level` on `domain`, everything under `dir`.
pub fn options(dir: &Path, domain: u16, level: &str) -> SimOptions {
    options_with(dir, domain, level, "native")
}

/// As [`options`], with `firmware:=` (`emulated` runs at time scale 1: the chip's own speed).
pub fn options_with(dir: &Path, domain: u16, level: &str, firmware: &str) -> SimOptions {
    SimOptions {
        exe: PathBuf::from(env!("CARGO_BIN_EXE_checkers-robot")),
        share: PathBuf::from(env!("CARGO_MANIFEST_DIR")),
        domain,
        level: level.to_string(),
        time_scale: if firmware == "native" {
            TIME_SCALE
        } else {
            1.0
        },
        run_dir: dir.to_path_buf(),
        log: Some(dir.join("launch.log")),
        keystore: None,
        firmware: firmware.to_string(),
        web_port: 0,
        args: Vec::new(),
        netns: None,
    }
}

pub struct Graph {
    pub client: GraphClient,
    pub sim: SimGraph,
    pub dir: tempfile::TempDir,
    pub domain: u16,
}

impl Graph {
    /// Launches the simulated robot at `level` and waits for the first human turn. A graph that
    /// does not come up is launched once more, on another domain, after its log is printed: a
    /// node has been seen (once, in CI) to stall while creating its DDS endpoints at start, and
    /// these tests are about the game, not about that start. The second failure panics.
    pub async fn start(salt: u16, level: &str) -> Graph {
        Graph::start_with(salt, level, "native").await
    }

    /// As [`Graph::start`], with the controllers' firmware `native` or `emulated`.
    pub async fn start_with(salt: u16, level: &str, firmware: &str) -> Graph {
        match Graph::try_start(salt, level, firmware).await {
            Ok(g) => g,
            Err(first) => {
                eprintln!("the graph did not come up; launching it again. {first}");
                match Graph::try_start(salt + 16, level, firmware).await {
                    Ok(g) => g,
                    Err(second) => panic!("the graph did not come up twice. {second}"),
                }
            }
        }
    }

    async fn try_start(salt: u16, level: &str, firmware: &str) -> Result<Graph, String> {
        let dir = tempfile::tempdir().expect("temp dir");
        let domain = domain(salt);
        let options = options_with(dir.path(), domain, level, firmware);
        let sim = SimGraph::launch(&options).expect("the launch starts");
        let client = GraphClient::connect(domain).expect("the client joins the domain");
        let g = Graph {
            client,
            sim,
            dir,
            domain,
        };
        let up = async {
            g.client.wait_ready(START).await?;
            g.client.wait_human(START).await?;
            g.client
                .wait_state(START, |s| s.status == GameState::STATUS_WAITING_FOR_HUMAN)
                .await
        };
        match up.await {
            Ok(_) => Ok(g),
            Err(e) => Err(format!(
                "{e:#} (domain {domain})\n--- launch log ---\n{}",
                g.tail()
            )),
        }
    }

    /// Waits until the board sensor reads the position `fen` on the board: the simulated human
    /// sets a new game's pieces up when the sim sees its state, which may be after the test
    /// does, and a move asked for before that is made on the old board.
    pub async fn board_shows(&self, fen: &str) {
        let want = draughts::parse_fen(fen).expect("fen").occupancy_mask();
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            if self.client.scan().await.is_ok_and(|seen| seen == want) {
                return;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "the board was not set up for {fen}\n{}",
                self.tail()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The text of the first archived PDN that satisfies `pred`, waiting up to 10 s for the
    /// arbiter to write it; panics with `what` when none does.
    pub async fn archived_pdn(&self, what: &str, pred: impl Fn(&String) -> bool) -> String {
        for _ in 0..100 {
            let found = sim::archived_games(&self.sim.state_dir)
                .iter()
                .filter_map(|f| std::fs::read_to_string(f).ok())
                .find(&pred);
            if let Some(text) = found {
                return text;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!(
            "{what}: no such archived PDN in {}",
            self.sim.state_dir.display()
        )
    }

    /// The launch's output so far (every node's log lines), for failure messages.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("launch.log")).unwrap_or_default()
    }

    /// Panics with the launch log when the graph does not get there.
    pub async fn state(
        &self,
        timeout: Duration,
        what: &str,
        pred: impl FnMut(&GameState) -> bool,
    ) -> GameState {
        match self.client.wait_state(timeout, pred).await {
            Ok(s) => s,
            Err(e) => panic!("{what}: {e:#}\n--- launch log ---\n{}", self.tail()),
        }
    }

    /// The human's turn again (or the game's end) after `ply`.
    pub async fn human_turn_after(&self, ply: u32) -> GameState {
        self.state(WAIT, "the human's turn", |s| {
            s.ply > ply && (s.status == GameState::STATUS_WAITING_FOR_HUMAN || over(s))
        })
        .await
    }

    /// The process id of node `label`, as the launcher reported it ("started planner (pid N)").
    pub fn pid(&self, label: &str) -> nix::unistd::Pid {
        let pid = sim::latest_pids(&self.log()).get(label).copied();
        let pid = pid.unwrap_or_else(|| panic!("no pid of {label} in the launch log"));
        nix::unistd::Pid::from_raw(pid as i32)
    }

    /// The last lines of the launch log.
    pub fn tail(&self) -> String {
        let log = self.log();
        let lines: Vec<&str> = log.lines().collect();
        lines[lines.len().saturating_sub(60)..].join("\n")
    }
}

pub fn over(s: &GameState) -> bool {
    s.status >= GameState::STATUS_WHITE_WON
}

/// After this many plies the human resigns: the tests are about the graph, not about the
/// game's length, and a resignation ends a game as properly as a mate.
pub const MAX_PLIES: u32 = 160;

/// Plays the human's side from `state` (the human's turn) to the game's end, as `watch` does:
/// a strong human (alpha-beta at depth 4), resigning at [`MAX_PLIES`]. Panics with `log()`
/// when the graph does not answer. Returns the final state.
pub async fn play_human_to_the_end(
    client: &GraphClient,
    state: GameState,
    log: impl Fn() -> String,
) -> GameState {
    play_human(client, state, u32::MAX, log).await
}

/// As [`play_human_to_the_end`], but returns at the human's turn once `plies` have been played
/// (or at the game's end, if sooner).
pub async fn play_human(
    client: &GraphClient,
    mut state: GameState,
    plies: u32,
    log: impl Fn() -> String,
) -> GameState {
    use checkers_msgs::convert::position_from_msg;
    use checkers_msgs::srv::HumanMove_Request;
    use draughts::Game;
    use search::{Control, PlannerSpec};

    let spec: PlannerSpec = "alphabeta:depth=4".parse().expect("planner spec");
    let mut human = spec.build();
    let game_id = state.game_id;
    while !over(&state) && state.ply < plies {
        assert_eq!(
            state.status,
            GameState::STATUS_WAITING_FOR_HUMAN,
            "{state:?}"
        );
        if state.ply >= MAX_PLIES {
            client.resign(0).await.expect("the human resigns");
            return wait_or_panic(client, "the end after resigning", over, &log).await;
        }
        let pos = position_from_msg(&state.position).expect("a valid position");
        let d = human
            .choose(
                &Game::from_position(pos),
                &spec.limits(),
                &Control::default(),
            )
            .expect("the human's move");
        let text = d.best.text();
        let done = client
            .human_move(&text, HumanMove_Request::ERROR_NONE, true)
            .await
            .expect("the human plays");
        assert_eq!(done.performed_text, text);
        let ply = state.ply;
        state = wait_or_panic(
            client,
            "the human's turn",
            |s: &GameState| {
                s.ply > ply && (s.status == GameState::STATUS_WAITING_FOR_HUMAN || over(s))
            },
            &log,
        )
        .await;
        assert_eq!(state.game_id, game_id, "still the same game");
    }
    state
}

/// The first state within [`WAIT`] that satisfies `pred`; panics with `what` and `log()`.
async fn wait_or_panic(
    client: &GraphClient,
    what: &str,
    pred: impl FnMut(&GameState) -> bool,
    log: &impl Fn() -> String,
) -> GameState {
    match client.wait_state(WAIT, pred).await {
        Ok(s) => s,
        Err(e) => panic!("{what}: {e:#}\n--- launch log ---\n{}", log()),
    }
}
