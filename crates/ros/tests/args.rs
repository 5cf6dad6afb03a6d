//! The command line as `ros2 run` and `ros2 launch` pass it.

use ros::args::ArgsError;
use ros::{ParamValue, RosArgs};

fn parse(args: &[&str]) -> Result<RosArgs, ArgsError> {
    RosArgs::parse(args.iter().copied())
}

#[test]
fn sections_separate_ros_and_program_arguments() {
    let a = parse(&[
        "planner",
        "--level",
        "3",
        "--ros-args",
        "-r",
        "__node:=brain",
        "--",
        "extra",
        "--ros-args",
        "-p",
        "depth:=5",
    ])
    .expect("parses");
    assert_eq!(a.user_args, ["planner", "--level", "3", "extra"]);
    assert_eq!(a.node_name("planner"), "brain");
    assert_eq!(a.params, [("depth".to_string(), ParamValue::Integer(5))]);
}

#[test]
fn node_and_namespace_remaps() {
    let a = parse(&[
        "x",
        "--ros-args",
        "-r",
        "__ns:=/robot",
        "-r",
        "planner:__node:=brain",
        "-r",
        "other:__node:=nope",
    ])
    .expect("parses");
    assert_eq!(a.node_name("planner"), "brain");
    assert_eq!(a.namespace("planner", "/"), "/robot");
    assert!(a.validate("planner").is_ok());
    let bad = parse(&["x", "--ros-args", "-r", "__ns:=robot/"]).expect("parses");
    assert!(bad.validate("planner").is_err());
    let bad = parse(&["x", "--ros-args", "-r", "__node:=9lives"]).expect("parses");
    assert!(bad.validate("planner").is_err());
}

#[test]
fn topic_remaps_match_fully_qualified_names() {
    let a = parse(&[
        "x",
        "--ros-args",
        "-r",
        "/game/state:=/ui/state",
        "-r",
        "events:=log",
        "-r",
        "arm:/joint_states:=/arm/joint_states",
    ])
    .expect("parses");
    assert_eq!(
        a.resolve("/game/state", "arbiter", "arbiter", "/"),
        "/ui/state"
    );
    assert_eq!(
        a.resolve("game/state", "arbiter", "arbiter", "/"),
        "/ui/state"
    );
    assert_eq!(
        a.resolve("game/state", "arbiter", "arbiter", "/robot"),
        "/robot/game/state"
    );
    assert_eq!(
        a.resolve("events", "arbiter", "arbiter", "/robot"),
        "/robot/log"
    );
    assert_eq!(
        a.resolve("/joint_states", "arm", "arm", "/"),
        "/arm/joint_states"
    );
    assert_eq!(
        a.resolve("/joint_states", "sim", "sim", "/"),
        "/joint_states"
    );
    assert_eq!(
        a.resolve("~/status", "arm", "arm", "/robot"),
        "/robot/arm/status"
    );
}

#[test]
fn command_line_params_override_params_files() {
    let dir = std::env::temp_dir().join(format!("ros-args-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let f1 = dir.join("a.yaml");
    let f2 = dir.join("b.yaml");
    std::fs::write(
        &f1,
        "/**:\n  ros__parameters:\n    depth: 3\n    algorithm: random\n",
    )
    .expect("write");
    std::fs::write(
        &f2,
        "planner:\n  ros__parameters:\n    algorithm: mcts\n    limits:\n      sims: 2000\n",
    )
    .expect("write");
    let a = parse(&[
        "x",
        "--ros-args",
        "--params-file",
        f1.to_str().expect("utf-8"),
        "-p",
        "depth:=9",
        "--params-file",
        f2.to_str().expect("utf-8"),
    ])
    .expect("parses");
    let mut p = a.params("/planner").expect("files load");
    assert_eq!(
        p.declare("depth", 1i64).expect("int"),
        9,
        "-p wins over every file"
    );
    assert_eq!(
        p.declare("algorithm", "alphabeta".to_string())
            .expect("string"),
        "mcts"
    );
    assert_eq!(p.declare("limits.sims", 0i64).expect("nested"), 2000);
    assert_eq!(p.declare("seed", 42i64).expect("default"), 42);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn malformed_arguments_are_named() {
    assert_eq!(
        parse(&["x", "--ros-args", "-p"]),
        Err(ArgsError::MissingValue { flag: "-p".into() })
    );
    assert!(matches!(
        parse(&["x", "--ros-args", "-p", "novalue"]),
        Err(ArgsError::Param(_))
    ));
    assert!(matches!(
        parse(&["x", "--ros-args", "-r", "a=b"]),
        Err(ArgsError::Remap(_))
    ));
    assert!(matches!(
        parse(&["x", "--ros-args", "--bogus"]),
        Err(ArgsError::Unknown(_))
    ));
    let a = parse(&["x", "--ros-args", "--params-file", "/nonexistent.yaml"]).expect("parses");
    let e = a.params("/n").expect_err("missing file");
    assert!(e.to_string().contains("/nonexistent.yaml"), "{e}");
}

#[test]
fn log_levels_and_switches() {
    let a = parse(&[
        "x",
        "--ros-args",
        "--log-level",
        "debug",
        "--log-level",
        "planner:=warn",
        "--disable-rosout-logs",
    ])
    .expect("parses");
    assert_eq!(
        a.log_levels,
        [
            (None, "debug".to_string()),
            (Some("planner".to_string()), "warn".to_string())
        ]
    );
    assert!(!a.rosout_logs);
    assert!(a.stdout_logs);
}
