//! The URDF: the checked-in file is the generator's output, it forms one valid tree, and `k`
//! loads it.

use std::path::Path;

use arm_kinematics::joints::{ARM_JOINTS, BASE_LINK, CUP_LINK, HEAD_JOINTS, WRIST_MIMICS};
use arm_kinematics::urdf_check::{self, UrdfError};
use arm_kinematics::{urdf_gen, ArmConfig, BoardConfig, Kinematics};

fn checked_in() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../urdf/checkers_robot.urdf");
    std::fs::read_to_string(&path).expect("urdf/checkers_robot.urdf is checked in")
}

fn generated() -> String {
    urdf_gen::generate(
        &ArmConfig::builtin().expect("config/arm.yaml"),
        &BoardConfig::builtin().expect("config/board.yaml"),
    )
}

#[test]
fn checked_in_urdf_is_the_generated_one() {
    assert!(
        checked_in() == generated(),
        "urdf/checkers_robot.urdf is stale: run \
         `cargo run -p arm_kinematics --example gen_urdf > urdf/checkers_robot.urdf`"
    );
}

#[test]
fn urdf_is_one_tree_with_every_part() -> Result<(), UrdfError> {
    let robot = urdf_check::parse(&checked_in())?;
    assert_eq!(urdf_check::validate(&robot)?, BASE_LINK);
    let has_link = |n: &str| robot.links.iter().any(|l| l.name == n);
    let joint = |n: &str| robot.joints.iter().find(|j| j.name == n);
    for name in [
        "yaw_link",
        "rear_arm",
        "forearm",
        "tool_plate",
        CUP_LINK,
        "board",
        "bin",
        "tray",
        "head",
    ] {
        assert!(has_link(name), "link {name}");
    }
    let squares = robot
        .links
        .iter()
        .filter(|l| l.name.starts_with("square_"))
        .count();
    assert_eq!(squares, 32);
    let board = BoardConfig::builtin().expect("board.yaml");
    let slots = robot
        .links
        .iter()
        .filter(|l| l.name.starts_with("tray_slot_"))
        .count();
    assert_eq!(slots, board.tray_slots());
    for name in ARM_JOINTS.iter().chain(HEAD_JOINTS.iter()) {
        let j = joint(name).expect("actuated joint");
        assert!(
            matches!(j.joint_type, urdf_rs::JointType::Revolute),
            "{name}"
        );
        assert!(j.mimic.is_none(), "{name}");
    }
    // The parallelogram: the two wrist joints undo J2 and the relative elbow.
    for (mimic, target) in WRIST_MIMICS.iter().zip(&ARM_JOINTS[1..]) {
        let m = joint(mimic)
            .and_then(|j| j.mimic.clone())
            .expect("mimic joint");
        assert_eq!(&m.joint, target);
        assert_eq!(m.multiplier, Some(-1.0));
    }
    // The elbow's URDF limit is the coupled J3 - J2 limit of the config.
    let arm = ArmConfig::builtin().expect("arm.yaml");
    let elbow = joint(ARM_JOINTS[2]).expect("elbow");
    assert!((elbow.limit.lower - arm.limits.elbow_min_deg.to_radians()).abs() < 1e-8);
    assert!((elbow.limit.upper - arm.limits.elbow_max_deg.to_radians()).abs() < 1e-8);
    Ok(())
}

#[test]
fn k_loads_the_checked_in_urdf() -> Result<(), arm_kinematics::FkError> {
    let kin = Kinematics::from_urdf(&checked_in())?;
    let poses = kin.link_poses(&arm_kinematics::Joints::default(), [0.0; 2]);
    let robot = urdf_check::parse(&checked_in())?;
    assert_eq!(poses.len(), robot.links.len(), "a TF for every link");
    Ok(())
}

/// A small tree to break in the ways check_urdf catches.
fn tiny(joints: &str, links: &[&str]) -> String {
    let links: String = links
        .iter()
        .map(|l| format!("<link name=\"{l}\"/>"))
        .collect();
    format!("<robot name=\"t\">{links}{joints}</robot>")
}

fn revolute(name: &str, parent: &str, child: &str, mimic: Option<&str>) -> String {
    let mimic = mimic
        .map(|m| format!("<mimic joint=\"{m}\"/>"))
        .unwrap_or_default();
    format!(
        "<joint name=\"{name}\" type=\"revolute\"><parent link=\"{parent}\"/>\
         <child link=\"{child}\"/><axis xyz=\"0 1 0\"/>\
         <limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>{mimic}</joint>"
    )
}

#[test]
fn validation_catches_broken_trees() {
    let ok = tiny(&revolute("j", "a", "b", None), &["a", "b"]);
    assert!(urdf_check::parse(&ok).is_ok());

    let missing = tiny(&revolute("j", "a", "c", None), &["a", "b"]);
    assert!(matches!(
        urdf_check::parse(&missing),
        Err(UrdfError::MissingLink { .. })
    ));

    let two_roots = tiny(&revolute("j", "a", "b", None), &["a", "b", "c"]);
    assert!(matches!(urdf_check::parse(&two_roots), Err(UrdfError::Roots(r)) if r.len() == 2));

    let cycle = tiny(
        &[
            revolute("j1", "a", "b", None),
            revolute("j2", "c", "d", None),
            revolute("j3", "d", "c", None),
        ]
        .concat(),
        &["a", "b", "c", "d"],
    );
    assert!(matches!(
        urdf_check::parse(&cycle),
        Err(UrdfError::Unreachable(_))
    ));

    let bad_mimic = tiny(
        &[
            revolute("j1", "a", "b", None),
            revolute("j2", "b", "c", Some("nope")),
        ]
        .concat(),
        &["a", "b", "c"],
    );
    assert!(matches!(
        urdf_check::parse(&bad_mimic),
        Err(UrdfError::MissingMimic { .. })
    ));

    let two_parents = tiny(
        &[
            revolute("j1", "a", "b", None),
            revolute("j2", "a", "b", None),
        ]
        .concat(),
        &["a", "b"],
    );
    assert!(matches!(
        urdf_check::parse(&two_parents),
        Err(UrdfError::TwoParents(_))
    ));

    assert!(matches!(
        urdf_check::parse("<robot"),
        Err(UrdfError::Parse(_))
    ));
}
