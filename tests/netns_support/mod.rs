//! Two computers on one machine: two network namespaces joined by a veth pair with private
//! addresses, made by the test itself (`ip netns`, root only) and removed when dropped. The
//! link can lose packets (nftables' `numgen random`: these kernels have no `tc netem`) or be
//! cut and restored.

#![allow(dead_code)]

use std::process::Command;

/// Where the two computers' addresses are; the third byte is drawn from the process id.
const NET: &str = "10.77";

fn ip(args: &[&str]) -> std::io::Result<std::process::Output> {
    Command::new("ip").args(args).output()
}

fn run(program: &str, args: &[&str]) {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{program} runs: {e}"));
    assert!(
        out.status.success(),
        "{program} {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Whether this process may make network namespaces. Where it may not, CI
/// (`CHECKERS_REQUIRE_NETNS=1`) fails instead of skipping.
pub fn available() -> bool {
    static PROBES: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = PROBES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let probe = format!("cr_probe_{}_{n}", std::process::id());
    let made = ip(&["netns", "add", &probe]).is_ok_and(|o| o.status.success());
    if made {
        let _ = ip(&["netns", "del", &probe]);
        return true;
    }
    assert!(
        std::env::var_os("CHECKERS_REQUIRE_NETNS").is_none(),
        "CHECKERS_REQUIRE_NETNS is set but `ip netns add` fails here (it needs root and iproute2)"
    );
    eprintln!("skipped: no network namespaces here (root and iproute2 needed)");
    false
}

/// One computer: a namespace and its end of the link.
#[derive(Clone)]
pub struct Host {
    pub ns: String,
    pub dev: String,
    pub addr: String,
}

impl Host {
    /// `program args...` run inside this computer.
    pub fn command(&self, program: &str) -> Command {
        let mut cmd = Command::new("ip");
        cmd.args(["netns", "exec", &self.ns, program]);
        cmd
    }

    /// Joins the calling thread to this computer's network: sockets it opens from now on,
    /// and threads it starts, are this computer's.
    pub fn enter(&self) {
        let file = std::fs::File::open(format!("/run/netns/{}", self.ns))
            .unwrap_or_else(|e| panic!("the namespace {}: {e}", self.ns));
        nix::sched::setns(file, nix::sched::CloneFlags::CLONE_NEWNET)
            .unwrap_or_else(|e| panic!("joining {}: {e}", self.ns));
    }

    /// This computer's end of the link down or up.
    fn set_link(&self, up: bool) {
        let state = if up { "up" } else { "down" };
        run("ip", &["-n", &self.ns, "link", "set", &self.dev, state]);
    }

    fn nft(&self, rule: &str) {
        let out = self
            .command("nft")
            .arg(rule)
            .output()
            .unwrap_or_else(|e| panic!("nft runs (Debian's nftables): {e}"));
        assert!(
            out.status.success(),
            "nft {rule}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Two computers joined by one link.
pub struct Link {
    pub a: Host,
    pub b: Host,
}

impl Link {
    pub fn new(tag: &str) -> Link {
        let id = std::process::id();
        let net = format!("{NET}.{}", id % 250);
        let host = |side: &str, n: u8| Host {
            ns: format!("cr_{tag}{side}_{id}"),
            dev: format!("cr{tag}{side}{}", id % 100_000),
            addr: format!("{net}.{n}"),
        };
        let link = Link {
            a: host("a", 1),
            b: host("b", 2),
        };
        for h in [&link.a, &link.b] {
            run("ip", &["netns", "add", &h.ns]);
        }
        run(
            "ip",
            &[
                "link",
                "add",
                &link.a.dev,
                "type",
                "veth",
                "peer",
                "name",
                &link.b.dev,
            ],
        );
        for h in [&link.a, &link.b] {
            run("ip", &["link", "set", &h.dev, "netns", &h.ns]);
            run(
                "ip",
                &[
                    "-n",
                    &h.ns,
                    "addr",
                    "add",
                    &format!("{}/24", h.addr),
                    "dev",
                    &h.dev,
                ],
            );
            run("ip", &["-n", &h.ns, "link", "set", "lo", "up"]);
            run("ip", &["-n", &h.ns, "link", "set", &h.dev, "up"]);
        }
        link
    }

    /// Each computer drops `percent` of the packets it receives over the link.
    pub fn lose(&self, percent: u8) {
        for h in [&self.a, &self.b] {
            h.nft("add table inet checkers_loss");
            h.nft(
                "add chain inet checkers_loss input { type filter hook input priority 0; policy accept; }",
            );
            h.nft(&format!(
                "add rule inet checkers_loss input iifname \"{}\" numgen random mod 100 < {percent} drop",
                h.dev
            ));
        }
    }

    /// No more loss.
    pub fn heal(&self) {
        for h in [&self.a, &self.b] {
            h.nft("delete table inet checkers_loss");
        }
    }

    /// The link down (`false`) or up again (`true`), as a pulled cable.
    pub fn set_up(&self, up: bool) {
        for h in [&self.a, &self.b] {
            h.set_link(up);
        }
    }

    /// The link up again after `after`, from a thread of its own (the test meanwhile plays).
    pub fn restore_after(&self, after: std::time::Duration) -> std::thread::JoinHandle<()> {
        let ends = [self.a.clone(), self.b.clone()];
        std::thread::spawn(move || {
            std::thread::sleep(after);
            for h in &ends {
                h.set_link(true);
            }
        })
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        // Deleting a namespace deletes its end of the veth pair, and with it the other end.
        for h in [&self.a, &self.b] {
            let _ = ip(&["netns", "del", &h.ns]);
        }
    }
}
