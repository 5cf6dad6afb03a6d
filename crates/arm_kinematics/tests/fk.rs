//! Forward kinematics: k on the URDF agrees with the closed-form chain the IK uses, the cup
//! stays vertical, and the board's frames sit where board.yaml puts the squares.

use arm_kinematics::fk::{cup_position, cup_position_and_jacobian};
use arm_kinematics::joints::CUP_LINK;
use arm_kinematics::urdf_gen::square_link;
use arm_kinematics::{ArmConfig, BoardConfig, Joints, Kinematics};
use draughts::Square;
use proptest::prelude::*;
use std::sync::OnceLock;

fn setup() -> &'static (ArmConfig, BoardConfig, Kinematics) {
    static SETUP: OnceLock<(ArmConfig, BoardConfig, Kinematics)> = OnceLock::new();
    SETUP.get_or_init(|| {
        let arm = ArmConfig::builtin().expect("arm.yaml");
        let board = BoardConfig::builtin().expect("board.yaml");
        let kin = Kinematics::new(&arm, &board).expect("URDF loads");
        (arm, board, kin)
    })
}

#[test]
fn zero_pose_is_the_dobot_home() {
    let (arm, _, kin) = setup();
    let g = arm.geometry();
    // Rear arm vertical, forearm horizontal: the cup hangs tool_down below the forearm's
    // tip, which is rear_arm above the shoulder.
    let p = kin
        .cup_pose(&Joints::default())
        .expect("cup link")
        .translation
        .vector;
    let want = [
        g.forearm + g.tool_forward,
        0.0,
        g.shoulder_height + g.rear_arm - g.tool_down,
    ];
    for i in 0..3 {
        assert!((p[i] - want[i]).abs() < 1e-9, "{p:?} vs {want:?}");
    }
}

#[test]
fn square_frames_are_the_board_squares() {
    let (_, board, kin) = setup();
    let poses = kin.link_poses(&Joints::default(), [0.0; 2]);
    for sq in Square::all() {
        let frame = poses.get(&square_link(sq)).expect("square frame");
        let want = board.square_center(sq);
        assert!(
            (frame.translation.vector - want.coords).norm() < 1e-8,
            "{sq}"
        );
    }
}

#[test]
fn a_turned_board_turns_its_squares() {
    let (arm, board, _) = setup();
    let mut board = board.clone();
    board.board.yaw_deg = 7.0;
    let kin = Kinematics::new(arm, &board).expect("URDF loads");
    let poses = kin.link_poses(&Joints::default(), [0.0; 2]);
    for sq in Square::all() {
        let frame = poses.get(&square_link(sq)).expect("square frame");
        assert!((frame.translation.vector - board.square_center(sq).coords).norm() < 1e-8);
    }
}

#[test]
fn head_joints_move_the_head() {
    let (arm, _, kin) = setup();
    let level = kin
        .link_pose("head", &Joints::default(), [0.0, 0.0])
        .expect("head");
    let nod = kin
        .link_pose("head", &Joints::default(), [0.3, 0.4])
        .expect("head");
    let face = nod.rotation * nalgebra::Vector3::x();
    assert!((level.translation.vector.z - arm.head.neck_height_m).abs() < 1e-9);
    assert!(
        face.z < -0.3 && face.y > 0.2,
        "pan left and nod down: {face:?}"
    );
}

proptest! {
    #[test]
    fn k_and_the_closed_form_chain_agree(
        j1 in -90.0f64..90.0, j2 in 0.0f64..85.0, j3 in -10.0f64..95.0,
    ) {
        let (arm, _, kin) = setup();
        let q = Joints::from_degrees(j1, j2, j3);
        let pose = kin.link_pose(CUP_LINK, &q, [0.0; 2]).expect("cup link");
        let p = cup_position(&arm.geometry(), &q);
        prop_assert!((pose.translation.vector - p.coords).norm() < 1e-9);
        // The parallelogram keeps the cup vertical: only J1 turns it.
        let want = nalgebra::UnitQuaternion::from_euler_angles(0.0, 0.0, q.j1());
        prop_assert!(pose.rotation.angle_to(&want) < 1e-9);
    }

    #[test]
    fn jacobian_matches_finite_differences(
        j1 in -90.0f64..90.0, j2 in 0.0f64..85.0, j3 in -10.0f64..95.0,
    ) {
        let g = ArmConfig::builtin().expect("arm.yaml").geometry();
        let q = Joints::from_degrees(j1, j2, j3);
        let (p, jac) = cup_position_and_jacobian(&g, &q);
        prop_assert!((p - cup_position(&g, &q)).norm() < 1e-15);
        let h = 1e-6;
        for c in 0..3 {
            let mut a = q;
            let mut b = q;
            a.0[c] += h;
            b.0[c] -= h;
            let d = (cup_position(&g, &a) - cup_position(&g, &b)) / (2.0 * h);
            prop_assert!((d - jac.column(c)).norm() < 1e-8, "column {c}");
        }
    }
}
