//! The examples of `crates/ros/examples/` run as a reader would run them, each pair in its own
//! ROS domain: the talker and the listener in two processes, the service and the action each in
//! one. `cargo test` builds the examples beside this test (`target/<profile>/examples/`); on
//! r2r, whose CI stage tests `--lib --bins --tests`, CI builds them first
//! (`cargo build -p ros --features r2r --examples`).

use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn example(name: &str, domain: u16, args: &[&str]) -> Child {
    // This test runs from target/<profile>/deps/; the examples are built in ../examples/.
    let exe = std::env::current_exe().expect("the test knows where it is");
    let dir: PathBuf = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>/deps")
        .join("examples");
    Command::new(dir.join(name))
        .args(args)
        .env("ROS_DOMAIN_ID", domain.to_string())
        .env("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("example {name} in {}: {e}", dir.display()))
}

/// Waits at most 60 s; a child still running then is killed and the test fails.
fn finish(mut child: Child, name: &str) -> String {
    let end = Instant::now() + Duration::from_secs(60);
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > end {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().expect("output");
    let out = String::from_utf8_lossy(&stdout).into_owned();
    assert!(
        status.success(),
        "{name}: {status}\n{out}{}",
        String::from_utf8_lossy(&stderr)
    );
    out
}

/// Domains 202..231, apart by test and spread by process id across runs.
fn domain(offset: u16) -> u16 {
    202 + ((std::process::id() as u16).wrapping_mul(3) + offset * 10) % 30
}

#[test]
fn talker_and_listener() {
    let d = domain(0);
    let listener = example("listener", d, &["3"]);
    let talker = example("talker", d, &["3"]);
    let heard = finish(listener, "listener");
    let said = finish(talker, "talker");
    assert!(said.contains("publishing: hello 3"), "{said}");
    for n in 1..=3 {
        assert!(
            heard.contains(&format!("heard: hello {n} (ply {n})")),
            "{heard}"
        );
    }
}

#[test]
fn service() {
    let out = finish(example("service", domain(1), &[]), "service");
    assert!(
        out.contains("answer: success=true message=3 readings of an empty board"),
        "{out}"
    );
}

#[test]
fn action() {
    let out = finish(example("action", domain(2), &[]), "action");
    assert!(out.contains("feedback: depth 3"), "{out}");
    assert!(out.contains("result: Succeeded, depth 3 (done)"), "{out}");
}
