//! `ros2 launch checkers_robot sim.launch.xml` with the real launch and launch_ros of ROS 2
//! Jazzy (`../shared/ros2`): the package is installed as colcon-ros-cargo would lay it out
//! (share/checkers_robot with launch, config and urdf; lib/checkers_robot with the node
//! executables; the ament index marker), the `difficulty` argument is given, and a game is
//! played to its end against the graph client, as `watch` plays it.
//!
//! A second test launches it with `use_rviz`: the real robot_state_publisher and rviz2 (under
//! Xvfb), and checks through rclpy's tf2 that the TF tree follows the arm's forward kinematics
//! and places every link of the URDF, that rviz2 stays up and logs no error, and saves its
//! screenshot to `target/tmp/rviz.png`.
//!
//! The RMW is `RMW_IMPLEMENTATION` (default `rmw_cyclonedds_cpp`; `.ci/run` runs these tests
//! once more with `rmw_fastrtps_cpp`). Skipped where ROS 2 is not installed, unless
//! `CHECKERS_REQUIRE_ROS2=1` (set by CI), which also requires rviz2 and Fast DDS
//! (`../shared/ros2/setup.sh all`).

mod graph_support;

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use arm_kinematics::fk::Kinematics;
use arm_kinematics::joints::Joints;
use checkers_msgs::msg::GameState;
use graph_support::{play_human, play_human_to_the_end, sim, GraphClient, START};
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

/// The trees `setup.sh all` installs beside jazzy-min, as `source` commands.
fn overlays(ros: &Path) -> String {
    let mut line = String::new();
    for tree in ["jazzy-fastdds", "jazzy-viz"] {
        let setup = ros.with_file_name(tree).join("local_setup.bash");
        if setup.is_file() {
            line.push_str(&format!("source {} && ", setup.display()));
        }
    }
    line
}

fn rmw() -> String {
    std::env::var("RMW_IMPLEMENTATION").unwrap_or_else(|_| "rmw_cyclonedds_cpp".into())
}

/// The RMW of the rviz test. The jazzy-viz tree of `../shared/ros2` built tf2_msgs (and rviz's
/// other interfaces) without Fast DDS's static type support, so rmw_fastrtps_cpp cannot create
/// a `/tf` endpoint there ("invalid allocator"); rmw_fastrtps_dynamic_cpp, the same Fast DDS
/// over the introspection type support, can. A full Jazzy install has both.
fn viz_rmw() -> String {
    match rmw().as_str() {
        "rmw_fastrtps_cpp" => "rmw_fastrtps_dynamic_cpp".into(),
        other => other.into(),
    }
}

/// `bash -c SCRIPT` with ROS 2, its overlays and the package under `prefix` sourced, on `rmw` and
/// `domain`.
fn ros_shell(
    rmw: &str,
    ros: &Path,
    prefix: &Path,
    logs: &Path,
    domain: u16,
    script: &str,
) -> Command {
    let mut cmd = Command::new("bash");
    cmd.arg("-c").arg(format!(
        "source {ros}/setup.bash && {trees}export AMENT_PREFIX_PATH={prefix}:$AMENT_PREFIX_PATH \
         PATH={ros}/venv/bin:$PATH RMW_IMPLEMENTATION={rmw} ROS_DISTRO=jazzy \
         ROS_VERSION=2 ROS_PYTHON_VERSION=3 ROS_DOMAIN_ID={domain} \
         ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST ROS_LOG_DIR={logs} PYTHONUNBUFFERED=1 && {script}",
        ros = ros.display(),
        trees = overlays(ros),
        prefix = prefix.display(),
        logs = logs.display(),
    ));
    cmd.stdin(Stdio::null());
    cmd
}

/// `ros2 launch checkers_robot sim.launch.xml ARGS` on `rmw`, its output in `dir/launch.log`.
fn launch(
    rmw: &str,
    ros: &Path,
    prefix: &Path,
    dir: &Path,
    domain: u16,
    env: &str,
    args: &str,
) -> Launch {
    let run_dir = dir.join("run");
    std::fs::create_dir_all(run_dir.join("arbiter")).expect("temp dir is writable");
    let script = format!(
        "{env} exec ros2 launch checkers_robot sim.launch.xml difficulty:=novice {args} \
         time_scale:={scale} run_dir:={run} state_dir:={run}/arbiter",
        scale = graph_support::TIME_SCALE,
        run = run_dir.display(),
    );
    let out = std::fs::File::create(dir.join("launch.log")).expect("log file");
    let err = out.try_clone().expect("log file");
    let child = ros_shell(rmw, ros, prefix, &dir.join("ros_log"), domain, &script)
        .stdout(out)
        .stderr(err)
        .process_group(0)
        .spawn()
        .expect("ros2 launch starts");
    Launch { child }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ros2_launch_plays_a_game_to_its_end() {
    let Some(ros) = ros2_prefix() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    let prefix = install_package(dir.path());
    let log = dir.path().join("launch.log");
    let domain = graph_support::domain(17);
    let launch = launch(
        &rmw(),
        &ros,
        &prefix,
        dir.path(),
        domain,
        "",
        "use_rviz:=false",
    );
    let state_dir = dir.path().join("run/arbiter");

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

/// An X server of its own for rviz2; killed on drop.
struct Xvfb {
    child: Child,
    display: String,
}

impl Xvfb {
    fn start() -> Xvfb {
        let display = format!(":{}", 40 + std::process::id() % 50);
        let child = Command::new("Xvfb")
            .args([
                display.as_str(),
                "-screen",
                "0",
                "1600x1000x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb runs (../shared/ros2/setup.sh all installs it)");
        std::thread::sleep(Duration::from_secs(1));
        Xvfb { child, display }
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One `sample` line of tests/ros2/tf_probe.py: the arm's joints, the neck's, the cup's position.
fn sample(line: &str) -> Option<([f64; 3], [f64; 2], [f64; 3])> {
    let v: Vec<f64> = line
        .strip_prefix("sample ")?
        .split_whitespace()
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    (v.len() == 8).then(|| ([v[0], v[1], v[2]], [v[3], v[4]], [v[5], v[6], v[7]]))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ros2_launch_shows_the_whole_robot_in_rviz() {
    let Some(ros) = ros2_prefix() else { return };
    if !ros
        .with_file_name("jazzy-viz")
        .join("local_setup.bash")
        .is_file()
    {
        assert!(
            std::env::var_os("CHECKERS_REQUIRE_ROS2").is_none(),
            "CHECKERS_REQUIRE_ROS2 is set but rviz2 is not installed: ../shared/ros2/setup.sh all"
        );
        eprintln!("skipped: no robot_state_publisher and rviz2 (../shared/ros2/setup.sh all)");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let prefix = install_package(dir.path());
    // rviz2 renders in software here, on the two cores the whole graph shares: 5 frames a
    // second instead of the shipped 30 leave the nodes and robot_state_publisher their time.
    let rviz_config = prefix.join("share/checkers_robot/launch/checkers_robot.rviz");
    let shipped = std::fs::read_to_string(&rviz_config).expect("the rviz config");
    assert!(shipped.contains("Frame Rate: 30"), "the shipped frame rate");
    std::fs::write(
        &rviz_config,
        shipped.replace("Frame Rate: 30", "Frame Rate: 5"),
    )
    .expect("temp dir is writable");
    let log = dir.path().join("launch.log");
    let domain = graph_support::domain(18);
    let x = Xvfb::start();
    let env = format!("export DISPLAY={} LIBGL_ALWAYS_SOFTWARE=1 &&", x.display);
    let launch = launch(
        &viz_rmw(),
        &ros,
        &prefix,
        dir.path(),
        domain,
        &env,
        "use_rviz:=true",
    );

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
    // The TF tree sampled while the robot plays its replies, the arm moving.
    let urdf = prefix.join("share/checkers_robot/urdf/checkers_robot.urdf");
    let probe_script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ros2/tf_probe.py");
    let probe = ros_shell(
        &viz_rmw(),
        &ros,
        &prefix,
        &dir.path().join("ros_log"),
        domain,
        &format!(
            "timeout -s KILL 150 python3 {} {} 12 120",
            probe_script.display(),
            urdf.display()
        ),
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("the tf probe starts");
    let mut probe = probe;
    let mut state = first;
    while !graph_support::over(&state) && matches!(probe.try_wait(), Ok(None)) {
        state = play_human(&client, state.clone(), state.ply + 2, || tail(&log)).await;
    }
    let probe = tokio::task::spawn_blocking(move || probe.wait_with_output())
        .await
        .expect("the probe's waiter")
        .expect("the tf probe runs");
    let out = String::from_utf8_lossy(&probe.stdout).into_owned();
    let err = String::from_utf8_lossy(&probe.stderr).into_owned();
    assert!(
        probe.status.success(),
        "the tf probe ({}): {out}\n{err}\n{}",
        rmw(),
        tail(&log)
    );

    // Every sample's cup where our forward kinematics puts it, from the same URDF.
    let text = std::fs::read_to_string(&urdf).expect("the URDF");
    let kinematics = Kinematics::from_urdf(&text).expect("the URDF's kinematics");
    let samples: Vec<_> = out.lines().filter_map(sample).collect();
    assert_eq!(samples.len(), 12, "{out}");
    for (joints, neck, cup) in &samples {
        let q = Joints::from_urdf_positions(*joints);
        let pose = kinematics
            .link_pose("suction_cup", &q, *neck)
            .expect("the URDF has the cup");
        let error = ((pose.translation.x - cup[0]).powi(2)
            + (pose.translation.y - cup[1]).powi(2)
            + (pose.translation.z - cup[2]).powi(2))
        .sqrt();
        assert!(
            error < 1e-4,
            "tf2 put the cup {error} m from our FK: {joints:?} {cup:?}"
        );
    }
    let mut poses: Vec<String> = samples
        .iter()
        .map(|(j, _, _)| format!("{:.3} {:.3} {:.3}", j[0], j[1], j[2]))
        .collect();
    poses.sort();
    poses.dedup();
    assert!(
        poses.len() >= 3,
        "the arm moved while sampled ({} plies): {poses:?}",
        state.ply
    );
    let links = text.matches("<link name=").count();
    let expected = format!("links {links} missing");
    assert!(
        out.lines().any(|l| l.trim_end() == expected),
        "every URDF link has a transform:\n{out}"
    );

    // rviz2 is up, said nothing wrong, and shows the robot.
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rviz.png");
    let status = Command::new("import")
        .args(["-window", "root"])
        .arg(&shot)
        .env("DISPLAY", &x.display)
        .status()
        .expect("ImageMagick's import runs");
    assert!(status.success(), "the screenshot");
    let size = std::fs::metadata(&shot).map(|m| m.len()).unwrap_or(0);
    assert!(
        size > 50_000,
        "a screenshot of a drawn scene, not a blank one: {size} bytes"
    );
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    for node in ["robot_state_publisher", "rviz2"] {
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| l.contains(&format!("[{node}-")))
            .collect();
        assert!(!lines.is_empty(), "{node} started:\n{text}");
        assert!(
            !lines.iter().any(|l| l.contains("process has died")),
            "{node} died:\n{text}"
        );
    }
    let errors: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("ERROR") || (l.contains("[rviz2-") && l.contains("WARN")))
        .collect();
    assert!(
        errors.is_empty(),
        "errors in the launch:\n{}",
        errors.join("\n")
    );
    drop(launch);
}
