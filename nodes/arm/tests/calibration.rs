//! Board calibration: a board moved and turned, the cup jogged onto its a1 and h8 (joints by
//! IK, as the user's jogging would leave them), the pose recovered from those joints by FK.

use arm::{
    board_pose_from_joints, check_reachable, save_board_pose, BoardPose, CalibrationError,
    FIRST_CALIBRATION_SQUARE, SECOND_CALIBRATION_SQUARE,
};
use arm_kinematics::{ArmConfig, BoardConfig, Ik, Joints};

fn configs() -> (ArmConfig, BoardConfig) {
    (
        ArmConfig::builtin().expect("arm.yaml"),
        BoardConfig::builtin().expect("board.yaml"),
    )
}

/// The joints with the cup's tip on `sq`'s centre of `board`.
fn jogged(arm: &ArmConfig, board: &BoardConfig, sq: draughts::Square) -> Joints {
    let rest = arm.rest();
    Ik::new(arm)
        .solve(
            board.square_center(sq),
            &Joints::new(rest[0], rest[1], rest[2]),
        )
        .expect("square reachable")
        .joints
}

#[test]
fn a_moved_and_turned_board_is_recovered_from_two_jogged_squares() {
    let (arm, board) = configs();
    for (dx, dy, yaw, dz) in [
        (0.0, 0.0, 0.0, 0.0),
        (0.012, -0.008, 4.0, 0.003),
        (-0.010, 0.015, -7.5, -0.004),
        (0.005, 0.020, 12.0, 0.0),
    ] {
        let truth = BoardPose {
            near_edge_x_m: board.board.near_edge_x_m + dx,
            center_y_m: board.board.center_y_m + dy,
            yaw_deg: yaw,
            top_z_m: board.board.top_z_m + dz,
        };
        let moved = truth.apply(&board);
        let a1 = jogged(&arm, &moved, FIRST_CALIBRATION_SQUARE);
        let h8 = jogged(&arm, &moved, SECOND_CALIBRATION_SQUARE);
        // Calibration starts from the old config: only square size, border and side are used.
        let got = board_pose_from_joints(&arm, &board, &a1, &h8).expect("pose");
        assert!(
            (got.near_edge_x_m - truth.near_edge_x_m).abs() < 1e-6,
            "{got:?} {truth:?}"
        );
        assert!(
            (got.center_y_m - truth.center_y_m).abs() < 1e-6,
            "{got:?} {truth:?}"
        );
        assert!(
            (got.yaw_deg - truth.yaw_deg).abs() < 1e-4,
            "{got:?} {truth:?}"
        );
        assert!(
            (got.top_z_m - truth.top_z_m).abs() < 1e-6,
            "{got:?} {truth:?}"
        );
        check_reachable(&arm, &got.apply(&board)).expect("reachable");
    }
}

#[test]
fn a_wrong_square_or_swapped_squares_are_refused() {
    let (arm, board) = configs();
    let a1 = jogged(&arm, &board, FIRST_CALIBRATION_SQUARE);
    let h8 = jogged(&arm, &board, SECOND_CALIBRATION_SQUARE);
    let g7 = jogged(&arm, &board, "g7".parse().expect("square"));
    assert!(matches!(
        board_pose_from_joints(&arm, &board, &a1, &g7),
        Err(CalibrationError::SpanMismatch { .. })
    ));
    assert!(matches!(
        board_pose_from_joints(&arm, &board, &h8, &a1),
        Err(CalibrationError::Turned { .. })
    ));
}

#[test]
fn saving_rewrites_only_the_board_pose_and_keeps_the_comments() {
    let (_, board) = configs();
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("board.yaml");
    let original = include_str!("../../../config/board.yaml");
    std::fs::write(&path, original).expect("write");
    let pose = BoardPose {
        near_edge_x_m: 0.1634,
        center_y_m: -0.0042,
        yaw_deg: 3.25,
        top_z_m: 0.0485,
    };
    let saved = save_board_pose(&path, &pose).expect("saved");
    let reread = BoardConfig::load(&path).expect("loads");
    assert_eq!(saved, reread);
    assert_eq!(BoardPose::of(&reread), pose);
    // The tray's top_z_m is another key of the same name: untouched.
    assert_eq!(reread.tray, board.tray);
    assert_eq!(reread.bin, board.bin);
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(
        text.contains("# nearest edge 160 mm in front of J1"),
        "{text}"
    );
    assert_eq!(text.lines().count(), original.lines().count());
    let backup = dir.path().join("board.yaml.bak");
    assert_eq!(std::fs::read_to_string(backup).expect("backup"), original);
}
