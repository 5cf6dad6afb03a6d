//! `ros2 launch checkers_robot sim.launch.xml` with the real launch and launch_ros of ROS 2
//! Jazzy (`../shared/ros2`): the package is installed as colcon-ros-cargo would lay it out
//! (share/checkers_robot with launch, config and urdf; lib/checkers_robot with the node
//! executables; the ament index marker), the `difficulty` argument is given, and a game is
//! played to its end against the graph client, as `watch` plays it. (`tests/ros2_rviz.rs` does
//! the same with robot_state_publisher and rviz2.)
//!
//! The RMW is `RMW_IMPLEMENTATION` (default `rmw_cyclonedds_cpp`; `.ci/run` runs it once more
//! with `rmw_fastrtps_cpp`). Skipped where ROS 2 is not installed, unless
//! `CHECKERS_REQUIRE_ROS2=1` (set by CI).

mod graph_support;
mod ros2_support;

use std::time::Duration;

use checkers_msgs::msg::GameState;
use graph_support::{play_human_to_the_end, sim, GraphClient, START};
use ros2_support::{install_package, launch, rmw, ros2_prefix, ros_shell, tail};

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
    // The stock `ros2 topic echo` shows each part's health. Not over rmw_fastrtps_cpp:
    // ../shared/ros2's Fast DDS has no type support for diagnostic_msgs (docs/web.md).
    if rmw() == "rmw_cyclonedds_cpp" {
        let echo = ros_shell(
            &rmw(),
            &ros,
            &prefix,
            &dir.path().join("ros_log"),
            domain,
            "timeout 8 ros2 topic echo /diagnostics diagnostic_msgs/msg/DiagnosticArray; true",
        )
        .output()
        .expect("ros2 topic echo runs");
        let seen = String::from_utf8_lossy(&echo.stdout);
        for part in [
            "board_sensor: field controller",
            "arm: controller",
            "expression: head controller",
            "planner: search",
            "arbiter: game",
        ] {
            assert!(
                seen.contains(&format!("name: '{part}'"))
                    || seen.contains(&format!("name: {part}")),
                "ros2 topic echo /diagnostics shows {part}:\n{seen}\n{}",
                String::from_utf8_lossy(&echo.stderr)
            );
        }
    }
    drop(launch);
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    for node in checkers_robot::node_table::names() {
        assert!(
            text.contains(&format!("[{node}-")),
            "launch_ros started {node}:\n{}",
            tail(&log)
        );
    }
}
