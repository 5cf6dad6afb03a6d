//! The arm's three actuated joints, and their names in the URDF.

use nalgebra::Vector3;

/// URDF joint names of J1, J2 and the relative elbow (J3 - J2), in /joint_states order.
pub const ARM_JOINTS: [&str; 3] = ["j1_yaw", "j2_shoulder", "j3_elbow"];
/// The parallelogram: two mimic joints at the forearm's tip that undo J2 and the elbow, so the
/// tool plate stays level (URDF mimics follow one joint each, hence two in series).
pub const WRIST_MIMICS: [&str; 2] = ["wrist_undo_shoulder", "wrist_undo_elbow"];
pub const HEAD_JOINTS: [&str; 2] = ["neck_pan", "neck_tilt"];
/// The link whose origin is the suction cup's tip: the point the IK places.
pub const CUP_LINK: &str = "suction_cup";
pub const BASE_LINK: &str = "base_link";

/// J1 J2 J3 in radians, in the Dobot's convention: J1 yaw (left positive), J2 the rear arm
/// from vertical (forward positive), J3 the forearm from horizontal (down positive). These
/// are what the arm controller's steppers turn; the URDF's elbow is J3 - J2.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Joints(pub Vector3<f64>);

impl Joints {
    pub fn new(j1: f64, j2: f64, j3: f64) -> Joints {
        Joints(Vector3::new(j1, j2, j3))
    }

    pub fn from_degrees(j1: f64, j2: f64, j3: f64) -> Joints {
        Joints::new(j1.to_radians(), j2.to_radians(), j3.to_radians())
    }

    pub fn j1(&self) -> f64 {
        self.0.x
    }

    pub fn j2(&self) -> f64 {
        self.0.y
    }

    pub fn j3(&self) -> f64 {
        self.0.z
    }

    pub fn array(&self) -> [f64; 3] {
        [self.0.x, self.0.y, self.0.z]
    }

    /// The positions of [`ARM_JOINTS`] as the URDF (and /joint_states) has them.
    pub fn urdf_positions(&self) -> [f64; 3] {
        [self.0.x, self.0.y, self.0.z - self.0.y]
    }

    /// The inverse of [`Joints::urdf_positions`].
    pub fn from_urdf_positions(p: [f64; 3]) -> Joints {
        Joints::new(p[0], p[1], p[2] + p[1])
    }
}
