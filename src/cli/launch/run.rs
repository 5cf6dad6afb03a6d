//! Supervising the launched nodes: their output line by line under their names, Ctrl-C (or
//! SIGTERM) forwarded as SIGINT, a grace period, then SIGKILL. A node with `respawn` is
//! started again after its `respawn_delay`, as `ros2 launch` does; the first other node to die
//! takes the launch down with it, named.

use std::io::Write;
use std::path::PathBuf;
use std::process::{ExitCode, ExitStatus, Stdio};
use std::time::Duration;

use anyhow::{anyhow, bail, Context};
use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::process::Command;
use tokio::signal::unix::{signal, SignalKind};
use tokio::sync::mpsc;

use checkers_robot::launch::NodeSpec;

/// How long killed nodes get to be reaped and their last output to be printed.
const DRAIN: Duration = Duration::from_secs(2);

#[derive(Debug)]
struct Proc {
    label: String,
    pid: Option<Pid>,
    exited: bool,
}

/// Why the launch is ending.
#[derive(Debug)]
enum Cause {
    Signal(&'static str),
    Died(usize, std::io::Result<ExitStatus>),
    StartFailed(anyhow::Error),
}

/// One node to start: the program and its whole command line.
#[derive(Debug)]
pub struct Start {
    pub spec: NodeSpec,
    pub program: PathBuf,
    pub argv: Vec<String>,
}

type Exits = mpsc::UnboundedReceiver<(usize, std::io::Result<ExitStatus>)>;

pub fn supervise(nodes: Vec<Start>, grace: Duration) -> anyhow::Result<ExitCode> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?
        .block_on(supervise_async(nodes, grace))
}

async fn supervise_async(nodes: Vec<Start>, grace: Duration) -> anyhow::Result<ExitCode> {
    // Listen before starting anything, so an early Ctrl-C still stops what has started.
    let mut sigint = signal(SignalKind::interrupt()).context("listening for SIGINT")?;
    let mut sigterm = signal(SignalKind::terminate()).context("listening for SIGTERM")?;
    let width = nodes
        .iter()
        .map(|n| n.spec.label().len())
        .max()
        .unwrap_or(0);
    let (tx, mut exits) = mpsc::unbounded_channel();
    let mut procs: Vec<Proc> = Vec::new();
    let mut pumps = tokio::task::JoinSet::new();
    let mut start_error = None;
    for (i, node) in nodes.iter().enumerate() {
        match start(i, node, width, &tx, &mut pumps) {
            Ok(p) => procs.push(p),
            Err(e) => {
                start_error = Some(e);
                break;
            }
        }
    }
    // Respawns wait their delay in a task of their own and come back here by index.
    let (respawn_tx, mut respawns) = mpsc::unbounded_channel::<usize>();

    let cause = match start_error {
        Some(e) => Cause::StartFailed(e),
        None => loop {
            tokio::select! {
                _ = sigint.recv() => break Cause::Signal("SIGINT"),
                _ = sigterm.recv() => break Cause::Signal("SIGTERM"),
                Some((i, status)) = exits.recv() => {
                    procs[i].exited = true;
                    let Some(delay) = nodes[i].spec.respawn else {
                        break Cause::Died(i, status);
                    };
                    eprintln!(
                        "[launch] node {} {}: respawning in {:.1} s",
                        procs[i].label,
                        describe(&status),
                        delay.as_secs_f64()
                    );
                    let again = respawn_tx.clone();
                    tokio::spawn(async move {
                        tokio::time::sleep(delay).await;
                        let _ = again.send(i);
                    });
                }
                Some(i) = respawns.recv() => {
                    match start(i, &nodes[i], width, &tx, &mut pumps) {
                        Ok(p) => procs[i] = p,
                        Err(e) => break Cause::StartFailed(e),
                    }
                }
            }
        },
    };
    drop(tx);
    match &cause {
        Cause::Signal(s) => eprintln!("[launch] {s}: stopping every node"),
        Cause::Died(i, status) => eprintln!(
            "[launch] node {} {}: stopping the others",
            procs[*i].label,
            describe(status)
        ),
        Cause::StartFailed(e) => eprintln!("[launch] {e:#}: stopping the others"),
    }
    let killed = shutdown(&mut procs, &mut exits, &mut sigint, grace).await;
    // The nodes' last lines: their pipes close when they exit.
    let _ = tokio::time::timeout(DRAIN, async { while pumps.join_next().await.is_some() {} }).await;

    match cause {
        Cause::StartFailed(e) => Err(e),
        Cause::Died(i, status) => bail!("node {} {}", procs[i].label, describe(&status)),
        Cause::Signal(_) if !killed.is_empty() => bail!(
            "killed after {:.1} s without exiting: {}",
            grace.as_secs_f64(),
            killed.join(", ")
        ),
        Cause::Signal(_) => Ok(ExitCode::SUCCESS),
    }
}

/// Starts node `i`; its exit status will come on `exits`, its output through `pumps`.
fn start(
    i: usize,
    node: &Start,
    width: usize,
    exits: &mpsc::UnboundedSender<(usize, std::io::Result<ExitStatus>)>,
    pumps: &mut tokio::task::JoinSet<()>,
) -> anyhow::Result<Proc> {
    let label = node.spec.label().to_string();
    let mut cmd = Command::new(&node.program);
    cmd.args(&node.argv)
        .envs(node.spec.env.iter().cloned())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Own process group: the terminal's Ctrl-C reaches only us, and each node gets
        // exactly one SIGINT, ours, in an orderly shutdown.
        .process_group(0)
        // If this process dies before its shutdown, the nodes go with it.
        .kill_on_drop(true);
    let mut child = cmd.spawn().map_err(|e| {
        anyhow!(e).context(format!(
            "starting node {label} ({}, {})",
            node.program.display(),
            node.spec.origin
        ))
    })?;
    let prefix = format!("[{label:<width$}] ");
    if let Some(out) = child.stdout.take() {
        pumps.spawn(pump(out, prefix.clone(), false));
    }
    if let Some(err) = child.stderr.take() {
        pumps.spawn(pump(err, prefix, true));
    }
    let pid = child
        .id()
        .and_then(|p| i32::try_from(p).ok())
        .map(Pid::from_raw);
    let tx = exits.clone();
    tokio::spawn(async move {
        let status = child.wait().await;
        let _ = tx.send((i, status));
    });
    eprintln!(
        "[launch] started {label} (pid {})",
        pid.map_or("?".into(), |p| p.to_string())
    );
    Ok(Proc {
        label,
        pid,
        exited: false,
    })
}

/// SIGINT to every running node, a grace period (a second Ctrl-C cuts it short), then SIGKILL.
/// Returns the nodes that had to be killed.
async fn shutdown(
    procs: &mut [Proc],
    exits: &mut Exits,
    sigint: &mut tokio::signal::unix::Signal,
    grace: Duration,
) -> Vec<String> {
    for p in procs.iter().filter(|p| !p.exited) {
        send(p, Signal::SIGINT);
    }
    let deadline = tokio::time::Instant::now() + grace;
    while procs.iter().any(|p| !p.exited) {
        tokio::select! {
            got = exits.recv() => match got {
                Some((i, status)) => {
                    procs[i].exited = true;
                    // Asked to stop: the plain status, since a signal here is expected, not a death.
                    match &status {
                        Ok(st) => eprintln!("[launch] {} stopped ({st})", procs[i].label),
                        Err(_) => eprintln!("[launch] {} {}", procs[i].label, describe(&status)),
                    }
                }
                None => break,
            },
            _ = tokio::time::sleep_until(deadline) => break,
            _ = sigint.recv() => {
                eprintln!("[launch] interrupted again: killing what is left");
                break;
            }
        }
    }
    let mut killed = Vec::new();
    for p in procs.iter().filter(|p| !p.exited) {
        send(p, Signal::SIGKILL);
        killed.push(p.label.clone());
    }
    let _ = tokio::time::timeout(DRAIN, async {
        while procs.iter().any(|p| !p.exited) {
            match exits.recv().await {
                Some((i, _)) => procs[i].exited = true,
                None => break,
            }
        }
    })
    .await;
    killed
}

fn send(p: &Proc, sig: Signal) {
    if let Some(pid) = p.pid {
        if let Err(e) = kill(pid, sig) {
            tracing::debug!(node = %p.label, "{sig} not delivered: {e}");
        }
    }
}

fn describe(status: &std::io::Result<ExitStatus>) -> String {
    match status {
        Ok(s) if s.success() => format!("exited on its own ({s})"),
        Ok(s) => format!("died ({s})"),
        Err(e) => format!("could not be waited for ({e})"),
    }
}

/// Copies a node's output to ours, line by line, each line under the node's name.
async fn pump(reader: impl AsyncRead + Unpin, prefix: String, to_stderr: bool) {
    let mut r = BufReader::new(reader);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match r.read_until(b'\n', &mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let text = String::from_utf8_lossy(&buf);
                let line = text.trim_end_matches(['\n', '\r']);
                // A closed terminal or pipe is no reason to stop the robot: drop the line.
                let _ = if to_stderr {
                    writeln!(std::io::stderr().lock(), "{prefix}{line}")
                } else {
                    writeln!(std::io::stdout().lock(), "{prefix}{line}")
                };
            }
        }
    }
}
