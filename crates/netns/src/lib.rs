//! Two computers on one machine: two network namespaces joined by a veth pair with private
//! addresses, removed when dropped. The link can lose packets (nftables' `numgen random`: these
//! kernels have no `tc netem`) or be cut and restored. It needs root and iproute2 (`ip netns`),
//! and nftables for the loss. Used by the two-computer tests and by `checkers-robot soak
//! --planner-apart`.

use std::process::Command;

/// Where the two computers' addresses are; the third byte is drawn from the process id.
const NET: &str = "10.77";

/// What went wrong making or changing the link.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    #[error("{program} did not run: {source}")]
    Spawn {
        program: String,
        source: std::io::Error,
    },
    #[error("{command}: {stderr}")]
    Failed { command: String, stderr: String },
    #[error("joining the namespace {ns}: {reason}")]
    Enter { ns: String, reason: String },
}

pub type Result<T> = std::result::Result<T, NetError>;

fn run(program: &str, args: &[&str]) -> Result<()> {
    let out = Command::new(program)
        .args(args)
        .output()
        .map_err(|source| NetError::Spawn {
            program: program.to_string(),
            source,
        })?;
    if !out.status.success() {
        return Err(NetError::Failed {
            command: format!("{program} {}", args.join(" ")),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(())
}

/// Whether this process may make network namespaces (root and iproute2).
pub fn available() -> bool {
    static PROBES: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = PROBES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let probe = format!("cr_probe_{}_{n}", std::process::id());
    if run("ip", &["netns", "add", &probe]).is_ok() {
        let _ = run("ip", &["netns", "del", &probe]);
        return true;
    }
    false
}

/// One computer: a namespace and its end of the link.
#[derive(Debug, Clone)]
pub struct Host {
    pub ns: String,
    pub dev: String,
    pub addr: String,
}

impl Host {
    /// `program args...` run inside this computer (`ip netns exec`, which execs `program`: the
    /// child's pid is the program's).
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::new("ip");
        cmd.args(["netns", "exec", &self.ns]).arg(program);
        cmd
    }

    /// Joins the calling thread to this computer's network: sockets it opens from now on,
    /// and threads it starts, are this computer's.
    pub fn enter(&self) -> Result<()> {
        let enter = |reason: String| NetError::Enter {
            ns: self.ns.clone(),
            reason,
        };
        let file = std::fs::File::open(format!("/run/netns/{}", self.ns))
            .map_err(|e| enter(e.to_string()))?;
        nix::sched::setns(file, nix::sched::CloneFlags::CLONE_NEWNET)
            .map_err(|e| enter(e.to_string()))
    }

    /// This computer's end of the link down or up.
    fn set_link(&self, up: bool) -> Result<()> {
        let state = if up { "up" } else { "down" };
        run("ip", &["-n", &self.ns, "link", "set", &self.dev, state])
    }

    fn nft(&self, rule: &str) -> Result<()> {
        run("ip", &["netns", "exec", &self.ns, "nft", rule])
    }

    /// This computer drops `percent` of the packets it receives over the link (100: it hears
    /// nothing, while what it sends still arrives).
    pub fn lose(&self, percent: u8) -> Result<()> {
        self.nft("add table inet checkers_loss")?;
        self.nft(
            "add chain inet checkers_loss input { type filter hook input priority 0; policy accept; }",
        )?;
        // nft refuses `numgen random mod 100 < 100`.
        let chance = if percent >= 100 {
            String::new()
        } else {
            format!("numgen random mod 100 < {percent} ")
        };
        self.nft(&format!(
            "add rule inet checkers_loss input iifname \"{}\" {chance}drop",
            self.dev
        ))
    }

    /// No more loss on this computer.
    pub fn heal(&self) -> Result<()> {
        self.nft("delete table inet checkers_loss")
    }
}

/// Two computers joined by one link.
#[derive(Debug)]
pub struct Link {
    pub a: Host,
    pub b: Host,
}

impl Link {
    /// Two new computers, `tag` telling them from another pair of this process.
    pub fn new(tag: &str) -> Result<Link> {
        let id = std::process::id();
        let net = format!("{NET}.{}", id % 250);
        let host = |side: &str, n: u8| Host {
            ns: format!("cr_{tag}{side}_{id}"),
            dev: format!("cr{tag}{side}{}", id % 100_000),
            addr: format!("{net}.{n}"),
        };
        // Made before the namespaces, so that a failure on the way removes what was made.
        let link = Link {
            a: host("a", 1),
            b: host("b", 2),
        };
        for h in [&link.a, &link.b] {
            run("ip", &["netns", "add", &h.ns])?;
        }
        let (a, b) = (link.a.dev.as_str(), link.b.dev.as_str());
        run("ip", &["link", "add", a, "type", "veth", "peer", "name", b])?;
        for h in [&link.a, &link.b] {
            run("ip", &["link", "set", &h.dev, "netns", &h.ns])?;
            let addr = format!("{}/24", h.addr);
            run("ip", &["-n", &h.ns, "addr", "add", &addr, "dev", &h.dev])?;
            run("ip", &["-n", &h.ns, "link", "set", "lo", "up"])?;
            h.set_link(true)?;
        }
        Ok(link)
    }

    /// Each computer drops `percent` of the packets it receives over the link.
    pub fn lose(&self, percent: u8) -> Result<()> {
        self.a.lose(percent)?;
        self.b.lose(percent)
    }

    /// No more loss.
    pub fn heal(&self) -> Result<()> {
        self.a.heal()?;
        self.b.heal()
    }

    /// The link down (`false`) or up again (`true`), as a pulled cable.
    pub fn set_up(&self, up: bool) -> Result<()> {
        for h in [&self.a, &self.b] {
            h.set_link(up)?;
        }
        Ok(())
    }

    /// The link up again after `after`, from a thread of its own (the caller meanwhile plays).
    pub fn restore_after(&self, after: std::time::Duration) -> std::thread::JoinHandle<Result<()>> {
        let ends = [self.a.clone(), self.b.clone()];
        std::thread::spawn(move || {
            std::thread::sleep(after);
            ends.iter().try_for_each(|h| h.set_link(true))
        })
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        // Deleting a namespace deletes its end of the veth pair, and with it the other end.
        for h in [&self.a, &self.b] {
            let _ = run("ip", &["netns", "del", &h.ns]);
        }
    }
}
