//! The simulated robot's nodes started one by one, from the command lines
//! `checkers-robot launch launch/sim.launch.xml --dry-run` prints, rather than by the launcher:
//! the launcher stops the whole graph when a node dies, and a test that kills a node to see it
//! restarted needs the others to stay up. Each node's output goes to `<dir>/<label>.log`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

use super::sim::{self, SimOptions};

/// How long a node gets to stop after SIGINT before it is killed.
const STOP: Duration = Duration::from_secs(5);

#[derive(Debug)]
pub struct Nodes {
    lines: Vec<(String, String)>,
    running: BTreeMap<String, Child>,
    domain: u16,
    dir: PathBuf,
}

impl Nodes {
    /// Starts every node of the launch `o` describes.
    pub fn start(o: &SimOptions) -> anyhow::Result<Nodes> {
        std::fs::create_dir_all(o.run_dir.join("arbiter"))?;
        let mut nodes = Nodes {
            lines: sim::dry_run(o)?,
            running: BTreeMap::new(),
            domain: o.domain,
            dir: o.run_dir.clone(),
        };
        let labels: Vec<String> = nodes.lines.iter().map(|(l, _)| l.clone()).collect();
        for label in labels {
            nodes.spawn(&label)?;
        }
        Ok(nodes)
    }

    /// (Re)starts node `label` with the command line the launch gives it.
    pub fn spawn(&mut self, label: &str) -> anyhow::Result<()> {
        let line = self
            .lines
            .iter()
            .find(|(l, _)| l == label)
            .map(|(_, c)| c.clone())
            .ok_or_else(|| anyhow::anyhow!("no node {label} in the launch"))?;
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.log_path(label))?;
        // The line is shell-quoted; `exec` makes the node the child itself, so its pid is ours.
        let child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {line}"))
            .env("ROS_DOMAIN_ID", self.domain.to_string())
            .env("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .spawn()?;
        self.running.insert(label.to_string(), child);
        Ok(())
    }

    /// SIGKILLs node `label` (no chance to save or say goodbye) and reaps it.
    pub fn kill_hard(&mut self, label: &str) -> anyhow::Result<()> {
        let mut child = self
            .running
            .remove(label)
            .ok_or_else(|| anyhow::anyhow!("node {label} is not running"))?;
        child.kill()?;
        child.wait()?;
        Ok(())
    }

    /// Node `label`'s output so far.
    pub fn log(&self, label: &str) -> String {
        std::fs::read_to_string(self.log_path(label)).unwrap_or_default()
    }

    /// The last lines of node `label`'s output, for failure messages.
    pub fn tail(&self, label: &str) -> String {
        let log = self.log(label);
        let lines: Vec<&str> = log.lines().collect();
        lines[lines.len().saturating_sub(40)..].join("\n")
    }

    fn log_path(&self, label: &str) -> PathBuf {
        self.dir.join(format!("{label}.log"))
    }
}

impl Drop for Nodes {
    /// SIGINT to every node, the way the launcher stops them, then SIGKILL to what is left.
    fn drop(&mut self) {
        for child in self.running.values() {
            if let Ok(pid) = i32::try_from(child.id()) {
                let _ = kill(Pid::from_raw(pid), Signal::SIGINT);
            }
        }
        let deadline = Instant::now() + STOP;
        for child in self.running.values_mut() {
            while Instant::now() < deadline && matches!(child.try_wait(), Ok(None)) {
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
