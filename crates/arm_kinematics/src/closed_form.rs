//! The analytic inverse of the Dobot chain: the independent check of the Jacobian IK, and
//! the IK's diagnosis of why a target cannot be reached.

use nalgebra::Point3;
use thiserror::Error;

use crate::config::{Geometry, Limits};
use crate::joints::Joints;

/// Why no joints reach a target: what the closed form finds (out of reach, beyond a limit),
/// or the iteration's failure ([`crate::Ik::solve`]).
#[derive(Debug, Error, Clone, PartialEq)]
pub enum IkError {
    #[error("target {target:?} m is out of reach: the wrist would be {distance:.4} m from the shoulder, the arm spans {min:.4}..{max:.4} m")]
    OutOfReach {
        target: [f64; 3],
        distance: f64,
        min: f64,
        max: f64,
    },
    #[error("target {target:?} m needs {joint} = {value_deg:.2} deg, outside its limits {min_deg:.1}..{max_deg:.1} deg")]
    JointLimit {
        target: [f64; 3],
        joint: &'static str,
        value_deg: f64,
        min_deg: f64,
        max_deg: f64,
    },
    #[error("target {target:?} m lies on J1's axis, where the yaw is undefined")]
    OnAxis { target: [f64; 3] },
    #[error("target is not a finite point")]
    NotFinite,
    #[error(
        "no convergence to {target:?} m within {iterations} iterations (residual {residual:.3e} m)"
    )]
    NoConvergence {
        target: [f64; 3],
        iterations: u32,
        residual: f64,
    },
}

/// The elbow-up joints that put the cup tip on `target`, or why there are none.
///
/// J1 is the target's bearing (the arm's offsets are all radial). In the vertical plane the
/// wrist (forearm tip) is a two-link problem: the rear arm makes the angle
/// `atan2(Z, R) + acos((l1² + d² - l2²) / (2 l1 d))` with the horizontal, the elbow above
/// the shoulder-wrist line; the forearm then points from the elbow to the wrist.
pub fn solve(g: &Geometry, limits: &Limits, target: Point3<f64>) -> Result<Joints, IkError> {
    let t = [target.x, target.y, target.z];
    if t.iter().any(|v| !v.is_finite()) {
        return Err(IkError::NotFinite);
    }
    let rho = target.x.hypot(target.y);
    if rho < 1e-9 {
        return Err(IkError::OnAxis { target: t });
    }
    let j1 = target.y.atan2(target.x);
    let r = rho - g.shoulder_forward - g.tool_forward;
    let z = target.z - g.shoulder_height + g.tool_down;
    let d = r.hypot(z);
    let (l1, l2) = (g.rear_arm, g.forearm);
    let (min, max) = ((l1 - l2).abs(), l1 + l2);
    if d > max || d < min {
        return Err(IkError::OutOfReach {
            target: t,
            distance: d,
            min,
            max,
        });
    }
    let cos_shoulder = ((l1 * l1 + d * d - l2 * l2) / (2.0 * l1 * d)).clamp(-1.0, 1.0);
    let rear_from_horizontal = z.atan2(r) + cos_shoulder.acos();
    let j2 = std::f64::consts::FRAC_PI_2 - rear_from_horizontal;
    let (ex, ez) = (l1 * j2.sin(), l1 * j2.cos());
    let j3 = -(z - ez).atan2(r - ex);
    let q = Joints::new(j1, j2, j3);
    check_limits(limits, &q, t)?;
    Ok(q)
}

/// The first limit `q` breaks, as an error about `target`.
pub(crate) fn check_limits(limits: &Limits, q: &Joints, target: [f64; 3]) -> Result<(), IkError> {
    let names = ["J1", "J2", "J3"];
    let a = q.array();
    for i in 0..3 {
        if a[i] < limits.min[i] || a[i] > limits.max[i] {
            return Err(IkError::JointLimit {
                target,
                joint: names[i],
                value_deg: a[i].to_degrees(),
                min_deg: limits.min[i].to_degrees(),
                max_deg: limits.max[i].to_degrees(),
            });
        }
    }
    let elbow = a[2] - a[1];
    if elbow < limits.elbow_min || elbow > limits.elbow_max {
        return Err(IkError::JointLimit {
            target,
            joint: "J3-J2",
            value_deg: elbow.to_degrees(),
            min_deg: limits.elbow_min.to_degrees(),
            max_deg: limits.elbow_max.to_degrees(),
        });
    }
    Ok(())
}
