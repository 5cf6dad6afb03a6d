//! The generated types survive CDR serialization unchanged, nested and array fields included.

mod common;

use checkers_msgs::action::PlanMove_Goal;
use checkers_msgs::builtin_interfaces::msg::{Duration, Time};
use checkers_msgs::geometry_msgs::msg::{Point, Pose, Quaternion, Vector3};
use checkers_msgs::msg::{FaceExpression, GameState, Move, Position};
use checkers_msgs::sensor_msgs::msg::CompressedImage;
use checkers_msgs::srv::ScanBoard_Response;
use checkers_msgs::std_msgs::msg::{ColorRGBA, Header};
use checkers_msgs::visualization_msgs::msg::{Marker, MarkerArray, MeshFile, UVCoordinate};
use common::round_trip;

fn header(frame: &str) -> Header {
    Header {
        stamp: Time {
            sec: 1_700_000_000,
            nanosec: 123_456_789,
        },
        frame_id: frame.to_string(),
    }
}

fn capture() -> Move {
    Move {
        from_square: 22,
        to_square: 6,
        path: vec![15, 6],
        captured: vec![11, 18],
        promotes: false,
        text: "c3:e5:c7".to_string(),
    }
}

#[test]
fn game_state_with_nested_moves() {
    let state = GameState {
        header: header("board"),
        game_id: 7,
        position: Position {
            white: 0xFFF0_0000,
            black: 0x0000_0FFF,
            kings: 1 << 31,
            side_to_move: Position::SIDE_BLACK,
            fen: "B:W21-32:B1-12".to_string(),
        },
        status: GameState::STATUS_ROBOT_THINKING,
        robot_color: GameState::SIDE_BLACK,
        level: "hard".to_string(),
        ply: 41,
        last_move: capture(),
        legal_moves: vec![capture(), Move::default(), capture()],
        candidates: vec![capture()],
        result: "*".to_string(),
        result_reason: String::new(),
        search_depth: 9,
        search_nodes: u64::MAX - 3,
        best_move_text: "a3-b4".to_string(),
        search_elapsed_s: 1.25,
        message: "thinking…".to_string(),
    };
    assert_eq!(round_trip(&state), state);
}

#[test]
fn face_expression_with_64_byte_eyes() {
    let mut face = FaceExpression {
        header: header("head"),
        emotion: FaceExpression::EMOTION_SURPRISE,
        intensity: 0.75,
        left_brow_deg: 12.5,
        right_brow_deg: -3.0,
        neck_pan_deg: 20.0,
        neck_tilt_deg: -7.5,
        gaze: FaceExpression::GAZE_PLAYER,
        phrase: "Oh!".to_string(),
        ..FaceExpression::default()
    };
    for i in 0..64 {
        face.left_eye[i] = (i % 2) as u8;
        face.right_eye[i] = (i * 3 % 256) as u8;
    }
    assert_eq!(round_trip(&face), face);
}

#[test]
fn marker_with_every_nested_type() {
    let marker = Marker {
        header: header("board"),
        ns: "pieces".to_string(),
        id: 17,
        r#type: Marker::MESH_RESOURCE,
        action: Marker::ADD,
        pose: Pose {
            position: Point {
                x: 0.1,
                y: -0.2,
                z: 0.05,
            },
            orientation: Quaternion::default(),
        },
        scale: Vector3 {
            x: 0.02,
            y: 0.02,
            z: 0.008,
        },
        color: ColorRGBA {
            r: 0.9,
            g: 0.1,
            b: 0.1,
            a: 1.0,
        },
        lifetime: Duration {
            sec: 2,
            nanosec: 500_000_000,
        },
        frame_locked: true,
        points: vec![
            Point::default(),
            Point {
                x: 1.0,
                y: 2.0,
                z: 3.0,
            },
        ],
        colors: vec![ColorRGBA::default(); 2],
        texture_resource: "embedded://wood".to_string(),
        texture: CompressedImage {
            header: header("texture"),
            format: "png".to_string(),
            data: vec![0x89, b'P', b'N', b'G'],
        },
        uv_coordinates: vec![
            UVCoordinate { u: 0.0, v: 1.0 },
            UVCoordinate { u: 0.5, v: 0.5 },
        ],
        text: "K".to_string(),
        mesh_resource: "embedded://king".to_string(),
        mesh_file: MeshFile {
            filename: "king.stl".to_string(),
            data: vec![1, 2, 3, 4, 5],
        },
        mesh_use_embedded_materials: true,
    };
    assert_eq!(round_trip(&marker), marker);
    let array = MarkerArray {
        markers: vec![marker.clone(), Marker::default(), marker],
    };
    assert_eq!(round_trip(&array), array);
}

#[test]
fn service_and_action_parts() {
    let response = ScanBoard_Response {
        occupancy: checkers_msgs::msg::BoardOccupancy {
            header: header("board"),
            occupied: 0xFFF0_0FFF,
            seq: 99,
            confirmed: false,
        },
        success: true,
        message: "ok".to_string(),
    };
    assert_eq!(round_trip(&response), response);
    let goal = PlanMove_Goal {
        position: Position::default(),
        start_fen: String::new(),
        history: vec!["c3-d4".to_string(), "f6-e5".to_string()],
        time_budget_s: 2.5,
        algorithm: "mcts".to_string(),
    };
    assert_eq!(round_trip(&goal), goal);
}
