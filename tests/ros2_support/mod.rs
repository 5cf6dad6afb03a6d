//! What the tests against the real `ros2 launch` share: the package installed as colcon lays it
//! out, `ros2 launch` in its own process group, the ROS 2 shell of the chosen RMW.

#![allow(dead_code)]

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;

pub fn ros2_prefix() -> Option<PathBuf> {
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
pub fn install_package(root: &Path) -> PathBuf {
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
    for node in checkers_robot::node_table::names() {
        std::os::unix::fs::symlink(exe_dir.join(node), lib.join(node)).expect("symlink");
    }
    prefix
}

/// `ros2 launch` in its own process group; SIGINT to the group on drop, as Ctrl-C does.
pub struct Launch {
    pub child: Child,
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

pub fn tail(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(60)..].join("\n")
}

/// The trees `setup.sh all` installs beside jazzy-min, as `source` commands.
pub fn overlays(ros: &Path) -> String {
    let mut line = String::new();
    for tree in ["jazzy-fastdds", "jazzy-viz"] {
        let setup = ros.with_file_name(tree).join("local_setup.bash");
        if setup.is_file() {
            line.push_str(&format!("source {} && ", setup.display()));
        }
    }
    line
}

pub fn rmw() -> String {
    std::env::var("RMW_IMPLEMENTATION").unwrap_or_else(|_| "rmw_cyclonedds_cpp".into())
}

/// The RMW of the rviz test. The jazzy-viz tree of `../shared/ros2` built tf2_msgs (and rviz's
/// other interfaces) without Fast DDS's static type support, so rmw_fastrtps_cpp cannot create
/// a `/tf` endpoint there ("invalid allocator"); rmw_fastrtps_dynamic_cpp, the same Fast DDS
/// over the introspection type support, can. A full Jazzy install has both.
pub fn viz_rmw() -> String {
    match rmw().as_str() {
        "rmw_fastrtps_cpp" => "rmw_fastrtps_dynamic_cpp".into(),
        other => other.into(),
    }
}

/// `bash -c SCRIPT` with ROS 2, its overlays and the package under `prefix` sourced, on `rmw` and
/// `domain`, discovery kept to this computer.
pub fn ros_shell(
    rmw: &str,
    ros: &Path,
    prefix: &Path,
    logs: &Path,
    domain: u16,
    script: &str,
) -> Command {
    let mut cmd = Command::new("bash");
    cmd.arg("-c").arg(ros_script(
        rmw,
        ros,
        prefix,
        logs,
        domain,
        "LOCALHOST",
        script,
    ));
    clean_security(cmd)
}

/// The script [`ros_shell`] runs, with discovery reaching `range` (`LOCALHOST`, `SUBNET`).
pub fn ros_script(
    rmw: &str,
    ros: &Path,
    prefix: &Path,
    logs: &Path,
    domain: u16,
    range: &str,
    script: &str,
) -> String {
    format!(
        "source {ros}/setup.bash && {trees}export AMENT_PREFIX_PATH={prefix}:$AMENT_PREFIX_PATH \
         PATH={ros}/venv/bin:$PATH RMW_IMPLEMENTATION={rmw} ROS_DISTRO=jazzy \
         ROS_VERSION=2 ROS_PYTHON_VERSION=3 ROS_DOMAIN_ID={domain} \
         ROS_AUTOMATIC_DISCOVERY_RANGE={range} ROS_LOG_DIR={logs} PYTHONUNBUFFERED=1 && {script}",
        ros = ros.display(),
        trees = overlays(ros),
        prefix = prefix.display(),
        logs = logs.display(),
    )
}

/// `cmd` without this process's security settings and without input.
pub fn clean_security(mut cmd: Command) -> Command {
    // Security is the script's to set: on r2r, this process's own nodes set these variables.
    for var in [
        "ROS_SECURITY_ENABLE",
        "ROS_SECURITY_STRATEGY",
        "ROS_SECURITY_KEYSTORE",
        "ROS_SECURITY_ENCLAVE_OVERRIDE",
    ] {
        cmd.env_remove(var);
    }
    cmd.stdin(Stdio::null());
    cmd
}

/// `ros2 launch checkers_robot sim.launch.xml ARGS` on `rmw`, its output in `dir/launch.log`.
pub fn launch(
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
        "{env} exec ros2 launch checkers_robot sim.launch.xml difficulty:=novice web_port:=0 {args} \
         time_scale:={scale} run_dir:={run} state_dir:={run}/arbiter",
        scale = super::graph_support::TIME_SCALE,
        run = run_dir.display(),
    );
    spawn_logged(
        ros_shell(rmw, ros, prefix, &dir.join("ros_log"), domain, &script),
        &dir.join("launch.log"),
    )
}

/// `cmd` in its own process group (stopped as Ctrl-C stops it when dropped), its output in `log`.
pub fn spawn_logged(mut cmd: Command, log: &Path) -> Launch {
    let out = std::fs::File::create(log).expect("log file");
    let err = out.try_clone().expect("log file");
    let child = cmd
        .stdout(out)
        .stderr(err)
        .process_group(0)
        .spawn()
        .expect("the command starts");
    Launch { child }
}

/// Whether rviz2 and robot_state_publisher are installed (`../shared/ros2/setup.sh all`);
/// where they are not, CI (`CHECKERS_REQUIRE_ROS2`) fails instead of skipping.
pub fn has_viz(ros: &Path) -> bool {
    if ros
        .with_file_name("jazzy-viz")
        .join("local_setup.bash")
        .is_file()
    {
        return true;
    }
    assert!(
        std::env::var_os("CHECKERS_REQUIRE_ROS2").is_none(),
        "CHECKERS_REQUIRE_ROS2 is set but rviz2 is not installed: ../shared/ros2/setup.sh all"
    );
    eprintln!("skipped: no robot_state_publisher and rviz2 (../shared/ros2/setup.sh all)");
    false
}

/// rviz2 renders in software here, on the two cores the whole graph shares: 5 frames a second
/// instead of the shipped 30 leave the nodes and robot_state_publisher their time.
pub fn slow_rviz(prefix: &Path) {
    let rviz_config = prefix.join("share/checkers_robot/launch/checkers_robot.rviz");
    let shipped = std::fs::read_to_string(&rviz_config).expect("the rviz config");
    assert!(shipped.contains("Frame Rate: 30"), "the shipped frame rate");
    std::fs::write(
        &rviz_config,
        shipped.replace("Frame Rate: 30", "Frame Rate: 5"),
    )
    .expect("temp dir is writable");
}

/// An X server of its own for rviz2; killed on drop.
pub struct Xvfb {
    child: Child,
    pub display: String,
}

impl Xvfb {
    pub fn start() -> Xvfb {
        // Xvfb picks a free display and writes its number when it is ready to take clients
        // (`-displayfd`): test binaries run side by side (tools/test_lanes.py).
        let mut child = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1600x1000x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb runs (../shared/ros2/setup.sh all installs it)");
        let mut line = String::new();
        if let Some(out) = child.stdout.take() {
            let _ = std::io::BufRead::read_line(&mut std::io::BufReader::new(out), &mut line);
        }
        let number = line.trim();
        assert!(
            !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()),
            "Xvfb said no display number ({line:?})"
        );
        Xvfb {
            child,
            display: format!(":{number}"),
        }
    }

    /// A screenshot of the whole screen (ImageMagick's `import`) at `path`; its size in bytes.
    pub fn screenshot(&self, path: &Path) -> u64 {
        let status = Command::new("import")
            .args(["-window", "root"])
            .arg(path)
            .env("DISPLAY", &self.display)
            .status()
            .expect("ImageMagick's import runs");
        assert!(status.success(), "the screenshot");
        std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// checkers_msgs built with colcon (`tools/ros2/build_checkers_msgs.sh`, shared with
/// `crates/ros/tests/ros2_interop.rs`: one build for both); its install folder.
pub fn checkers_msgs(ros: &Path) -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ws = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ros2_ws");
    let out = Command::new("bash")
        .arg(repo.join("tools/ros2/build_checkers_msgs.sh"))
        .arg(ros)
        .arg(&ws)
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "colcon build of checkers_msgs failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    ws.join("install")
}
