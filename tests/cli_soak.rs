//! `checkers-robot soak`, short: two games against one launch of the simulated robot with the
//! sim's faults and node kills drawn often. Every game must end and its PDN replay, and the
//! launch log must hold no ERROR line. Then one game with the planner on a second computer
//! over a link that drops. docs/soak.md has the long runs.

mod netns_support;

use std::process::{Command, Stdio};

/// `checkers-robot soak ARGS`: its output, checked to have succeeded with nothing on stderr.
fn soak(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_checkers-robot"))
        .arg("soak")
        .args(args)
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
    if let Some(log) = stdout
        .lines()
        .find_map(|l| l.strip_prefix("soak: launch log "))
        .and_then(|p| std::path::Path::new(p).parent())
    {
        let _ = std::fs::remove_dir_all(log);
    }
    stdout.into_owned()
}

#[test]
fn a_short_soak_with_faults_and_kills_ends_every_game_and_replays_it() {
    let stdout = soak(&[
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
    ]);
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
}

#[test]
fn a_soak_with_the_planner_on_a_second_computer_over_a_lossy_and_cut_link() {
    if !netns_support::available() {
        return;
    }
    let stdout = soak(&[
        "--games",
        "1",
        "--time-scale",
        "500",
        "--max-plies",
        "14",
        "--fault-rate",
        "0",
        "--kill-rate",
        "0.2",
        "--planner-apart",
        "--net-fault-rate",
        "0.6",
        // Draws the planner killed in the robot's first turn (and started again on its
        // computer), the expression node in its third, the link cut in its fourth and lossy in
        // its fifth and sixth.
        "--seed",
        "51",
    ]);
    for want in [
        "soak: the planner on a second computer",
        "game 1:",
        "1 PDNs replayed",
        "link_cut",
        "link_loss",
        "0 ERROR lines in the launch log",
        "health: planner",
        "planner 1",
    ] {
        assert!(stdout.contains(want), "no {want:?} in:\n{stdout}");
    }
}
