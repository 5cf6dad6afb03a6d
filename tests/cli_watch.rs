//! `checkers-robot watch --games 2` as a user runs it: two whole games over DDS, each in its own
//! launch, that differ (the human plays White, then Black), with nothing on stderr and no ERROR
//! line or dependency internals in any node's log.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_checkers-robot");

/// The launch log beside each archived game (`RUN_DIR/arbiter/games/X.pdn` -> `RUN_DIR/launch.log`).
fn launch_logs(stdout: &str) -> Vec<PathBuf> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("pdn: "))
        .filter_map(|pdn| {
            Path::new(pdn)
                .ancestors()
                .nth(3)
                .map(|d| d.join("launch.log"))
        })
        .collect()
}

/// Lines a user should never see: errors, and log lines of the DDS and ROS 2 client crates.
fn noise(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.contains("ERROR") || l.contains("rustdds") || l.contains("ros2_client"))
        .collect()
}

#[test]
fn two_watched_games_differ_and_print_no_noise() {
    let out = Command::new(BIN)
        .args([
            "watch",
            "--games",
            "2",
            "--time-scale",
            "200",
            "--max-plies",
            "12",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("running checkers-robot watch");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}\n{stdout}\n{stderr}", out.status);
    assert!(stderr.trim().is_empty(), "stderr: {stderr}");
    assert!(stdout.contains("game 1:"), "{stdout}");
    assert!(stdout.contains("game 2:"), "{stdout}");
    assert!(stdout.contains("the human playing White"), "{stdout}");
    assert!(stdout.contains("the human playing Black"), "{stdout}");
    assert!(
        stdout.contains("in a browser: http://127.0.0.1:"),
        "the web window's address: {stdout}"
    );
    let logs = launch_logs(&stdout);
    assert_eq!(logs.len(), 2, "one archived game per launch: {stdout}");
    for log in &logs {
        let text = std::fs::read_to_string(log).expect("the launch log");
        assert!(
            text.contains("arbiter running"),
            "{}: {text}",
            log.display()
        );
        let bad = noise(&text);
        assert!(bad.is_empty(), "{}:\n{}", log.display(), bad.join("\n"));
    }
    for log in logs {
        if let Some(dir) = log.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}
