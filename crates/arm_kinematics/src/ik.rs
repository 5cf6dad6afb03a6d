//! Inverse kinematics by the paper's inverse-Jacobian iteration, dq = J⁻¹ (x_d - x), on the
//! three actuated joints, made safe:
//! - a step cap (no iteration moves a joint more than `max_step_deg`), so a far start cannot
//!   overshoot into another branch;
//! - J1 wrapped into (-π, π] before clamping, so a seed a turn away is not clamped wrongly;
//! - every iterate clamped into the joint limits and the coupled J3 - J2 limit. The coupled
//!   limit lies strictly inside ±90° (config validation), and that band holds only elbow-up
//!   poses, so every iterate, and therefore the answer, is elbow-up;
//! - a start that stalls against a limit is retried once from the middle of the workspace;
//! - an answer is returned only when the cup tip is within tolerance of the target, and a
//!   failure is explained by the closed form (out of reach, which limit) — never a wrong pose.

use nalgebra::{Matrix3, Point3, Vector3};
use tracing::debug;

use crate::closed_form::{self, IkError};
use crate::config::{ArmConfig, Geometry, Limits};
use crate::fk::{cup_position, cup_position_and_jacobian};
use crate::joints::Joints;

/// A converged solve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Solution {
    pub joints: Joints,
    /// Jacobian steps taken, over both starts when the first stalled.
    pub iterations: u32,
    /// |FK(joints) - target| in metres.
    pub residual: f64,
}

/// The solver for one arm.
#[derive(Debug, Clone)]
pub struct Ik {
    geometry: Geometry,
    limits: Limits,
    tolerance: f64,
    max_iterations: u32,
    max_step: f64,
}

enum Outcome {
    Converged(Joints, f64),
    Stalled(f64),
}

impl Ik {
    pub fn new(arm: &ArmConfig) -> Ik {
        Ik {
            geometry: arm.geometry(),
            limits: arm.limits(),
            tolerance: arm.ik.tolerance_m,
            max_iterations: arm.ik.max_iterations,
            max_step: arm.ik.max_step_deg.to_radians(),
        }
    }

    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The cup tip for `q` (the closed-form chain, equal to the URDF's).
    pub fn forward(&self, q: &Joints) -> Point3<f64> {
        cup_position(&self.geometry, q)
    }

    /// Joints that put the cup tip on `target`, starting from `seed` (say the current pose).
    pub fn solve(&self, target: Point3<f64>, seed: &Joints) -> Result<Solution, IkError> {
        if !(target.x.is_finite() && target.y.is_finite() && target.z.is_finite()) {
            return Err(IkError::NotFinite);
        }
        let mut iterations = 0;
        let mut residual = f64::INFINITY;
        for start in [*seed, self.middle(target)] {
            match self.iterate(target, start, &mut iterations) {
                Outcome::Converged(joints, residual) => {
                    return Ok(Solution {
                        joints,
                        iterations,
                        residual,
                    })
                }
                Outcome::Stalled(r) => residual = r,
            }
            debug!(?target, iterations, residual, "IK start stalled");
        }
        // Explain the failure: the closed form says whether the target is out of reach or
        // beyond a limit. If it finds a pose, the iteration failed where it should not have.
        closed_form::solve(&self.geometry, &self.limits, target)?;
        Err(IkError::NoConvergence {
            target: [target.x, target.y, target.z],
            iterations,
            residual,
        })
    }

    fn iterate(&self, target: Point3<f64>, start: Joints, iterations: &mut u32) -> Outcome {
        let mut q = self.clamp(Vector3::new(wrap(start.j1()), start.j2(), start.j3()));
        let mut residual = f64::INFINITY;
        for _ in 0..self.max_iterations {
            let (p, jac) = cup_position_and_jacobian(&self.geometry, &Joints(q));
            let e = target - p;
            residual = e.norm();
            if residual <= self.tolerance {
                return Outcome::Converged(Joints(q), residual);
            }
            *iterations += 1;
            let Some(dq) = step(&jac, &e) else {
                return Outcome::Stalled(residual);
            };
            let biggest = dq.amax();
            let dq = if biggest > self.max_step {
                dq * (self.max_step / biggest)
            } else {
                dq
            };
            let next = self.clamp(Vector3::new(wrap(q.x + dq.x), q.y + dq.y, q.z + dq.z));
            // Pinned against a limit: the target needs a pose beyond it.
            if (next - q).amax() < 1e-15 {
                return Outcome::Stalled(residual);
            }
            q = next;
        }
        let residual_now = (target - cup_position(&self.geometry, &Joints(q))).norm();
        if residual_now <= self.tolerance {
            return Outcome::Converged(Joints(q), residual_now);
        }
        Outcome::Stalled(residual.min(residual_now))
    }

    /// Into the box limits, then J3 into the coupled band around J2.
    fn clamp(&self, q: Vector3<f64>) -> Vector3<f64> {
        let l = &self.limits;
        let j1 = q.x.clamp(l.min[0], l.max[0]);
        let j2 = q.y.clamp(l.min[1], l.max[1]);
        let lo = l.min[2].max(j2 + l.elbow_min);
        let hi = l.max[2].min(j2 + l.elbow_max);
        Vector3::new(j1, j2, q.z.clamp(lo, hi.max(lo)))
    }

    /// The second start: facing the target, both arms mid-range.
    fn middle(&self, target: Point3<f64>) -> Joints {
        let l = &self.limits;
        let j2 = (l.min[1] + l.max[1]) / 2.0;
        let j3 = (l.min[2] + l.max[2]) / 2.0;
        let bearing = if target.x == 0.0 && target.y == 0.0 {
            0.0
        } else {
            target.y.atan2(target.x)
        };
        Joints(self.clamp(Vector3::new(bearing, j2, j3)))
    }
}

/// dq = J⁻¹ e; `None` where J is singular (only at poses the limits exclude).
#[inline]
fn step(jac: &Matrix3<f64>, e: &Vector3<f64>) -> Option<Vector3<f64>> {
    let inv = jac.try_inverse()?;
    let dq = inv * e;
    dq.iter().all(|v| v.is_finite()).then_some(dq)
}

/// An angle into (-π, π].
#[inline]
fn wrap(a: f64) -> f64 {
    use std::f64::consts::{PI, TAU};
    if a > -PI && a <= PI {
        return a;
    }
    let w = (a + PI).rem_euclid(TAU) - PI;
    if w <= -PI {
        w + TAU
    } else {
        w
    }
}

#[cfg(test)]
mod tests {
    use super::wrap;
    use std::f64::consts::PI;

    #[test]
    fn wrap_lands_in_the_half_open_turn() {
        for (a, want) in [
            (0.0, 0.0),
            (PI, PI),
            (-PI, PI),
            (3.0 * PI / 2.0, -PI / 2.0),
            (-3.0 * PI / 2.0, PI / 2.0),
            (7.0 * PI + 0.25, -PI + 0.25),
        ] {
            assert!(
                (wrap(a) - want).abs() < 1e-12,
                "{a} -> {} not {want}",
                wrap(a)
            );
        }
    }
}
