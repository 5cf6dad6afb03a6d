//! `ros2 launch checkers_robot sim.launch.xml` with the real launch and launch_ros of ROS 2
//! Jazzy (`../shared/ros2`): the package is installed as colcon-ros-cargo would lay it out
//! (share/checkers_robot with launch, config and urdf; lib/checkers_robot with the node
//! executables; the ament index marker), the `difficulty` argument is given, and a game is
//! played to its end against the graph client, as `watch` plays it.
//!
//! Skipped where ROS 2 is not installed, unless `CHECKERS_REQUIRE_ROS2=1` (set by CI).

mod graph_support;

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use checkers_msgs::msg::GameState;
use graph_support::{play_human_to_the_end, sim, GraphClient, START};
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;

const NODES: [&str; 6] = [
    "sim_node",
    "board_sensor_node",
    "arm_node",
    "planner_node",
    "arbiter_node",
    "expression_node",
];

fn ros2_prefix() -> Option<PathBuf> {
    let prefix = std::env::var_os("ROS2_PREFIX")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/opt/ros/jazzy-min"));
    if prefix.join("setup.bash").is_file() {
        return Some(prefix);
    }
    assert!(
        std::env::var_os("CHECKERS_REQUIRE_ROS2").is_none(),
        "CHECKERS_REQUIRE_ROS2 is set but there is no ROS 2 at /opt/ros/jazzy-min or ROS2_PREFIX"
    );
    eprintln!("skipped: no ROS 2 Jazzy installed (../shared/ros2/setup.sh installs it)");
    None
}

/// The package installed under `root` as colcon would: what `ros2 launch` and
/// `$(find-pkg-share checkers_robot)` look up.
fn install_package(root: &Path) -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let prefix = root.join("install");
    let index = prefix.join("share/ament_index/resource_index/packages");
    let share = prefix.join("share/checkers_robot");
    let lib = prefix.join("lib/checkers_robot");
    for dir in [&index, &share, &lib] {
        std::fs::create_dir_all(dir).expect("temp dir is writable");
    }
    std::fs::write(index.join("checkers_robot"), "").expect("temp dir is writable");
    // Copied, not linked: `ros2 launch PACKAGE FILE` searches the share folder without
    // following links.
    for dir in ["launch", "config", "urdf"] {
        let status = Command::new("cp")
            .arg("-r")
            .arg(repo.join(dir))
            .arg(&share)
            .status()
            .expect("cp runs");
        assert!(status.success(), "copying {dir}");
    }
    let exe_dir = Path::new(env!("CARGO_BIN_EXE_checkers-robot"))
        .parent()
        .expect("the executables' folder");
    for node in NODES {
        std::os::unix::fs::symlink(exe_dir.join(node), lib.join(node)).expect("symlink");
    }
    prefix
}

/// `ros2 launch` in its own process group; SIGINT to the group on drop, as Ctrl-C does.
struct Launch {
    child: Child,
}

impl Drop for Launch {
    fn drop(&mut self) {
        let group = Pid::from_raw(self.child.id() as i32);
        let _ = killpg(group, Signal::SIGINT);
        for _ in 0..100 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = killpg(group, Signal::SIGKILL);
        let _ = self.child.wait();
    }
}

fn tail(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(60)..].join("\n")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ros2_launch_plays_a_game_to_its_end() {
    let Some(ros) = ros2_prefix() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    let prefix = install_package(dir.path());
    let run_dir = dir.path().join("run");
    let state_dir = run_dir.join("arbiter");
    std::fs::create_dir_all(&state_dir).expect("temp dir is writable");
    let log = dir.path().join("launch.log");
    let domain = graph_support::domain(17);
    let script = format!(
        "source {ros}/setup.bash && export AMENT_PREFIX_PATH={prefix}:$AMENT_PREFIX_PATH \
         PATH={ros}/venv/bin:$PATH RMW_IMPLEMENTATION=rmw_cyclonedds_cpp ROS_DISTRO=jazzy \
         ROS_VERSION=2 ROS_PYTHON_VERSION=3 ROS_DOMAIN_ID={domain} \
         ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST ROS_LOG_DIR={logs} && \
         exec ros2 launch checkers_robot sim.launch.xml difficulty:=novice use_rviz:=false \
         time_scale:={scale} run_dir:={run} state_dir:={state}",
        ros = ros.display(),
        prefix = prefix.display(),
        logs = dir.path().join("ros_log").display(),
        scale = graph_support::TIME_SCALE,
        run = run_dir.display(),
        state = state_dir.display(),
    );
    let out = std::fs::File::create(&log).expect("log file");
    let err = out.try_clone().expect("log file");
    let child = Command::new("bash")
        .args(["-c", &script])
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .process_group(0)
        .spawn()
        .expect("ros2 launch starts");
    let launch = Launch { child };

    let client = GraphClient::connect(domain).expect("the client joins the domain");
    if let Err(e) = client.wait_ready(START).await {
        panic!("the graph did not come up: {e:#}\n{}", tail(&log));
    }
    let first = match client
        .wait_state(START, |s| s.status == GameState::STATUS_WAITING_FOR_HUMAN)
        .await
    {
        Ok(s) => s,
        Err(e) => panic!("the first human turn: {e:#}\n{}", tail(&log)),
    };
    assert_eq!(
        first.level, "novice",
        "the difficulty argument reached the arbiter"
    );
    let state = play_human_to_the_end(&client, first, || tail(&log)).await;
    assert!(
        matches!(state.result.as_str(), "1-0" | "0-1" | "1/2-1/2"),
        "{state:?}"
    );
    let mut archived = Vec::new();
    for _ in 0..100 {
        archived = sim::archived_games(&state_dir);
        if !archived.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(archived.len(), 1, "one archived game: {archived:?}");
    drop(launch);
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    for node in NODES {
        assert!(
            text.contains(&format!("[{node}-")),
            "launch_ros started {node}:\n{}",
            tail(&log)
        );
    }
}
