//! The checked-in configs load, are valid ROS params files, and put the board where DESIGN.md
//! says.

use std::path::Path;

use arm_kinematics::{ArmConfig, BoardConfig, ConfigError, RobotSide};
use draughts::Square;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

#[test]
fn checked_in_configs_load_from_disk() -> Result<(), ConfigError> {
    let arm = ArmConfig::load(&root().join("config/arm.yaml"))?;
    let board = BoardConfig::load(&root().join("config/board.yaml"))?;
    assert_eq!(arm.geometry.rear_arm_m, 0.135);
    assert_eq!(arm.geometry.forearm_m, 0.147);
    assert_eq!(board.board.near_edge_x_m, 0.160);
    assert_eq!(board.robot_side(), RobotSide::Black);
    assert_eq!(arm, ArmConfig::builtin()?);
    assert_eq!(board, BoardConfig::builtin()?);
    Ok(())
}

/// ROS 2 parameters are scalars or flat arrays of one scalar type; a nested or mixed array
/// would make the arm node reject its params file.
#[test]
fn configs_hold_only_ros_parameter_types() -> Result<(), Box<dyn std::error::Error>> {
    fn check(v: &serde_yaml::Value, at: &str) {
        use serde_yaml::Value;
        match v {
            Value::Mapping(m) => {
                for (k, v) in m {
                    check(v, &format!("{at}.{}", k.as_str().unwrap_or("?")));
                }
            }
            Value::Sequence(items) => {
                let kinds: std::collections::BTreeSet<&str> = items
                    .iter()
                    .map(|i| match i {
                        Value::Number(n) if n.is_f64() => "double",
                        Value::Number(_) => "integer",
                        Value::String(_) => "string",
                        Value::Bool(_) => "bool",
                        _ => "nested",
                    })
                    .collect();
                assert!(
                    kinds.len() <= 1 && !kinds.contains("nested"),
                    "{at}: {kinds:?}"
                );
            }
            Value::Null | Value::Tagged(_) => panic!("{at}: not a parameter value"),
            _ => {}
        }
    }
    for file in ["config/arm.yaml", "config/board.yaml"] {
        let text = std::fs::read_to_string(root().join(file))?;
        let doc: serde_yaml::Value = serde_yaml::from_str(&text)?;
        let params = doc
            .as_mapping()
            .and_then(|m| m.values().next())
            .and_then(|node| node.get("ros__parameters"))
            .expect("a params file: <node>: ros__parameters: ...");
        check(params, file);
    }
    Ok(())
}

#[test]
fn a_plain_mapping_is_accepted_too() -> Result<(), Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string(root().join("config/board.yaml"))?;
    let doc: serde_yaml::Value = serde_yaml::from_str(&text)?;
    let params = doc
        .as_mapping()
        .and_then(|m| m.values().next())
        .and_then(|node| node.get("ros__parameters"))
        .expect("ros__parameters");
    let plain = BoardConfig::from_yaml_str(&serde_yaml::to_string(params)?)?;
    assert_eq!(plain, BoardConfig::builtin()?);
    Ok(())
}

#[test]
fn invalid_configs_are_refused_with_the_reason() -> Result<(), ConfigError> {
    let text = include_str!("../../../config/arm.yaml");
    let folded = text.replace("elbow_max_deg: 80.0", "elbow_max_deg: 95.0");
    let err = ArmConfig::from_yaml_str(&folded).expect_err("elbow limit past 90 degrees");
    assert!(err.to_string().contains("elbow"), "{err}");

    let typo = text.replace("forearm_m:", "fore_arm_m:");
    let err = ArmConfig::from_yaml_str(&typo).expect_err("unknown key");
    assert!(err.to_string().contains("fore_arm_m"), "{err}");

    let board = include_str!("../../../config/board.yaml");
    let side = board.replace("robot_side: black", "robot_side: red");
    let err = BoardConfig::from_yaml_str(&side).expect_err("no such side");
    assert!(err.to_string().contains("robot_side"), "{err}");
    Ok(())
}

#[test]
fn squares_lie_on_the_board_where_the_robot_sits() -> Result<(), ConfigError> {
    let board = BoardConfig::builtin()?;
    let s = board.board.square_size_m;
    let sq = |n: &str| n.parse::<Square>().expect("square name");
    // The robot plays Black: rank 8 is the row nearest the arm, h8 on its left (+y).
    let h8 = board.square_center(sq("h8"));
    let a1 = board.square_center(sq("a1"));
    assert!((h8.x - (0.160 + 0.5 * s)).abs() < 1e-12);
    assert!((h8.y - 3.5 * s).abs() < 1e-12);
    assert!((a1.x - (0.160 + 7.5 * s)).abs() < 1e-12);
    assert!((a1.y + 3.5 * s).abs() < 1e-12);
    assert_eq!(h8.z, board.board.top_z_m);
    // Diagonal neighbours are one square apart on each axis.
    let c3 = board.square_center(sq("c3"));
    let d4 = board.square_center(sq("d4"));
    assert!(((c3 - d4).abs() - nalgebra::Vector3::new(s, s, 0.0)).norm() < 1e-12);

    let mut white = board.clone();
    white.board.robot_side = "white".into();
    let a1w = white.square_center(sq("a1"));
    assert!((a1w.x - (0.160 + 0.5 * s)).abs() < 1e-12);
    assert!((a1w.y - 3.5 * s).abs() < 1e-12, "a1 on White's left");
    Ok(())
}
