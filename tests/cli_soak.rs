//! `checkers-robot soak`, short: two games against one launch of the simulated robot with the
//! sim's faults and node kills drawn often. Every game must end and its PDN replay, and the
//! launch log must hold no ERROR line. docs/soak.md has the long run.

use std::process::{Command, Stdio};

#[test]
fn a_short_soak_with_faults_and_kills_ends_every_game_and_replays_it() {
    let out = Command::new(env!("CARGO_BIN_EXE_checkers-robot"))
        .args([
            "soak",
            "--games",
            "2",
            "--time-scale",
            "500",
            "--max-plies",
            "30",
            "--fault-rate",
            "0.3",
            "--kill-rate",
            "0.3",
            "--seed",
            "3",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("running checkers-robot soak");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}\n{stdout}\n{stderr}", out.status);
    assert!(stderr.trim().is_empty(), "stderr: {stderr}");
    for want in [
        "game 1:",
        "game 2:",
        "the human playing White",
        "the human playing Black",
        "2 PDNs replayed",
        "0 ERROR lines in the launch log",
    ] {
        assert!(stdout.contains(want), "no {want:?} in:\n{stdout}");
    }
    assert!(!stdout.contains("soak: kills none"), "{stdout}");
    assert!(!stdout.contains("soak: faults none"), "{stdout}");
    assert!(stdout.contains("health: arbiter"), "{stdout}");
    if let Some(log) = stdout
        .lines()
        .find_map(|l| l.strip_prefix("soak: launch log "))
        .and_then(|p| std::path::Path::new(p).parent())
    {
        let _ = std::fs::remove_dir_all(log);
    }
}
