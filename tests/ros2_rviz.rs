//! The whole robot as a robot owner sees it: `ros2 launch checkers_robot sim.launch.xml` with
//! `use_rviz`, the real robot_state_publisher and rviz2 (under Xvfb) of `../shared/ros2`. Checks
//! through rclpy's tf2 that the TF tree follows the arm's forward kinematics and places every
//! link of the URDF, that rviz2 stays up and logs no error, and saves its screenshot to
//! `target/tmp/rviz.png`. A test binary of its own: on r2r, one process holds one domain.
//!
//! The RMW is `RMW_IMPLEMENTATION` (default `rmw_cyclonedds_cpp`; `.ci/run` runs it once more
//! with `rmw_fastrtps_cpp`, which this test turns into rmw_fastrtps_dynamic_cpp: see
//! `viz_rmw`). Skipped where ROS 2 is not installed, unless `CHECKERS_REQUIRE_ROS2=1` (set by
//! CI), which also requires rviz2 (`../shared/ros2/setup.sh all`).

mod graph_support;
mod ros2_support;

use std::path::Path;
use std::process::Stdio;

use arm_kinematics::fk::Kinematics;
use arm_kinematics::joints::Joints;
use checkers_msgs::msg::GameState;
use graph_support::{play_human, GraphClient, START};
use ros2_support::{
    has_viz, install_package, launch, rmw, ros2_prefix, ros_shell, slow_rviz, tail, viz_rmw, Xvfb,
};

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
    if !has_viz(&ros) {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let prefix = install_package(dir.path());
    slow_rviz(&prefix);
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
    let mut probe = ros_shell(
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
    let size = x.screenshot(&shot);
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
