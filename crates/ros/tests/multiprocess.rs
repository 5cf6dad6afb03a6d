//! Two processes over loopback DDS, each test in its own ROS_DOMAIN_ID so tests run in
//! parallel without hearing each other.

use std::process::Stdio;
use std::sync::atomic::{AtomicU16, Ordering};
use std::time::Duration;

use tokio::process::{Child, Command};

static NEXT: AtomicU16 = AtomicU16::new(0);

/// A domain no other test of this run uses (ids 100..199, spread by process id across runs).
fn fresh_domain() -> u16 {
    100 + ((std::process::id() as u16).wrapping_mul(7) + NEXT.fetch_add(1, Ordering::SeqCst)) % 100
}

fn probe(domain: u16, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ros_probe"));
    c.args(args)
        .env("ROS_DOMAIN_ID", domain.to_string())
        .env("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    c
}

async fn output(child: Child) -> (bool, String) {
    let out = tokio::time::timeout(Duration::from_secs(40), child.wait_with_output())
        .await
        .expect("the probe finishes")
        .expect("the probe runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[tokio::test]
async fn publisher_and_subscriber_in_two_processes() {
    let d = fresh_domain();
    let _pub = probe(d, &["pub", "--ros-args", "-p", "count:=300"])
        .spawn()
        .expect("spawn pub");
    let sub = probe(d, &["sub"]).spawn().expect("spawn sub");
    let (ok, text) = output(sub).await;
    assert!(ok, "{text}");
    assert!(
        text.contains("received ply") && text.contains("W:W21-32:B1-12"),
        "{text}"
    );
}

#[tokio::test]
async fn a_late_subscriber_gets_the_latched_state() {
    let d = fresh_domain();
    let _pub = probe(
        d,
        &[
            "pub",
            "--ros-args",
            "-p",
            "count:=1",
            "-p",
            "linger_s:=30.0",
        ],
    )
    .spawn()
    .expect("spawn pub");
    tokio::time::sleep(Duration::from_secs(2)).await;
    let sub = probe(d, &["sub"]).spawn().expect("spawn sub");
    let (ok, text) = output(sub).await;
    assert!(ok, "{text}");
    assert!(text.contains("received ply 0"), "{text}");
}

#[tokio::test]
async fn topic_remaps_route_and_separate() {
    let d = fresh_domain();
    let _pub = probe(
        d,
        &[
            "pub",
            "--ros-args",
            "-r",
            "/game/state:=/elsewhere",
            "-p",
            "count:=300",
        ],
    )
    .spawn()
    .expect("spawn pub");
    // Remapped the same way: it hears the publisher.
    let sub = probe(
        d,
        &[
            "sub",
            "--ros-args",
            "-r",
            "/game/state:=/elsewhere",
            "-r",
            "__node:=listener",
        ],
    )
    .spawn()
    .expect("spawn sub");
    let (ok, text) = output(sub).await;
    assert!(ok, "{text}");
    // Not remapped: it listens on /game/state, where nobody talks.
    let deaf = probe(d, &["sub", "--ros-args", "-p", "timeout_s:=3.0"])
        .spawn()
        .expect("spawn sub");
    let (ok, text) = output(deaf).await;
    assert!(
        !ok,
        "a subscriber on another topic must hear nothing: {text}"
    );
    assert!(text.contains("no GameState received"), "{text}");
}

#[tokio::test]
async fn domains_are_separate() {
    let d = fresh_domain();
    let other = fresh_domain(); // reserved for this test, so no other test talks there
    let _pub = probe(d, &["pub", "--ros-args", "-p", "count:=300"])
        .spawn()
        .expect("spawn pub");
    let deaf = probe(other, &["sub", "--ros-args", "-p", "timeout_s:=3.0"])
        .spawn()
        .expect("spawn sub");
    let (ok, text) = output(deaf).await;
    assert!(!ok, "another domain must hear nothing: {text}");
}

#[tokio::test]
async fn bad_arguments_exit_with_a_clear_message() {
    let d = fresh_domain();
    let child = probe(d, &["pub", "--ros-args", "-p", "count:=many"])
        .spawn()
        .expect("spawn");
    let (ok, text) = output(child).await;
    assert!(!ok);
    assert!(text.contains("count") && text.contains("many"), "{text}");
    let child = probe(
        d,
        &["pub", "--ros-args", "--params-file", "/nonexistent.yaml"],
    )
    .spawn()
    .expect("spawn");
    let (ok, text) = output(child).await;
    assert!(!ok);
    assert!(text.contains("/nonexistent.yaml"), "{text}");
}

#[tokio::test]
async fn a_service_call_between_two_processes() {
    let d = fresh_domain();
    let _server = probe(d, &["serve", "--ros-args", "-p", "mask:=4095"])
        .spawn()
        .expect("spawn server");
    let (ok, text) = output(probe(d, &["call"]).spawn().expect("spawn client")).await;
    assert!(ok, "{text}");
    assert!(
        text.contains("occupancy 0x00000fff seq 1 success true"),
        "{text}"
    );
}

#[tokio::test]
async fn a_call_with_no_server_times_out_with_a_clear_error() {
    let d = fresh_domain();
    let (ok, text) = output(
        probe(d, &["call", "--ros-args", "-p", "timeout_s:=1.0"])
            .spawn()
            .expect("spawn client"),
    )
    .await;
    assert!(!ok, "{text}");
    assert!(text.contains("/board/scan"), "{text}");
}

#[tokio::test]
async fn an_action_runs_to_its_result_with_feedback() {
    let d = fresh_domain();
    let _server = probe(d, &["plan-server", "--ros-args", "-p", "steps:=5"])
        .spawn()
        .expect("spawn server");
    let (ok, text) = output(probe(d, &["plan-client"]).spawn().expect("spawn client")).await;
    assert!(ok, "{text}");
    assert!(text.contains("feedback depth 1 best 22-18"), "{text}");
    assert!(text.contains("outcome succeeded move 22-18"), "{text}");
}

#[tokio::test]
async fn an_action_goal_is_cancelled_at_once() {
    let d = fresh_domain();
    let _server = probe(d, &["plan-server", "--ros-args", "-p", "steps:=1000"])
        .spawn()
        .expect("spawn server");
    let (ok, text) = output(
        probe(d, &["plan-client", "--ros-args", "-p", "cancel_after:=2"])
            .spawn()
            .expect("spawn client"),
    )
    .await;
    assert!(ok, "{text}");
    assert!(text.contains("cancel agreed true"), "{text}");
    assert!(
        text.contains("outcome canceled move  message \"cancelled\""),
        "{text}"
    );
    let feedbacks = text.matches("feedback depth").count();
    assert!(feedbacks < 10, "the goal ran on after the cancel: {text}");
}

#[tokio::test]
async fn tracing_logs_reach_rosout_in_another_process() {
    let d = fresh_domain();
    let _logger = probe(d, &["log", "--ros-args", "-r", "__node:=talker"])
        .spawn()
        .expect("spawn logger");
    let (ok, text) = output(probe(d, &["rosout"]).spawn().expect("spawn reader")).await;
    assert!(ok, "{text}");
    assert!(
        text.contains("rosout talker level 20: probe says hello"),
        "{text}"
    );
}

#[tokio::test]
async fn parameters_from_a_file_and_the_command_line_override_defaults() {
    let dir = std::env::temp_dir().join(format!("ros_params_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("probe.yaml");
    std::fs::write(
        &file,
        "/**:\n  ros__parameters:\n    ratio: 0.25\n/ns/ros_probe:\n  ros__parameters:\n    label: from_file\n    limits:\n      depth: 9\n    count: 7\n",
    )
    .expect("write params file");
    let file = file.to_string_lossy().into_owned();
    let args = [
        "params",
        "--ros-args",
        "-r",
        "__ns:=/ns",
        "--params-file",
        file.as_str(),
        "-p",
        "count:=42",
        "-p",
        "typo:=1",
    ];
    let (ok, text) = output(probe(fresh_domain(), &args).spawn().expect("spawn")).await;
    assert!(ok, "{text}");
    assert!(
        text.contains("count 42 ratio 0.25 label from_file limits.depth 9"),
        "{text}"
    );
    assert!(text.contains("unused [\"typo\"]"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
