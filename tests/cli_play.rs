//! `checkers-robot play` outside a terminal: it must not launch anything nor write escape
//! codes into a pipe, and must say what to run instead.

use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_checkers-robot");

#[test]
fn play_into_a_pipe_refuses_with_a_hint() {
    let out = Command::new(BIN)
        .arg("play")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("running checkers-robot");
    assert_eq!(out.status.code(), Some(2), "bad-input exit status");
    assert!(out.stdout.is_empty(), "nothing drawn into the pipe");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not one"), "{err}");
    assert!(err.contains("checkers-robot watch"), "{err}");
    assert!(
        !err.contains("starting the simulated robot"),
        "nothing launched: {err}"
    );
}

#[test]
fn play_lists_its_options() {
    let out = Command::new(BIN)
        .args(["play", "--help"])
        .output()
        .expect("running checkers-robot");
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for opt in ["--level", "--time-scale", "--domain", "--run-dir"] {
        assert!(help.contains(opt), "{opt} in {help}");
    }
}
