//! Forward kinematics: the TF of every link from the URDF with `k`, and the same chain in
//! closed form for the IK's inner loop (a test proves the two agree).

use std::collections::{BTreeMap, HashMap};

use k::nalgebra as kna;
use nalgebra::{Isometry3, Matrix3, Point3};
use thiserror::Error;

use crate::config::{ArmConfig, BoardConfig, Geometry};
use crate::joints::{Joints, ARM_JOINTS, CUP_LINK, HEAD_JOINTS};
use crate::urdf_check::{self, UrdfError};
use crate::urdf_gen;

#[derive(Debug, Error)]
pub enum FkError {
    #[error(transparent)]
    Urdf(#[from] UrdfError),
    #[error("the URDF has no joint {0}")]
    MissingJoint(&'static str),
    #[error("the URDF has no link {0}")]
    MissingLink(&'static str),
}

/// The cup tip's position for `q`: the chain base_link -> suction_cup of the URDF, written
/// out. The parallelogram keeps the tool plate level, so the tool offset is not rotated by
/// J2 or J3.
#[inline]
pub fn cup_position(g: &Geometry, q: &Joints) -> Point3<f64> {
    let (s1, c1) = q.j1().sin_cos();
    let (s2, c2) = q.j2().sin_cos();
    let (s3, c3) = q.j3().sin_cos();
    let reach = g.shoulder_forward + g.rear_arm * s2 + g.forearm * c3 + g.tool_forward;
    let z = g.shoulder_height + g.rear_arm * c2 - g.forearm * s3 - g.tool_down;
    Point3::new(reach * c1, reach * s1, z)
}

/// The cup position and d(position)/d(J1, J2, J3) at `q`, sharing the trigonometry.
#[inline]
pub fn cup_position_and_jacobian(g: &Geometry, q: &Joints) -> (Point3<f64>, Matrix3<f64>) {
    let (s1, c1) = q.j1().sin_cos();
    let (s2, c2) = q.j2().sin_cos();
    let (s3, c3) = q.j3().sin_cos();
    let reach = g.shoulder_forward + g.rear_arm * s2 + g.forearm * c3 + g.tool_forward;
    let z = g.shoulder_height + g.rear_arm * c2 - g.forearm * s3 - g.tool_down;
    let (dr2, dr3) = (g.rear_arm * c2, -g.forearm * s3);
    let (dz2, dz3) = (-g.rear_arm * s2, -g.forearm * c3);
    #[rustfmt::skip]
    let jac = Matrix3::new(
        -reach * s1, c1 * dr2, c1 * dr3,
         reach * c1, s1 * dr2, s1 * dr3,
         0.0,        dz2,      dz3,
    );
    (Point3::new(reach * c1, reach * s1, z), jac)
}

/// The whole robot's URDF loaded in `k`: TF of every link for given joint positions.
///
/// `k` propagates mimic joints only through its checked setters, which refuse positions a
/// hair outside limits after the URDF's rounding; so every joint, mimics included, is set
/// here from the actuated ones by the URDF's own mimic rules.
#[derive(Debug)]
pub struct Kinematics {
    chain: k::Chain<f64>,
    /// Per movable joint in `chain.iter_joints()` order: where its position comes from.
    sources: Vec<Source>,
}

#[derive(Debug, Clone, Copy)]
enum Source {
    Arm(usize),
    Head(usize),
    Mimic {
        of: Target,
        multiplier: f64,
        offset: f64,
    },
    Zero,
}

#[derive(Debug, Clone, Copy)]
enum Target {
    Arm(usize),
    Head(usize),
}

impl Kinematics {
    /// The robot generated from the two configs.
    pub fn new(arm: &ArmConfig, board: &BoardConfig) -> Result<Kinematics, FkError> {
        Kinematics::from_urdf(&urdf_gen::generate(arm, board))
    }

    /// Any URDF with this robot's joint names (e.g. the checked-in file).
    pub fn from_urdf(text: &str) -> Result<Kinematics, FkError> {
        let robot = urdf_check::parse(text)?;
        for name in ARM_JOINTS.iter().chain(HEAD_JOINTS.iter()) {
            if !robot.joints.iter().any(|j| j.name == *name) {
                return Err(FkError::MissingJoint(name));
            }
        }
        if !robot.links.iter().any(|l| l.name == CUP_LINK) {
            return Err(FkError::MissingLink(CUP_LINK));
        }
        let target = |name: &str| {
            if let Some(i) = ARM_JOINTS.iter().position(|n| *n == name) {
                Some(Target::Arm(i))
            } else {
                HEAD_JOINTS
                    .iter()
                    .position(|n| *n == name)
                    .map(Target::Head)
            }
        };
        let mimics: HashMap<&str, Source> = robot
            .joints
            .iter()
            .filter_map(|j| {
                let m = j.mimic.as_ref()?;
                Some((
                    j.name.as_str(),
                    match target(&m.joint) {
                        Some(of) => Source::Mimic {
                            of,
                            multiplier: m.multiplier.unwrap_or(1.0),
                            offset: m.offset.unwrap_or(0.0),
                        },
                        None => Source::Zero,
                    },
                ))
            })
            .collect();
        // urdf_check has vouched for the tree and the mimics, which k would panic on.
        let chain = k::Chain::<f64>::from(&robot);
        let sources = chain
            .iter_joints()
            .map(|j| {
                let name = j.name.as_str();
                match target(name) {
                    Some(Target::Arm(i)) => Source::Arm(i),
                    Some(Target::Head(i)) => Source::Head(i),
                    None => mimics.get(name).copied().unwrap_or(Source::Zero),
                }
            })
            .collect();
        Ok(Kinematics { chain, sources })
    }

    fn set(&self, q: &Joints, head: [f64; 2]) {
        let arm = q.urdf_positions();
        let value = |t: Target| match t {
            Target::Arm(i) => arm[i],
            Target::Head(i) => head[i],
        };
        let positions: Vec<f64> = self
            .sources
            .iter()
            .map(|s| match *s {
                Source::Arm(i) => arm[i],
                Source::Head(i) => head[i],
                Source::Mimic {
                    of,
                    multiplier,
                    offset,
                } => multiplier * value(of) + offset,
                Source::Zero => 0.0,
            })
            .collect();
        self.chain.set_joint_positions_unchecked(&positions);
        self.chain.update_transforms();
    }

    /// The pose of every link in base_link, the head's pan and tilt given too.
    pub fn link_poses(&self, q: &Joints, head: [f64; 2]) -> BTreeMap<String, Isometry3<f64>> {
        self.set(q, head);
        self.chain
            .iter()
            .filter_map(|node| {
                let name = node.link().as_ref()?.name.clone();
                Some((name, from_k(&node.world_transform()?)))
            })
            .collect()
    }

    /// The pose of one link.
    pub fn link_pose(&self, link: &str, q: &Joints, head: [f64; 2]) -> Option<Isometry3<f64>> {
        self.set(q, head);
        let node = self.chain.find_link(link)?;
        Some(from_k(&node.world_transform()?))
    }

    /// The suction cup's tip.
    pub fn cup_pose(&self, q: &Joints) -> Option<Isometry3<f64>> {
        self.link_pose(CUP_LINK, q, [0.0; 2])
    }
}

/// k re-exports the nalgebra it was built with; the same version as ours, but spelled
/// through its path so a version skew fails here and not in every caller.
fn from_k(iso: &kna::Isometry3<f64>) -> Isometry3<f64> {
    *iso
}
