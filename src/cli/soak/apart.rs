//! `soak --planner-apart`: the robot thinking on a second computer. The robot's nodes run in
//! one network namespace and the planner in another, joined by a veth pair (crates/netns);
//! the planner is started again a second after it dies, as the launch does for the others. In
//! some of the robot's turns the link loses 30% of its packets, or is cut for 20 s
//! (docs/network.md: the arbiter waits for the planner and says so).

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::Context;
use checkers_robot::graph::client::{GraphClient, PLAY_ENCLAVE};
use checkers_robot::graph::sim::planner_command;
use netns::{Host, Link};
use ros::env::{DiscoveryRange, RosEnv};
use ros::security::SecurityEnv;
use ros::{Node, RosArgs};

/// How much of the link's traffic a lossy turn drops, each way.
pub const LOSS_PERCENT: u8 = 30;
/// How long a cut lasts: less than the arbiter's wait for an absent planner (30 s), so the
/// planner is found again and plays.
pub const CUT: Duration = Duration::from_secs(20);
/// As the launch's `respawn_delay`.
const RESPAWN_DELAY: Duration = Duration::from_secs(1);

/// The two computers and the planner on the second.
#[derive(Debug)]
pub struct Apart {
    pub link: Link,
    /// The planner's output, and a `[launch] started planner (pid N)` line at each start, as
    /// the launch logs its nodes (for the soak's kills and health).
    pub log: PathBuf,
    stop: Arc<AtomicBool>,
    keeper: Option<JoinHandle<()>>,
    /// The link coming back after a cut.
    restoring: Option<JoinHandle<netns::Result<()>>>,
}

impl Apart {
    /// The two computers, and the planner started on the second at `level`'s settings.
    pub fn start(
        exe: &Path,
        share: &Path,
        level: &str,
        domain: u16,
        run_dir: &Path,
        keystore: Option<&Path>,
    ) -> anyhow::Result<Apart> {
        let link =
            Link::new("s").context("making two computers (network namespaces; root only)")?;
        let params = share
            .join("config/difficulty")
            .join(format!("{level}.yaml"));
        let log = run_dir.join("planner.log");
        File::create(&log).with_context(|| format!("creating {}", log.display()))?;
        let stop = Arc::new(AtomicBool::new(false));
        let keeper = {
            let planner = Planner {
                host: link.b.clone(),
                exe: exe.to_path_buf(),
                params,
                domain,
                keystore: keystore.map(Path::to_path_buf),
                log: log.clone(),
            };
            let stop = stop.clone();
            std::thread::spawn(move || keep_planner(&planner, &stop))
        };
        Ok(Apart {
            link,
            log,
            stop,
            keeper: Some(keeper),
            restoring: None,
        })
    }

    /// Our graph client on the robot's computer: made on a thread that joined its network, so
    /// its sockets are that computer's. Secured, it is the policy's `play` node.
    pub fn client(
        &self,
        domain: u16,
        security: Option<SecurityEnv>,
    ) -> anyhow::Result<GraphClient> {
        let runtime = tokio::runtime::Handle::current();
        let host = self.link.a.clone();
        std::thread::spawn(move || -> anyhow::Result<GraphClient> {
            host.enter()?;
            let _inside = runtime.enter();
            let name = match security {
                Some(_) => "play".to_string(),
                None => format!("soak_{}", std::process::id()),
            };
            let args = RosArgs::parse([name.as_str(), "--ros-args", "--enclave", PLAY_ENCLAVE])?;
            let env = RosEnv {
                domain_id: domain,
                discovery: DiscoveryRange::Subnet,
                security,
            };
            Ok(GraphClient::on(Node::new(&name, args, env)?)?)
        })
        .join()
        .map_err(|_| anyhow::anyhow!("the client's thread panicked"))?
    }

    /// Whether a cut is still to be restored; an error if restoring it failed.
    pub fn cut_pending(&mut self) -> anyhow::Result<bool> {
        match self.restoring.take() {
            Some(h) if h.is_finished() => {
                h.join()
                    .map_err(|_| anyhow::anyhow!("the link's restoring thread panicked"))?
                    .context("restoring the link after a cut")?;
                Ok(false)
            }
            Some(h) => {
                self.restoring = Some(h);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// The link down now, up again after [`CUT`].
    pub fn cut(&mut self) -> anyhow::Result<()> {
        self.link.set_up(false).context("cutting the link")?;
        self.restoring = Some(self.link.restore_after(CUT));
        Ok(())
    }
}

impl Drop for Apart {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(k) = self.keeper.take() {
            let _ = k.join();
        }
        if let Some(r) = self.restoring.take() {
            let _ = r.join();
        }
    }
}

/// The planner on the second computer, as [`planner_command`] starts it.
struct Planner {
    host: Host,
    exe: PathBuf,
    params: PathBuf,
    domain: u16,
    keystore: Option<PathBuf>,
    log: PathBuf,
}

impl Planner {
    fn start(&self) -> anyhow::Result<Child> {
        let out = OpenOptions::new().append(true).open(&self.log)?;
        Ok(planner_command(
            &self.exe,
            &self.params,
            self.domain,
            &self.host.ns,
            self.keystore.as_deref(),
        )
        .stdin(Stdio::null())
        .stdout(out.try_clone()?)
        .stderr(out)
        .spawn()?)
    }
}

/// Runs the planner until `stop`, starting it again [`RESPAWN_DELAY`] after it dies.
fn keep_planner(planner: &Planner, stop: &AtomicBool) {
    let note = |line: String| {
        if let Ok(mut f) = OpenOptions::new().append(true).open(&planner.log) {
            let _ = writeln!(f, "[launch] {line}");
        }
    };
    while !stop.load(Ordering::Relaxed) {
        let mut child = match planner.start() {
            Ok(c) => c,
            Err(e) => {
                note(format!("ERROR starting planner: {e:#}"));
                return;
            }
        };
        note(format!("started planner (pid {})", child.id()));
        loop {
            if stop.load(Ordering::Relaxed) {
                let _ = child.kill();
                let _ = child.wait();
                return;
            }
            match child.try_wait() {
                Ok(Some(status)) => {
                    note(format!("planner exited ({status}); started again in 1 s"));
                    break;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(100)),
                Err(e) => {
                    note(format!("ERROR watching planner: {e}"));
                    return;
                }
            }
        }
        std::thread::sleep(RESPAWN_DELAY);
    }
}
