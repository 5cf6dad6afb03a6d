//! The arm as the page draws it and Foxglove shows it: forward kinematics of the robot's URDF
//! (generated from the arm's and the board's configs, as the arm node does) for the joint
//! angles of `/joint_states`.

use std::collections::BTreeMap;
use std::path::Path;

use arm_kinematics::joints::{ARM_JOINTS, BASE_LINK, HEAD_JOINTS};
use arm_kinematics::{ArmConfig, BoardConfig, Joints, Kinematics};
use checkers_msgs::builtin_interfaces::msg::Time;
use checkers_msgs::geometry_msgs::msg::{Quaternion, Transform, TransformStamped, Vector3};
use checkers_msgs::std_msgs::msg::Header;
use checkers_msgs::tf2_msgs::msg::TFMessage;
use serde_json::json;

/// The links the page draws as the arm's chain, base to cup.
const CHAIN: [&str; 5] = [
    "base_link",
    "rear_arm",
    "forearm",
    "wrist_link",
    "suction_cup",
];
const HEAD_LINK: &str = "head";

#[derive(Debug, thiserror::Error)]
pub enum ArmViewError {
    #[error(transparent)]
    Config(#[from] arm_kinematics::ConfigError),
    #[error(transparent)]
    Kinematics(#[from] arm_kinematics::FkError),
}

/// The robot's geometry, ready for joint angles.
#[derive(Debug)]
pub struct ArmView {
    kinematics: Kinematics,
    urdf: String,
    board: [[f64; 2]; 4],
}

impl ArmView {
    /// From `config/arm.yaml` and `config/board.yaml`.
    pub fn load(arm: &Path, board: &Path) -> Result<ArmView, ArmViewError> {
        let arm = ArmConfig::load(arm)?;
        let board = BoardConfig::load(board)?;
        let urdf = arm_kinematics::urdf_gen::generate(&arm, &board);
        let kinematics = Kinematics::from_urdf(&urdf)?;
        let c = board.center();
        let half = board.outer_size() / 2.0;
        let (sin, cos) = board.board.yaw_deg.to_radians().sin_cos();
        let corner = |u: f64, v: f64| [c.x + cos * u - sin * v, c.y + sin * u + cos * v];
        Ok(ArmView {
            kinematics,
            urdf,
            board: [
                corner(-half, -half),
                corner(half, -half),
                corner(half, half),
                corner(-half, half),
            ],
        })
    }

    /// The robot's URDF, for Foxglove's 3D panel (`/robot_description`).
    pub fn urdf(&self) -> &str {
        &self.urdf
    }

    /// The page's `arm` update for the joint angles seen (`/joint_states` names, radians).
    pub fn pose(&self, joints: &BTreeMap<String, f64>) -> serde_json::Value {
        let (q, head) = angles(joints);
        let poses = self.kinematics.link_poses(&q, head);
        let at = |link: &str| {
            poses.get(link).map(|p| {
                let t = p.translation.vector;
                [round(t.x), round(t.y), round(t.z)]
            })
        };
        let points: Vec<_> = CHAIN.iter().filter_map(|l| at(l)).collect();
        json!({
            "op": "arm",
            "points": points,
            "head": at(HEAD_LINK),
            "board": self.board,
        })
    }

    /// Every link's pose in base_link, as the TF tree Foxglove's URDF layer needs: flat, each
    /// link a child of base_link (robot_state_publisher's tree composes to the same poses).
    pub fn transforms(&self, joints: &BTreeMap<String, f64>, stamp: Time) -> TFMessage {
        let (q, head) = angles(joints);
        let transforms = self
            .kinematics
            .link_poses(&q, head)
            .into_iter()
            .filter(|(link, _)| link != BASE_LINK)
            .map(|(link, p)| {
                let t = p.translation.vector;
                let r = p.rotation.quaternion();
                TransformStamped {
                    header: Header {
                        stamp: stamp.clone(),
                        frame_id: BASE_LINK.into(),
                    },
                    child_frame_id: link,
                    transform: Transform {
                        translation: Vector3 {
                            x: t.x,
                            y: t.y,
                            z: t.z,
                        },
                        rotation: Quaternion {
                            x: r.i,
                            y: r.j,
                            z: r.k,
                            w: r.w,
                        },
                    },
                }
            })
            .collect();
        TFMessage { transforms }
    }
}

/// The arm's joints (Dobot convention) and the head's pan and tilt from `/joint_states`
/// names; a joint not seen yet is at zero.
fn angles(joints: &BTreeMap<String, f64>) -> (Joints, [f64; 2]) {
    let get = |name: &str| joints.get(name).copied().unwrap_or(0.0);
    let q = Joints::from_urdf_positions(ARM_JOINTS.map(get));
    (q, HEAD_JOINTS.map(get))
}

/// Millimetre precision is all a drawing needs, and it keeps the page's messages short.
fn round(v: f64) -> f64 {
    (v * 10_000.0).round() / 10_000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view() -> ArmView {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config");
        ArmView::load(&root.join("arm.yaml"), &root.join("board.yaml")).expect("the configs load")
    }

    #[test]
    fn the_chain_moves_with_the_base_joint() {
        let v = view();
        let mut joints = BTreeMap::new();
        let ahead = v.pose(&joints);
        joints.insert("j1_yaw".to_string(), 0.5);
        let turned = v.pose(&joints);
        let cup = |p: &serde_json::Value| p["points"][4].clone();
        assert_eq!(ahead["points"].as_array().map(Vec::len), Some(5));
        assert_ne!(cup(&ahead), cup(&turned));
        // Yawing keeps the cup's height.
        assert_eq!(cup(&ahead)[2], cup(&turned)[2]);
        assert!(turned["head"].is_array());
    }

    #[test]
    fn transforms_name_every_link_below_the_base() {
        let tf = view().transforms(&BTreeMap::new(), Time::default());
        assert!(tf
            .transforms
            .iter()
            .any(|t| t.child_frame_id == "suction_cup"));
        assert!(tf
            .transforms
            .iter()
            .all(|t| t.header.frame_id == "base_link"));
    }
}
