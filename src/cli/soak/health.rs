//! Each node's resident memory and open files over a soak, read from `/proc` (Linux) by the
//! pid the launcher logged for the node's latest start: a leak shows as growth between samples
//! of one process; a respawned node starts its own series. The anonymous part (`RssAnon`: heap,
//! stacks) is reported beside the whole: the rest is the executable's pages, shared by every
//! node and bounded by its size, which grows only as code runs for the first time.

use std::collections::BTreeMap;

use checkers_robot::graph::sim::latest_pids;
use std::path::Path;
use std::time::Duration;

/// One reading of one process.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// Since the soak began.
    pub at: Duration,
    pub rss_kb: u64,
    /// The anonymous part of `rss_kb`.
    pub anon_kb: u64,
    pub fds: usize,
}

/// `VmRSS` of a `/proc/PID/status` text, in kB.
pub fn rss_kb(status: &str) -> Option<u64> {
    status_kb(status, "VmRSS:")
}

/// A `/proc/PID/status` field in kB (`VmRSS:`, `RssAnon:`).
fn status_kb(status: &str, field: &str) -> Option<u64> {
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// A process's memory and open files now; `None` when it is gone (or not Linux).
pub fn read(pid: u32, at: Duration) -> Option<Sample> {
    let proc = Path::new("/proc").join(pid.to_string());
    let status = std::fs::read_to_string(proc.join("status")).ok()?;
    let rss_kb = rss_kb(&status)?;
    let anon_kb = status_kb(&status, "RssAnon:").unwrap_or(rss_kb);
    let fds = std::fs::read_dir(proc.join("fd")).ok()?.count();
    Some(Sample {
        at,
        rss_kb,
        anon_kb,
        fds,
    })
}

/// The samples of each process (node, pid), in order.
#[derive(Debug, Default)]
pub struct Health {
    series: BTreeMap<(String, u32), Vec<Sample>>,
}

impl Health {
    /// Reads every node of `launch_log` now.
    pub fn sample(&mut self, launch_log: &str, at: Duration) {
        for (node, pid) in latest_pids(launch_log) {
            if let Some(s) = read(pid, at) {
                self.series.entry((node, pid)).or_default().push(s);
            }
        }
    }

    /// The latest reading of each node, for a line after each game.
    pub fn latest(&self) -> String {
        let mut newest: BTreeMap<&str, &Sample> = BTreeMap::new();
        for ((node, _), samples) in &self.series {
            if let Some(s) = samples.last() {
                let keep = newest.get(node.as_str()).is_none_or(|old| old.at <= s.at);
                if keep {
                    newest.insert(node, s);
                }
            }
        }
        newest
            .iter()
            .map(|(node, s)| format!("{node} {:.1} MB {} fds", mb(s.rss_kb), s.fds))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Per node, its longest-lived process: memory (and its anonymous part) and open files at its
    /// second sample (after the first game has warmed it up) and at its last, and the growth of
    /// each per hour.
    pub fn report(&self) -> Vec<String> {
        let mut longest: BTreeMap<&str, &Vec<Sample>> = BTreeMap::new();
        for ((node, _), samples) in &self.series {
            let span = |v: &Vec<Sample>| v.last().map(|s| s.at).unwrap_or_default();
            let better = longest.get(node.as_str()).is_none_or(|old| {
                span(samples).saturating_sub(samples[0].at) > span(old).saturating_sub(old[0].at)
            });
            if better {
                longest.insert(node, samples);
            }
        }
        longest
            .iter()
            .filter_map(|(node, v)| {
                let first = v.get(1).or(v.first())?;
                let last = v.last()?;
                let hours = (last.at.saturating_sub(first.at)).as_secs_f64() / 3600.0;
                let growth = if hours > 0.0 {
                    format!(
                        "{:+.1} MB/h (anonymous {:+.1} MB/h)",
                        (mb(last.rss_kb) - mb(first.rss_kb)) / hours,
                        (mb(last.anon_kb) - mb(first.anon_kb)) / hours
                    )
                } else {
                    "growth not measured (one sample after the first game)".to_string()
                };
                Some(format!(
                    "{node}: {:.1} -> {:.1} MB (anonymous {:.1} -> {:.1}), {} -> {} fds over {:.0} min of one process ({} samples), {growth}",
                    mb(first.rss_kb),
                    mb(last.rss_kb),
                    mb(first.anon_kb),
                    mb(last.anon_kb),
                    first.fds,
                    last.fds,
                    last.at.saturating_sub(first.at).as_secs_f64() / 60.0,
                    v.len()
                ))
            })
            .collect()
    }
}

fn mb(kb: u64) -> f64 {
    kb as f64 / 1024.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_latest_start_of_each_node_counts() {
        let log = "[launch] started sim (pid 10)\n\
                   [arm] INFO arm: homing\n\
                   [launch] started arm (pid 11)\n\
                   [launch] node arm died (signal: 9 (SIGKILL)): respawning in 1.0 s\n\
                   [launch] started arm (pid 12)\n";
        let pids = latest_pids(log);
        assert_eq!(pids.get("arm"), Some(&12));
        assert_eq!(pids.get("sim"), Some(&10));
        assert_eq!(pids.len(), 2);
    }

    #[test]
    fn resident_memory_is_read_from_proc_status() {
        assert_eq!(
            rss_kb("Name:\tx\nVmRSS:\t   12345 kB\nVmSwap: 0 kB\n"),
            Some(12345)
        );
        assert_eq!(rss_kb("Name:\tx\n"), None);
    }

    #[test]
    fn this_process_can_be_read() {
        let me = read(std::process::id(), Duration::ZERO);
        if cfg!(target_os = "linux") {
            let me = me.expect("our own /proc entry");
            assert!(me.rss_kb > 0 && me.fds > 0, "{me:?}");
            assert!(me.anon_kb > 0 && me.anon_kb <= me.rss_kb, "{me:?}");
        }
    }

    #[test]
    fn a_report_spans_each_nodes_longest_process() {
        let mut h = Health::default();
        let s = |min: u64, kb: u64| Sample {
            at: Duration::from_secs(min * 60),
            rss_kb: kb,
            anon_kb: kb / 2,
            fds: 20,
        };
        h.series.insert(
            ("arm".into(), 1),
            vec![s(0, 1024), s(10, 2048), s(70, 3072)],
        );
        h.series.insert(("arm".into(), 2), vec![s(80, 1024)]);
        let report = h.report();
        assert_eq!(report.len(), 1);
        assert!(
            report[0]
                .starts_with("arm: 2.0 -> 3.0 MB (anonymous 1.0 -> 1.5), 20 -> 20 fds over 60 min"),
            "{}",
            report[0]
        );
        assert!(
            report[0].ends_with("+1.0 MB/h (anonymous +0.5 MB/h)"),
            "{}",
            report[0]
        );
        assert!(h.latest().contains("arm 1.0 MB 20 fds"), "{}", h.latest());
    }
}
