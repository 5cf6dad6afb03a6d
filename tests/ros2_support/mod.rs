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
/// `domain`.
pub fn ros_shell(
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
