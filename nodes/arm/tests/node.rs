//! The arm node in a private ROS domain, driving a simulated controller over in-memory
//! streams: a quiet move with feedback and joint_states, a cancel, an alarm, a dead link and a
//! closed port, each followed by the node carrying on.

mod fake_arm;

use std::time::Duration;

use checkers_msgs::action::{ExecuteMove, ExecuteMove_Goal, ExecuteMove_Result};
use checkers_msgs::msg::Move;
use checkers_msgs::sensor_msgs::msg::JointState;
use checkers_msgs::srv::{ArmHome, ArmHome_Request};
use fake_arm::lock;
use futures::StreamExt;
use ros::env::{DiscoveryRange, RosEnv};
use ros::{ActionClient, GoalOutcome, Node, Qos, RosArgs};
use serial_link::arm::AlarmCode;
use serial_link::ArmCommand;

const WAIT: Duration = Duration::from_secs(30);

fn node(name: &str, domain: u16, params: &[&str]) -> Node {
    let mut args = vec!["test".to_string(), "--ros-args".to_string()];
    for p in params {
        args.push("-p".into());
        args.push((*p).to_string());
    }
    let env = RosEnv {
        domain_id: domain,
        discovery: DiscoveryRange::Localhost,
        security: None,
    };
    Node::new(name, RosArgs::parse(args).expect("arguments"), env).expect("node")
}

/// An arm node on `domain` with a fresh simulated controller, ten times faster than real.
fn start_arm(domain: u16) -> fake_arm::Shared {
    let (arm, connect) = fake_arm::start();
    let n = node("arm", domain, &["time_scale:=10.0"]);
    tokio::spawn(async move {
        if let Err(e) = arm::run_with(n, Some(connect)).await {
            panic!("the arm node stopped: {e}");
        }
    });
    arm
}

/// b6-a5: a quiet move of the robot's (Black's) man.
fn quiet_move() -> Move {
    Move {
        from_square: 9,
        to_square: 13,
        path: vec![13],
        text: "b6-a5".into(),
        ..Move::default()
    }
}

/// Sends `mv`; returns the outcome, the result and the feedback descriptions seen. `during`
/// runs once when the feedback first reaches step `at`.
async fn execute<F: FnOnce()>(
    client: &ActionClient<ExecuteMove>,
    mv: Move,
    at: u32,
    during: F,
) -> (GoalOutcome, ExecuteMove_Result, Vec<(u32, u32, String)>) {
    let goal = client
        .send_goal(ExecuteMove_Goal { game_move: mv }, WAIT)
        .await
        .expect("goal accepted");
    let mut feedback = std::pin::pin!(goal.feedback());
    let result = goal.result(WAIT);
    tokio::pin!(result);
    let mut seen = Vec::new();
    let mut during = Some(during);
    loop {
        tokio::select! {
            r = &mut result => {
                let (outcome, result) = r.expect("a result");
                return (outcome, result, seen);
            }
            Some(f) = feedback.next() => {
                if f.step >= at {
                    if let Some(d) = during.take() {
                        d();
                    }
                }
                seen.push((f.step, f.total_steps, f.description));
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quiet_move_runs_with_feedback_and_joint_states_and_a_cancel_stops_the_arm() {
    let domain = 110 + (std::process::id() % 20) as u16;
    let arm = start_arm(domain);
    let mut game = node("arbiter", domain, &[]);
    let client = game
        .action_client::<ExecuteMove>("/arm/execute")
        .expect("action client");
    let states = game
        .subscription::<JointState>("/joint_states", Qos::Sensor)
        .expect("joint_states subscription");
    let mut states = states.stream();

    let js = tokio::time::timeout(WAIT, states.next())
        .await
        .expect("joint_states in time")
        .expect("a joint state");
    assert_eq!(
        js.name,
        [
            "j1_yaw",
            "j2_shoulder",
            "j3_elbow",
            "wrist_undo_shoulder",
            "wrist_undo_elbow"
        ]
    );
    // The parallelogram: the mimics undo the shoulder and the elbow.
    assert!((js.position[3] + js.position[1]).abs() < 1e-9);
    assert!((js.position[4] + js.position[2]).abs() < 1e-9);

    let (outcome, result, seen) = execute(&client, quiet_move(), u32::MAX, || {}).await;
    assert_eq!(outcome, GoalOutcome::Succeeded, "{}", result.message);
    assert!(result.success);
    let steps: Vec<&str> = seen.iter().map(|(_, _, d)| d.as_str()).collect();
    assert_eq!(steps, ["pick b6", "place a5", "rest"]);
    assert!(seen.iter().all(|(_, total, _)| *total == 3));
    {
        let a = lock(&arm);
        assert!(a.homed, "the node homed the arm before its first move");
        assert!(!a.pump, "the piece was let go");
        let pumps: Vec<bool> = a
            .commands
            .iter()
            .filter_map(|c| match c {
                ArmCommand::SetPump { on } => Some(*on),
                _ => None,
            })
            .collect();
        assert_eq!(pumps, [true, false]);
    }

    // Cancel while the piece is carried to a5: the arm stops and lifts, the piece held.
    let goal = client
        .send_goal(
            ExecuteMove_Goal {
                game_move: quiet_move(),
            },
            WAIT,
        )
        .await
        .expect("goal accepted");
    let mut feedback = std::pin::pin!(goal.feedback());
    loop {
        let f = tokio::time::timeout(WAIT, feedback.next())
            .await
            .expect("feedback in time")
            .expect("feedback");
        if f.step == 2 {
            break;
        }
    }
    assert!(goal.cancel(WAIT).await.expect("cancel answered"));
    let (outcome, result) = goal.result(WAIT).await.expect("a result");
    assert_eq!(outcome, GoalOutcome::Canceled, "{}", result.message);
    assert_eq!(result.error_code, ExecuteMove_Result::ERROR_CANCELLED);
    assert!(result.message.contains("stopped"), "{}", result.message);
    // The stop goes out over the serial link as the result is sent: on a loaded machine the
    // fake arm may read it a moment after the result arrives.
    let stopped_by = std::time::Instant::now() + Duration::from_secs(5);
    while !lock(&arm).commands.contains(&ArmCommand::Stop) && std::time::Instant::now() < stopped_by
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    {
        let a = lock(&arm);
        assert!(a.commands.contains(&ArmCommand::Stop));
        assert!(a.pump, "the carried piece is still held");
    }

    // /arm/home takes it to rest and lets the piece go there.
    let home = game
        .service_client::<ArmHome>("/arm/home")
        .expect("home client");
    let reply = home
        .call(ArmHome_Request::default(), WAIT)
        .await
        .expect("home answered");
    assert!(reply.success, "{}", reply.message);
    assert!(!lock(&arm).pump);

    // A malformed move is refused with a reason, and the node goes on.
    let bad = Move {
        from_square: 9,
        to_square: 20,
        path: vec![20],
        ..Move::default()
    };
    let (outcome, result, _) = execute(&client, bad, u32::MAX, || {}).await;
    assert_eq!(outcome, GoalOutcome::Aborted);
    assert_eq!(result.error_code, ExecuteMove_Result::ERROR_INVALID_GOAL);
    assert!(result.message.contains("diagonal"), "{}", result.message);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_alarm_or_a_dead_link_aborts_the_move_and_the_node_reconnects() {
    let domain = 130 + (std::process::id() % 20) as u16;
    let arm = start_arm(domain);
    let mut game = node("arbiter", domain, &[]);
    let client = game
        .action_client::<ExecuteMove>("/arm/execute")
        .expect("action client");

    // A stall during the place step.
    let a = arm.clone();
    let (outcome, result, _) = execute(&client, quiet_move(), 2, move || {
        lock(&a).raise = Some(AlarmCode::Stall);
    })
    .await;
    assert_eq!(outcome, GoalOutcome::Aborted);
    assert_eq!(result.error_code, ExecuteMove_Result::ERROR_CONTROLLER);
    assert!(result.message.contains("stalled"), "{}", result.message);
    assert!(result.message.contains("place a5"), "{}", result.message);

    // The next goal clears the alarm and runs.
    let (outcome, result, _) = execute(&client, quiet_move(), u32::MAX, || {}).await;
    assert_eq!(outcome, GoalOutcome::Succeeded, "{}", result.message);
    assert!(lock(&arm).commands.contains(&ArmCommand::ClearAlarm));

    // The line goes dead mid-move: the goal aborts, and when the line is back the node
    // reconnects (the controller reports it lost its host) and the next goal runs.
    let a = arm.clone();
    let (outcome, result, _) = execute(&client, quiet_move(), 1, move || {
        lock(&a).silent = true;
    })
    .await;
    assert_eq!(outcome, GoalOutcome::Aborted);
    assert_eq!(result.error_code, ExecuteMove_Result::ERROR_CONTROLLER);
    assert!(
        result.message.contains("lost the link"),
        "{}",
        result.message
    );
    lock(&arm).silent = false;
    let (outcome, result, _) = execute(&client, quiet_move(), u32::MAX, || {}).await;
    assert_eq!(outcome, GoalOutcome::Succeeded, "{}", result.message);

    // The port closes: the node opens it again, and a goal sent meanwhile waits for it.
    let before = {
        let mut a = lock(&arm);
        a.closed_upto = a.connections;
        a.connections
    };
    while lock(&arm).connections == before {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (outcome, result, _) = execute(&client, quiet_move(), u32::MAX, || {}).await;
    assert_eq!(outcome, GoalOutcome::Succeeded, "{}", result.message);
}
