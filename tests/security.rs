//! DDS Security (SROS2) on the whole simulated robot: a keystore made by
//! `checkers-robot security init` from `config/security/policy.xml`, the graph launched with
//! `secure:=true keystore:=DIR` (each node in its own enclave, Enforce), and then, from outside:
//! - the play interface's enclave plays (the game reaches the robot's reply);
//! - a participant without credentials sees no topic and gets no answer;
//! - the viewer's enclave reads `/joint_states`, but cannot send the arm a goal, and the arm
//!   does not move;
//! - where ROS 2 is installed (`../shared/ros2`; required when `CHECKERS_REQUIRE_ROS2=1`), the
//!   same with rclpy on rmw_cyclonedds_cpp and on rmw_fastrtps_cpp (each with its own DDS
//!   Security plugins): the operator's enclave reads `/game/state` and starts a new game with
//!   `/game/new`, a participant without credentials reads nothing and finds no `/game/new`,
//!   the viewer reads `/joint_states` and its `/arm/execute` goal is refused;
//! - with rviz2 installed too, on the default backend: the stock `ros2` tools in the operator's
//!   enclave over both RMWs, and the viewer's launch (robot_state_publisher, rviz2, on Fast
//!   DDS), with the commands docs/security.md gives (`stock_tools`).
//!
//! CI runs it twice: on the default backend, and with every node and the test's client on r2r
//! (rcl over rmw_cyclonedds_cpp, secured by rcl from the same keystore). On r2r one process
//! holds one set of DDS settings, so the outsiders there are rclpy's alone.

mod graph_support;
mod ros2_support;
mod stock_tools;

use std::path::Path;
use std::time::Duration;

use checkers_msgs::action::{ExecuteMove, ExecuteMove_Goal};
use checkers_msgs::msg::{GameEvent, GameState};
use checkers_msgs::sensor_msgs::msg::JointState;
use checkers_msgs::srv::{NewGame, NewGame_Request};
use futures::StreamExt;
use graph_support::client::client_node;
use graph_support::sim::{private_domain, SimGraph};
use graph_support::{GraphClient, START, WAIT};
use ros::security::{SecurityEnv, Strategy};
use ros::Qos;

/// How long an outsider is given to see anything: discovery here takes well under a second.
const OUTSIDER: Duration = Duration::from_secs(8);

fn enforce(ks: &Path) -> Option<SecurityEnv> {
    Some(SecurityEnv {
        strategy: Strategy::Enforce,
        keystore: Some(ks.to_path_buf()),
        enclave_override: None,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_robots_enclaves_reach_the_secured_graph() {
    // Secured discovery between the graph's participants sometimes never completed: up to
    // 2026-12-05 this test failed more of its launches than it passed on this 2-core machine
    // (a pair of participants that never matched). Three faults of RustDDS's were mended then
    // (vendor patches 22 to 24); since then most launches come up at the first try, but not
    // all: a fresh Cyclone DDS participant that never sends the final message to our reply, or
    // our client that never reaches the sim, still happen now and then (docs/results.md).
    // This test is about who may reach the graph, so it still launches anew, on another
    // domain, up to four times before it fails.
    use futures::FutureExt;
    use std::io::Write;
    for (launch, salt) in [1, 3, 5].into_iter().enumerate() {
        let attempt = std::panic::AssertUnwindSafe(secured_graph(salt));
        let Err(panic) = attempt.catch_unwind().await else {
            return;
        };
        // Straight to the process's stderr, past the test harness's capture, so that CI's
        // log says how many launches the test needed, and why, even when it passes.
        let why = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("(no message)");
        let why: String = why.lines().take(12).collect::<Vec<_>>().join("\n  ");
        let _ = writeln!(
            std::io::stderr().lock(),
            "security: launch {} of the secured graph failed; launching it again on another \
             domain. It failed with:\n  {why}",
            launch + 1
        );
    }
    secured_graph(7).await;
}

async fn secured_graph(salt: u16) {
    let dir = tempfile::tempdir().expect("temp dir");
    let ks = graph_support::keystore(dir.path());
    // Below 231: Cyclone DDS takes no security document naming a higher domain.
    let domain = private_domain(195..200, salt);
    let mut options = graph_support::options(dir.path(), domain, "novice");
    options.keystore = Some(ks.clone());
    // Without the web window and the recorder. With their two participants (nine in all) the
    // secured graph came up in none of three launches on 2026-12-04, and in 4 of 6 on
    // 2026-12-05 after the handshake fixes (vendor patches 22 to 24), passing the test each
    // time it came up: better, not yet reliable (docs/security.md). Their enclaves are in the
    // keystore all the same.
    options.args = vec!["web:=false".into(), "record:=false".into()];
    let sim = SimGraph::launch(&options).expect("the launch starts");
    let log = dir.path().join("launch.log");
    let tail = || ros2_support::tail(&log);

    // The play interface plays: its enclave may call /sim/human_move and read the game.
    let client = GraphClient::connect_with(domain, enforce(&ks), "/checkers/play")
        .expect("the play client joins");
    if let Err(e) = client.wait_ready(START).await {
        panic!("the secured graph did not come up: {e:#}\n{}", tail());
    }
    if let Err(e) = client.wait_human(START).await {
        panic!("the simulated human did not answer: {e:#}\n{}", tail());
    }
    let first = client
        .wait_state(START, |s| s.status == GameState::STATUS_WAITING_FOR_HUMAN)
        .await
        .unwrap_or_else(|e| panic!("the first human turn: {e:#}\n{}", tail()));
    let mut events = client.events();
    let reply = (GameEvent::KIND_ROBOT_MOVED, WAIT, "the robot's reply");
    graph_support::first_move_then(&client, &first, &mut events, reply, tail).await;

    // rclpy over both of Jazzy's RMWs, each with its own DDS Security plugins. On r2r the
    // nodes are rcl's over Cyclone DDS, which a secured Fast DDS participant never talks to
    // (../shared/ros2's README), so there rclpy runs over Cyclone DDS only.
    let ros = ros2_support::ros2_prefix();
    let rmws: &[&str] = if ros::BACKEND == "r2r" {
        &["rmw_cyclonedds_cpp"]
    } else {
        &["rmw_cyclonedds_cpp", "rmw_fastrtps_cpp"]
    };
    // The outsiders' checks wait out their whole time for what must never come: they run
    // beside the checks of what must come, which keeps each of them whole and the test about
    // a minute shorter. rclpy's outsiders have no credentials, so they take part in no
    // handshake, and Fast DDS's beside Cyclone DDS's secured tools is no mixed handshake.
    let msgs = ros.as_deref().map(ros2_support::checkers_msgs);
    let rclpy = |rmw| {
        let ros = ros.as_deref()?;
        let msgs = msgs.as_deref()?;
        Some(Rclpy {
            ros,
            msgs,
            dir: dir.path(),
            ks: &ks,
            domain,
            rmw,
        })
    };
    let intruders: Vec<_> = rmws
        .iter()
        .filter_map(|rmw| rclpy(rmw))
        .map(|r| r.spawn(None, "intruder"))
        .collect();
    // rcl keeps one set of DDS settings per process (rmw_cyclonedds_cpp: one security
    // configuration per domain in a process), so on r2r the outsiders are rclpy's alone.
    if ros::BACKEND != "r2r" {
        outsiders_in_process(domain, &ks, &tail).await;
    }
    if let (Some(ros), Some(msgs)) = (&ros, &msgs) {
        for rclpy in rmws.iter().filter_map(|rmw| rclpy(rmw)) {
            rclpy.insiders();
        }
        for intruder in intruders {
            let text = intruder.finish();
            assert!(text.contains("state none"), "{text}");
            assert!(text.contains("new_game unreachable"), "{text}");
        }
        // The stock tools once, against the default backend's graph: on r2r the nodes are
        // rcl's own, which the stock tools meet in every ROS 2 install.
        if ros::BACKEND != "r2r" && ros2_support::has_viz(ros) {
            // The viewer (on Fast DDS) with Fast DDS's tools, then Cyclone DDS's tools alone:
            // never the two vendors' secured participants at once, whose handshakes with each
            // other fail (../shared/ros2's README). Side by side, a Cyclone tool once found no
            // /game/new in three tries of 30 s.
            let operator =
                |rmw| stock_tools::operator_commands(ros, msgs, dir.path(), &ks, domain, rmw);
            let mut viewer = stock_tools::Viewer::start(ros, dir.path(), &ks, domain);
            operator("rmw_fastrtps_cpp");
            viewer.check(&Path::new(env!("CARGO_TARGET_TMPDIR")).join("rviz-viewer.png"));
            drop(viewer);
            operator("rmw_cyclonedds_cpp");
        }
    }
    drop(client);
    drop(sim);
}

/// No credentials, and the viewer's enclave, side by side from this process with our own
/// client.
async fn outsiders_in_process(domain: u16, ks: &Path, tail: &dyn Fn() -> String) {
    tokio::join!(
        intruder_in_process(domain),
        viewer_in_process(domain, ks, tail)
    );
}

/// No credentials: the secured participants never match it.
async fn intruder_in_process(domain: u16) {
    let mut intruder =
        client_node(domain, None, "/", "intruder", "intruder").expect("an unsecured node");
    let states = intruder
        .subscription::<GameState>("/game/state", Qos::State)
        .expect("subscription");
    let new_game = intruder
        .service_client::<NewGame>("/game/new")
        .expect("client");
    let mut stream = states.stream();
    let (seen, answer) = tokio::join!(
        tokio::time::timeout(OUTSIDER, stream.next()),
        new_game.call(NewGame_Request::default(), OUTSIDER)
    );
    assert!(seen.is_err(), "an outsider read /game/state: {seen:?}");
    assert!(answer.is_err(), "an outsider started a game: {answer:?}");
}

/// The viewer (rviz2's enclave) sees the arm but may not move it.
async fn viewer_in_process(domain: u16, ks: &Path, tail: &dyn Fn() -> String) {
    let mut viewer = client_node(domain, enforce(ks), "/checkers/viewer", "rviz2", "viewer")
        .expect("the viewer joins");
    let joints = viewer
        .subscription::<JointState>("/joint_states", Qos::Sensor)
        .expect("subscription");
    let mut joints = joints.stream();
    let before = tokio::time::timeout(WAIT, joints.next())
        .await
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("the viewer read no /joint_states\n{}", tail()));
    match viewer.action_client::<ExecuteMove>("/arm/execute") {
        // RustDDS checks its own permissions first: the goal's writer is not created.
        Err(e) => assert!(e.to_string().contains("/arm/execute"), "{e}"),
        Ok(arm) => {
            let goal = ExecuteMove_Goal {
                game_move: checkers_msgs::msg::Move::default(),
            };
            let sent = arm.send_goal(goal, OUTSIDER).await;
            assert!(sent.is_err(), "the viewer's goal reached the arm");
        }
    }
    // The arm's and the neck's joints share the topic: compare like with like.
    let end = tokio::time::Instant::now() + Duration::from_secs(2);
    while let Ok(Some(now)) = tokio::time::timeout_at(end, joints.next()).await {
        if now.name == before.name {
            assert_eq!(now.position, before.position, "{:?} moved", now.name);
        }
    }
    drop(joints);
}

/// rclpy on `rmw` (whose DDS Security plugins are its DDS's own) with the same keystore.
struct Rclpy<'a> {
    ros: &'a Path,
    /// checkers_msgs as colcon built it.
    msgs: &'a Path,
    dir: &'a Path,
    ks: &'a Path,
    domain: u16,
    rmw: &'a str,
}

/// One run of tests/ros2/secure_client.py, its output read when it ends.
struct RclpyRun {
    child: std::process::Child,
    what: String,
}

impl RclpyRun {
    fn finish(self) -> String {
        let out = self.child.wait_with_output().expect("bash runs");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        eprintln!(
            "rclpy {}: {text}{}",
            self.what,
            String::from_utf8_lossy(&out.stderr)
        );
        text
    }
}

impl<'a> Rclpy<'a> {
    /// Starts the script in `mode` in `enclave` (`None`: no credentials).
    fn spawn(&self, enclave: Option<&str>, mode: &str) -> RclpyRun {
        let security = enclave
            .map(|e| stock_tools::secured(self.ks, e))
            .unwrap_or_default();
        let script = format!(
            "source {}/local_setup.bash && {security}python3 {} {mode} 20",
            self.msgs.display(),
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/ros2/secure_client.py")
                .display()
        );
        let child =
            ros2_support::ros_shell(self.rmw, self.ros, self.ros, self.dir, self.domain, &script)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("bash runs");
        RclpyRun {
            child,
            what: format!("{mode} ({})", self.rmw),
        }
    }

    fn run(&self, enclave: Option<&str>, mode: &str) -> String {
        self.spawn(enclave, mode).finish()
    }

    /// The operator reads the game and starts a new one; the viewer reads the joints and may
    /// not send the arm a goal.
    fn insiders(&self) {
        // The operator once more when it found nothing at all: a new participant that does
        // not match the graph in time is the secured-discovery gap of docs/security.md, and
        // one more try costs 20 s where a new launch costs minutes. Printed either way.
        let mut operator = self.run(Some("/checkers/operator"), "operator");
        if operator.contains("state none") && operator.contains("new_game unreachable") {
            eprintln!(
                "security: rclpy's operator ({}) found nothing; once more",
                self.rmw
            );
            operator = self.run(Some("/checkers/operator"), "operator");
        }
        assert!(operator.contains("state ply="), "{operator}");
        assert!(operator.contains("new_game success=True"), "{operator}");
        let viewer = self.run(Some("/checkers/viewer"), "viewer");
        assert!(viewer.contains("joints "), "{viewer}");
        assert!(!viewer.contains("joints none"), "{viewer}");
        assert!(viewer.contains("goal refused"), "{viewer}");
    }
}
