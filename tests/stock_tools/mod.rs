//! The stock ROS 2 tools in their enclaves, with the very commands docs/security.md gives: the
//! test reads them from the docs' marked blocks, so the two cannot drift apart. Every operator
//! command runs in turn, over the RMW given, and must give what the docs say it gives, the
//! refused one included; the viewer's `ros2 launch` (robot_state_publisher and rviz2 under
//! Xvfb) is started by the caller.

use std::path::Path;

use super::ros2_support::{self, spawn_logged, Launch, Xvfb};

/// How many times a command that has not yet given what it should is run: secured discovery
/// takes a second or two per pair (longer on a loaded machine), `ros2 param` waits only 5 s
/// for all of a node's services, and a reply sent before the handshake with the tool's new
/// participant is done is lost. A refusal is never run again.
const ATTEMPTS: usize = 3;
/// How long one run of a command may take.
const PER_RUN: &str = "30";

/// What one documented operator command must print over `rmw` (`None`: not run over it); a
/// command the test does not know fails it.
fn expected(command: &str, rmw: &str) -> Option<Result<&'static [&'static str], &'static str>> {
    let fast_dds = rmw.starts_with("rmw_fastrtps");
    if !fast_dds && command.starts_with("ros2 topic echo --once --no-daemon /tf ") {
        // The viewer's robot_state_publisher here is on Fast DDS ([`VIEWER_RMW`]), and a
        // secured Fast DDS participant and a secured Cyclone DDS one never talk
        // (../shared/ros2's README).
        return None;
    }
    if fast_dds && command.starts_with("ros2 action send_goal /arm/execute ") {
        // Fast DDS's access control refuses the action client's reply reader.
        return Some(Err(
            "rr/arm/execute/_action/send_goalReply topic not found in allow rule",
        ));
    }
    const CHECKS: &[(&str, Result<&[&str], &str>)] = &[
        (
            "ros2 topic echo --once --no-daemon --qos-durability transient_local \
             --qos-reliability reliable /game/state ",
            Ok(&["ply:"]),
        ),
        ("ros2 service call /game/new ", Ok(&["success=True"])),
        ("ros2 param get ", Ok(&["String value is:"])),
        ("ros2 param set ", Ok(&["Set parameter successful"])),
        (
            "ros2 node list ",
            Ok(&[
                "/arbiter",
                "/planner",
                "/arm",
                "/board_sensor",
                "/expression",
                "/sim",
            ]),
        ),
        (
            "ros2 topic echo --once --no-daemon /tf ",
            Ok(&["child_frame_id:"]),
        ),
        (
            "ros2 action send_goal /arm/execute ",
            Err("failed to create topic [rq/arm/execute/_action/send_goalRequest]"),
        ),
    ];
    let check = CHECKS
        .iter()
        .find(|(prefix, _)| command.starts_with(prefix))
        .map(|(_, check)| *check)
        .unwrap_or_else(|| {
            panic!("docs/security.md gives a command this test does not check: {command}")
        });
    Some(check)
}

/// The `ros2` lines of the code block that follows `<!-- MARK` in docs/security.md.
pub fn documented(mark: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/security.md");
    let text = std::fs::read_to_string(&path).expect("docs/security.md");
    let (_, after) = text
        .split_once(&format!("<!-- {mark}"))
        .unwrap_or_else(|| panic!("docs/security.md has no block marked `<!-- {mark}`"));
    let block = after
        .split("```")
        .nth(1)
        .expect("a code block after the mark");
    let lines: Vec<String> = block
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("ros2 "))
        .map(String::from)
        .collect();
    assert!(!lines.is_empty(), "the block `{mark}` has no ros2 line");
    lines
}

/// The shell exports that put a ROS 2 process in `enclave` of the keystore `ks`, Enforce.
pub fn secured(ks: &Path, enclave: &str) -> String {
    format!(
        "export ROS_SECURITY_ENABLE=true ROS_SECURITY_STRATEGY=Enforce \
         ROS_SECURITY_KEYSTORE={} ROS_SECURITY_ENCLAVE_OVERRIDE={enclave} && ",
        ks.display()
    )
}

/// The viewer's RMW: Fast DDS, Jazzy's default, which a viewer's computer has unless told
/// otherwise. Its dynamic flavour, as for the unsecured rviz test (`ros2_support::viz_rmw`):
/// ../shared/ros2's jazzy-viz tree has no Fast DDS static type support for tf2_msgs.
const VIEWER_RMW: &str = "rmw_fastrtps_dynamic_cpp";

/// The viewer's documented launch, under an X server of its own; kept running until dropped.
pub struct Viewer {
    // Dropped in this order: the launch (Ctrl-C), then its X server.
    launch: Launch,
    x: Xvfb,
    log: std::path::PathBuf,
}

impl Viewer {
    pub fn start(ros: &Path, dir: &Path, ks: &Path, domain: u16) -> Viewer {
        let prefix = ros2_support::install_package(&dir.join("viewer"));
        ros2_support::slow_rviz(&prefix);
        let line = documented("viewer").remove(0);
        let x = Xvfb::start();
        let script = format!(
            "export DISPLAY={} LIBGL_ALWAYS_SOFTWARE=1 && exec {}",
            x.display,
            line.replace("$HOME/keystore", &ks.display().to_string())
        );
        let log = dir.join("viewer.log");
        let cmd = ros2_support::ros_shell(
            VIEWER_RMW,
            ros,
            &prefix,
            &dir.join("ros_log"),
            domain,
            &script,
        );
        let launch = spawn_logged(cmd, &log);
        Viewer { launch, x, log }
    }

    /// rviz2 and robot_state_publisher are up, said nothing wrong, and rviz drew the robot.
    pub fn check(&mut self, shot: &Path) {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        for node in ["robot_state_publisher", "rviz2"] {
            assert!(
                text.contains(&format!("[{node}-")),
                "{node} started:\n{text}"
            );
        }
        for bad in [
            "ERROR",
            "failed to create",
            "terminate called",
            "process has died",
        ] {
            assert!(
                !text.contains(bad),
                "the viewer's launch says {bad:?}:\n{text}"
            );
        }
        let size = self.x.screenshot(shot);
        assert!(
            size > 50_000,
            "rviz drew a scene, not a blank screen: {size} bytes"
        );
        // The red men are markers, not the URDF: seen only when rviz's two readers of each
        // marker topic get their data (vendor patch 20). Printed, not asserted: in about one
        // run in four a pair of secured participants never matches (the secured-discovery gap
        // of docs/results.md), and rviz then misses one marker topic.
        eprintln!(
            "rviz's view has {} red pixels (the pieces drawn: 150-200; none: under 10)",
            red_pixels(shot)
        );
        assert!(
            matches!(self.launch.child.try_wait(), Ok(None)),
            "the viewer's launch ended:\n{text}"
        );
    }
}

/// How many pixels of rviz's 3D view, at half size, are the red of the robot's men (about
/// 150-200 with the pieces drawn, under 10 without).
fn red_pixels(shot: &Path) -> u64 {
    let out = std::process::Command::new("convert")
        .arg(shot)
        // The 3D view only: the displays' panel on the left shows a display in error in red.
        .args([
            "-gravity",
            "east",
            "-crop",
            "66%x100%+0+0",
            "+repage",
            "-scale",
            "50%",
            "-fx",
            "(r>0.3&&g<0.1&&b<0.1)?1:0",
            "-format",
            "%[fx:round(mean*w*h)]",
            "info:",
        ])
        .output()
        .expect("ImageMagick's convert runs");
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .unwrap_or(0)
}

/// Every documented operator command, in the docs' order, each giving what it should.
pub fn operator_commands(ros: &Path, msgs: &Path, dir: &Path, ks: &Path, domain: u16, rmw: &str) {
    for command in documented("operator") {
        let Some(want) = expected(&command, rmw) else {
            continue;
        };
        // tf2_msgs has no Fast DDS static type support here (as for the viewer, VIEWER_RMW).
        let rmw = match rmw {
            "rmw_fastrtps_cpp" if command.contains(" /tf ") => VIEWER_RMW,
            other => other,
        };
        let script = format!(
            "source {}/local_setup.bash && {}timeout -s INT {PER_RUN} {command}",
            msgs.display(),
            secured(ks, "/checkers/operator")
        );
        let mut text = String::new();
        for attempt in 1..=ATTEMPTS {
            let out = ros2_support::ros_shell(rmw, ros, ros, &dir.join("ros_log"), domain, &script)
                .output()
                .expect("bash runs");
            text = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            eprintln!("[{rmw} {attempt}] {command}:\n{text}");
            // A command that should succeed and has not yet seen what it looks for (a node not
            // discovered within its spin time, a reply lost before the handshake was done) is
            // run again; a refusal is final.
            let incomplete = match want {
                Ok(lines) => !lines.iter().all(|l| text.contains(l)),
                Err(_) => false,
            };
            if !incomplete {
                break;
            }
        }
        match want {
            Ok(lines) => {
                for line in lines {
                    assert!(
                        text.contains(line),
                        "`{command}` over {rmw} should print {line:?}:\n{text}"
                    );
                }
            }
            Err(refusal) => {
                assert!(
                    text.contains(refusal),
                    "`{command}` over {rmw} should be refused:\n{text}"
                );
                assert!(
                    !text.contains("Goal accepted"),
                    "`{command}` reached the arm:\n{text}"
                );
            }
        }
    }
}
