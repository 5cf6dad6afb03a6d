//! The simulated robot as child processes: `checkers-robot launch launch/sim.launch.xml` (the
//! same launcher a person runs, so the graph under test is the one people launch) on a private
//! ROS domain, run directory and state directory. Dropping a [`SimGraph`] stops it the way
//! Ctrl-C would: SIGINT to the launcher, which stops every node, then SIGKILL if it hangs.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

use super::{GraphError, Result};

/// How long the launcher gets to stop its nodes (its own grace is 5 s, then it kills them).
const STOP: Duration = Duration::from_secs(10);

/// What to launch.
#[derive(Debug, Clone)]
pub struct SimOptions {
    /// The `checkers-robot` executable (the node executables lie beside it).
    pub exe: PathBuf,
    /// The repository (or installed share) directory holding `launch/sim.launch.xml`.
    pub share: PathBuf,
    pub domain: u16,
    /// `difficulty:=` (a config/difficulty level).
    pub level: String,
    pub time_scale: f64,
    /// Where the pty links, the arbiter's state and the launch log go.
    pub run_dir: PathBuf,
    /// Where the launch output goes; None: this process's stdout and stderr.
    pub log: Option<PathBuf>,
    /// An SROS2 keystore: the graph runs secured (`secure:=true keystore:=DIR`); None: as the
    /// environment says.
    pub keystore: Option<PathBuf>,
    /// `firmware:=`: `native` (the firmware core here) or `emulated` (the Pico binaries in the
    /// RP2040 emulator, docs/firmware.md).
    pub firmware: String,
    /// `web_port:=`: the web window's port (the next free one of ten), 0: any free port.
    pub web_port: u16,
    /// More launch arguments (`record:=false`).
    pub args: Vec<String>,
    /// The network namespace to launch in (`ip netns exec NS`), standing for a computer of its
    /// own: discovery then reaches its subnet instead of stopping at loopback.
    pub netns: Option<String>,
}

/// A running launch; stopped on drop.
#[derive(Debug)]
pub struct SimGraph {
    child: Child,
    pub run_dir: PathBuf,
    pub state_dir: PathBuf,
}

impl SimGraph {
    pub fn launch(o: &SimOptions) -> Result<SimGraph> {
        let state_dir = o.run_dir.join("arbiter");
        std::fs::create_dir_all(&state_dir).map_err(|source| GraphError::Launch {
            what: "creating",
            path: state_dir.clone(),
            source,
        })?;
        let mut cmd = launch_command(o, &state_dir);
        cmd.stdin(Stdio::null())
            // Our own process group: a terminal's Ctrl-C reaches us, and we stop the launch
            // once, in order, after the game's last words are printed.
            .process_group(0);
        if let Some(log) = &o.log {
            let launch_error = |what| {
                move |source| GraphError::Launch {
                    what,
                    path: log.clone(),
                    source,
                }
            };
            let out = std::fs::File::create(log).map_err(launch_error("creating"))?;
            let err = out.try_clone().map_err(launch_error("sharing"))?;
            cmd.stdout(out).stderr(err);
        }
        let child = cmd.spawn().map_err(|source| GraphError::Launch {
            what: "starting",
            path: o.exe.clone(),
            source,
        })?;
        tracing::info!(
            pid = child.id(),
            domain = o.domain,
            "launched the simulated robot"
        );
        Ok(SimGraph {
            child,
            run_dir: o.run_dir.clone(),
            state_dir,
        })
    }

    /// The launcher's exit status if it has ended (a node died, or it failed to start).
    pub fn exited(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// SIGINT to the launcher, then SIGKILL after [`STOP`].
    pub fn stop(&mut self) {
        if self.exited().is_some() {
            return;
        }
        if let Ok(pid) = i32::try_from(self.child.id()) {
            let _ = kill(Pid::from_raw(pid), Signal::SIGINT);
        }
        let deadline = Instant::now() + STOP;
        while Instant::now() < deadline {
            if self.exited().is_some() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        tracing::warn!("the launch did not stop in time: killing it");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for SimGraph {
    fn drop(&mut self) {
        self.stop();
    }
}

/// `checkers-robot launch launch/sim.launch.xml` with `o`'s arguments, on `o`'s domain.
fn launch_command(o: &SimOptions, state_dir: &Path) -> Command {
    let file = o.share.join("launch").join("sim.launch.xml");
    let mut cmd = match &o.netns {
        Some(ns) => {
            let mut ip = Command::new("ip");
            ip.args(["netns", "exec", ns.as_str()]).arg(&o.exe);
            ip
        }
        None => Command::new(&o.exe),
    };
    let range = if o.netns.is_some() {
        "SUBNET"
    } else {
        "LOCALHOST"
    };
    cmd.arg("launch")
        .arg(&file)
        .arg(format!("difficulty:={}", o.level))
        .arg(format!("time_scale:={}", o.time_scale))
        .arg(format!("run_dir:={}", o.run_dir.display()))
        .arg(format!("state_dir:={}", state_dir.display()))
        .arg(format!("firmware:={}", o.firmware))
        .arg(format!("web_port:={}", o.web_port))
        .args(&o.args)
        .env("ROS_DOMAIN_ID", o.domain.to_string())
        .env("ROS_AUTOMATIC_DISCOVERY_RANGE", range);
    if let Some(keystore) = &o.keystore {
        cmd.arg("secure:=true")
            .arg(format!("keystore:={}", keystore.display()));
    }
    cmd
}

/// The planner alone, as the launch starts it (`node planner_node` as `/planner`, its level's
/// settings), on a computer of its own (`netns`): the robot thinking on a second computer.
/// Discovery reaches the subnet; with a `keystore`, secured in the planner's enclave.
pub fn planner_command(
    exe: &Path,
    params: &Path,
    domain: u16,
    netns: &str,
    keystore: Option<&Path>,
) -> Command {
    let mut cmd = Command::new("ip");
    cmd.args(["netns", "exec", netns])
        .arg(exe)
        .args([
            "node",
            "planner_node",
            "--ros-args",
            "-r",
            "__node:=planner",
        ])
        .arg("--params-file")
        .arg(params)
        .env("ROS_DOMAIN_ID", domain.to_string())
        .env("ROS_AUTOMATIC_DISCOVERY_RANGE", "SUBNET");
    if let Some(keystore) = keystore {
        cmd.args(["--enclave", "/checkers/planner"])
            .env("ROS_SECURITY_ENABLE", "true")
            .env("ROS_SECURITY_STRATEGY", "Enforce")
            .env("ROS_SECURITY_KEYSTORE", keystore);
    }
    cmd
}

/// The nodes the launch would start, as `checkers-robot launch --dry-run` prints them:
/// (label, shell-quoted command line). For running the nodes one by one, e.g. to kill and
/// restart one, which the launcher does not do (a node that dies stops the whole launch).
pub fn dry_run(o: &SimOptions) -> Result<Vec<(String, String)>> {
    let state_dir = o.run_dir.join("arbiter");
    let out = launch_command(o, &state_dir)
        .arg("--dry-run")
        .stdin(Stdio::null())
        .output()
        .map_err(|source| GraphError::Launch {
            what: "running",
            path: o.exe.clone(),
            source,
        })?;
    if !out.status.success() {
        return Err(GraphError::DryRun(format!(
            "failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    let nodes: Vec<(String, String)> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(label, cmd)| (label.to_string(), cmd.to_string()))
        .collect();
    if nodes.is_empty() {
        return Err(GraphError::DryRun("it listed no nodes".into()));
    }
    Ok(nodes)
}

/// The finished games the arbiter archived (`state_dir/games/*.pdn`), oldest first.
pub fn archived_games(state_dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(state_dir.join("games"))
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "pdn"))
                .collect()
        })
        .unwrap_or_default();
    v.sort_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
    v
}

/// The web window's address and its player's link, once its node listens (sim.launch.xml
/// has it write them to `RUN_DIR/web_url`): (URL, URL with the player's key).
pub fn web_url(run_dir: &Path) -> Option<(String, String)> {
    let text = std::fs::read_to_string(run_dir.join("web_url")).ok()?;
    let mut lines = text.lines();
    let url = lines.next()?.to_string();
    let key = lines.next()?;
    Some((url.clone(), format!("{url}?key={key}")))
}

/// A ROS domain id for a private graph: from this process's id, inside `range`, skipping any
/// domain a participant on this machine already uses, so that parallel runs (tests, a second
/// `watch` or `soak`) do not share one. Two robots in one domain hear each other's requests: a
/// test's `/game/new` once started a new game on a soak's robot.
pub fn private_domain(range: std::ops::Range<u16>, salt: u16) -> u16 {
    let span = u32::from(range.end.saturating_sub(range.start).max(1));
    let first = (std::process::id().wrapping_mul(7) + u32::from(salt)) % span;
    let pick = |i: u32| range.start + u16::try_from((first + i) % span).unwrap_or(0);
    (0..span)
        .map(pick)
        .find(|&d| !domain_in_use(d))
        .unwrap_or_else(|| pick(0))
}

/// Whether a DDS participant on this machine holds domain `domain`: the first one there takes
/// participant index 0, whose unicast discovery port (RTPS 9.6.1.1: 7400 + 250 d + 10) is then
/// bound.
fn domain_in_use(domain: u16) -> bool {
    let port = 7410 + 250 * u32::from(domain);
    match u16::try_from(port) {
        Ok(port) => std::net::UdpSocket::bind(("0.0.0.0", port)).is_err(),
        Err(_) => false,
    }
}

/// The pid of each node's latest start, from the launcher's `[launch] started NODE (pid N)`.
pub fn latest_pids(launch_log: &str) -> std::collections::BTreeMap<String, u32> {
    let mut pids = std::collections::BTreeMap::new();
    for line in launch_log.lines() {
        let Some(rest) = line.split("[launch] started ").nth(1) else {
            continue;
        };
        let Some((node, pid)) = rest.split_once(" (pid ") else {
            continue;
        };
        if let Ok(pid) = pid.trim_end_matches(')').trim().parse() {
            pids.insert(node.to_string(), pid);
        }
    }
    pids
}
