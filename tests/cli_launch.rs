//! `checkers-robot launch`: the command lines it would run (`--dry-run`), errors that point at
//! the file and line, a node that dies taking the launch down, and Ctrl-C stopping the nodes.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_checkers-robot");

fn repo() -> &'static str {
    env!("CARGO_MANIFEST_DIR")
}

fn launch(args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("launch")
        .args(args)
        .current_dir(repo())
        .output()
        .expect("checkers-robot runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn dry_run_prints_each_nodes_ros_args() {
    let out = launch(&["--dry-run", "tests/launch/graph.launch.xml", "level:=hard"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    let expected = format!(
        "planner: {BIN} node planner_node --ros-args -r __node:=planner -r __ns:=/robot \
         --params-file {repo}/config/difficulty/hard.yaml -p time_budget_s:=2.5 \
         -r /planner/evaluation:=/eval\n\
         expr_hard: {BIN} node expression_node --flag value --ros-args -r __node:=expr_hard -r __ns:=/face \
         -p speak:=false\n",
        repo = repo()
    );
    assert_eq!(stdout, expected);
    assert!(
        stderr.contains("skipping rviz2 (package rviz2, tests/launch/graph.launch.xml:29)"),
        "{stderr}"
    );
}

#[test]
fn a_node_this_package_does_not_have_is_bad_input() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("typo.launch.xml");
    std::fs::write(
        &file,
        r#"<launch><node pkg="checkers_robot" exec="referee_node"/></launch>"#,
    )
    .expect("write");
    let out = launch(&["--dry-run", &file.display().to_string()]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("checkers_robot has no executable referee_node")
            && stderr.contains("its nodes are sim_node, board_sensor_node"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn dry_run_of_the_simulated_robot() {
    let out = launch(&[
        "--dry-run",
        "checkers_robot",
        "sim.launch.xml",
        "difficulty:=hard",
        "run_dir:=/tmp/sim1",
    ]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    let labels: Vec<_> = stdout.lines().filter_map(|l| l.split(':').next()).collect();
    assert_eq!(
        labels,
        [
            "sim",
            "board_sensor",
            "arm",
            "planner",
            "arbiter",
            "expression",
            "web",
            "recorder"
        ]
    );
    let repo = repo();
    let line = |label: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(&format!("{label}: ")))
            .and_then(|l| l.split_once(" --ros-args ").map(|(_, r)| r.to_string()))
            .unwrap_or_default()
    };
    assert_eq!(
        line("planner"),
        format!(
            "--enclave /checkers/planner -r __node:=planner --params-file \
             {repo}/config/difficulty/hard.yaml"
        )
    );
    assert_eq!(
        line("arbiter"),
        format!(
            "--enclave /checkers/arbiter -r __node:=arbiter --params-file \
             {repo}/config/arbiter.yaml -p level:=hard -p state_dir:=/tmp/sim1/arbiter \
             -p difficulty_dir:={repo}/config/difficulty"
        )
    );
    assert!(line("arm").contains("-p port:=/tmp/sim1/arm"), "{stdout}");
    assert!(
        line("expression").contains("-p head_port:=/tmp/sim1/head"),
        "{stdout}"
    );
    assert!(
        line("board_sensor").contains("-p port:=/tmp/sim1/field"),
        "{stdout}"
    );
    assert!(line("sim").contains("-p run_dir:=/tmp/sim1"), "{stdout}");
    assert!(
        line("web").contains("-p sim:=true")
            && line("web").contains("-p url_file:=/tmp/sim1/web_url"),
        "{stdout}"
    );
    assert!(
        line("recorder").contains("-p dir:=/tmp/sim1/arbiter/games"),
        "{stdout}"
    );
    for skipped in ["robot_state_publisher", "rviz2"] {
        assert!(stderr.contains(&format!("skipping {skipped} ")), "{stderr}");
    }

    let out = launch(&["--dry-run", "launch/sim.launch.xml", "use_rviz:=false"]);
    assert!(out.status.success());
    assert!(!text(&out.stderr).contains("skipping"), "use_rviz:=false");

    // Without the window and the recorder the robot is the six nodes it always was.
    let out = launch(&[
        "--dry-run",
        "launch/sim.launch.xml",
        "web:=false",
        "record:=false",
    ]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(
        !stdout.contains("web_node") && !stdout.contains("recorder_node"),
        "{stdout}"
    );
}

#[test]
fn bad_files_and_arguments_are_input_errors() {
    let out = launch(&["--dry-run", "launch/sim.launch.xml", "difficulty:=godlike"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("launch/nodes.launch.xml:"), "{stderr}");
    assert!(
        stderr.contains("difficulty:=godlike is not one of"),
        "{stderr}"
    );

    let out = launch(&["--dry-run", "launch/sim.launch.xml", "dificulty:=hard"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("dificulty not declared"));

    let out = launch(&["--dry-run", "tests/launch/missing.launch.xml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("tests/launch/missing.launch.xml"));
}

fn domain(offset: u32) -> String {
    (200 + (std::process::id().wrapping_mul(7).wrapping_add(offset)) % 30).to_string()
}

/// Starts a launch with its stderr read line by line into a channel.
fn spawn(file: &str, offset: u32) -> (std::process::Child, mpsc::Receiver<String>) {
    spawn_with(&[file], offset, &[])
}

/// `checkers-robot launch ARGS` with extra environment, stderr into a channel.
fn spawn_with(
    args: &[&str],
    offset: u32,
    env: &[(&str, &str)],
) -> (std::process::Child, mpsc::Receiver<String>) {
    let mut child = Command::new(BIN)
        .arg("launch")
        .args(args)
        // Generous: six nodes stopping at once on a loaded 2-core machine.
        .args(["--grace-s", "10"])
        .current_dir(repo())
        .envs(env.iter().copied())
        .env("ROS_DOMAIN_ID", domain(offset))
        .env("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("launch starts");
    let (tx, rx) = mpsc::channel();
    let err = child.stderr.take().expect("stderr piped");
    std::thread::spawn(move || {
        for line in BufReader::new(err).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, rx)
}

/// Waits for the launch to exit, collecting its stderr; panics after `limit`.
fn finish(
    mut child: std::process::Child,
    rx: &mpsc::Receiver<String>,
    limit: Duration,
) -> (std::process::ExitStatus, String) {
    let start = Instant::now();
    let mut log = String::new();
    loop {
        while let Ok(l) = rx.try_recv() {
            log.push_str(&l);
            log.push('\n');
        }
        if let Some(st) = child.try_wait().expect("wait") {
            std::thread::sleep(Duration::from_millis(100));
            while let Ok(l) = rx.try_recv() {
                log.push_str(&l);
                log.push('\n');
            }
            return (st, log);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("launch still running after {limit:?}:\n{log}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_dying_node_is_named_and_stops_the_others() {
    let (child, rx) = spawn("tests/launch/dies.launch.xml", 0);
    let (status, log) = finish(child, &rx, Duration::from_secs(30));
    assert_eq!(status.code(), Some(1), "{log}");
    assert!(
        log.contains("[launch] node broken died (exit status: 1)"),
        "{log}"
    );
    assert!(log.contains("[launch] steady stopped"), "{log}");
    assert!(log.contains("error: node broken died"), "{log}");
    // The dead node's own words come through, under its name.
    assert!(log.contains("[broken] "), "{log}");
}

#[test]
fn ctrl_c_stops_every_node() {
    let (child, rx) = spawn("tests/launch/one.launch.xml", 1);
    let started = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("a first line");
    assert!(
        started.starts_with("[launch] started solo (pid "),
        "{started}"
    );
    // Let the node get going, then interrupt the launch as a terminal's Ctrl-C would.
    std::thread::sleep(Duration::from_millis(500));
    interrupt(&child);
    let (status, log) = finish(child, &rx, Duration::from_secs(15));
    assert!(status.success(), "{log}");
    assert!(
        log.contains("[launch] SIGINT: stopping every node"),
        "{log}"
    );
    assert!(log.contains("[launch] solo stopped"), "{log}");
    assert!(Path::new(BIN).is_file());
}

/// Interrupts a launch as a terminal's Ctrl-C would.
fn interrupt(child: &std::process::Child) {
    let ok = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(ok.success());
}

/// Each node of the simulated robot, stopped, removes its readers and writers before its
/// participant and that before the runtime: RustDDS, shown its errors, has none to report
/// ("Cannot remove Writer GUID" was logged for each endpoint a spinner held past its node),
/// and every node exits 0.
#[test]
fn the_simulated_robot_stops_in_order() {
    let run = std::env::temp_dir().join(format!("checkers_stop_order_{}", std::process::id()));
    let run_dir = format!("run_dir:={}", run.display());
    let state_dir = format!("state_dir:={}", run.join("arbiter").display());
    let (child, rx) = spawn_with(
        &[
            "launch/sim.launch.xml",
            "time_scale:=20",
            &run_dir,
            &state_dir,
        ],
        2,
        &[("RUST_LOG", "warn,rustdds=error,ros2_client=error")],
    );
    // A warn-level run prints nothing once it is up: wait for the sim's port links instead.
    let start = Instant::now();
    while !(run.join("field").exists() && run.join("arm").exists()) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the sim made no ports"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // Let every node build its endpoints and discover the others.
    std::thread::sleep(Duration::from_secs(8));
    interrupt(&child);
    let (status, log) = finish(child, &rx, Duration::from_secs(30));
    let _ = std::fs::remove_dir_all(&run);
    assert!(status.success(), "{log}");
    let errors: Vec<&str> = log.lines().filter(|l| l.contains("ERROR")).collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    for node in [
        "sim",
        "board_sensor",
        "arm",
        "planner",
        "arbiter",
        "expression",
    ] {
        assert!(
            log.contains(&format!("[launch] {node} stopped (exit status: 0)")),
            "{node}: {log}"
        );
    }
}

/// The pid in a `[launch] started NAME (pid N)` line.
fn started_pid(line: &str, name: &str) -> Option<String> {
    let rest = line.strip_prefix(&format!("[launch] started {name} (pid "))?;
    Some(rest.trim_end_matches(')').to_string())
}

#[test]
fn a_node_with_respawn_is_started_again_after_it_dies() {
    let (child, rx) = spawn("tests/launch/respawn.launch.xml", 3);
    let first = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("a first line");
    let pid = started_pid(&first, "phoenix").unwrap_or_else(|| panic!("{first}"));
    std::thread::sleep(Duration::from_millis(500));
    let killed = Command::new("kill")
        .args(["-KILL", &pid])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let mut log = String::new();
    let again = loop {
        let line = rx
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("no respawn:\n{log}"));
        log.push_str(&line);
        log.push('\n');
        if let Some(p) = started_pid(&line, "phoenix") {
            break p;
        }
    };
    assert_ne!(again, pid);
    assert!(
        log.contains("[launch] node phoenix died (signal: 9 (SIGKILL)): respawning in 0.5 s"),
        "{log}"
    );
    std::thread::sleep(Duration::from_millis(500));
    interrupt(&child);
    let (status, rest) = finish(child, &rx, Duration::from_secs(15));
    assert!(status.success(), "{log}{rest}");
    assert!(rest.contains("[launch] phoenix stopped"), "{log}{rest}");
}
