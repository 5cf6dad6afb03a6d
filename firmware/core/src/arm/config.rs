//! The arm's fixed figures: gearing, soft limits, speeds and the homing geometry.

use serial_link::arm::JOINTS;

use crate::stepper::Direction;

/// How one joint finds its zero against its Hall limit switch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HomingConfig {
    /// The way the joint turns to reach its switch.
    pub toward: Direction,
    /// The joint angle at which the switch closes when approached slowly, centidegrees. It lies
    /// beyond the soft limits, so in normal work the switch stays open.
    pub switch_at: i32,
    /// Approach speed while looking for the switch, centidegrees per second.
    pub seek_speed: u32,
    /// Speed of the second, precise approach; slow enough to stop dead without losing steps.
    pub latch_speed: u32,
    /// How far to back off the switch before the precise approach, centidegrees.
    pub backoff: i32,
    /// The farthest the joint may travel looking for its switch; beyond it the switch is taken
    /// to be dead or the joint blocked.
    pub max_travel: i32,
}

/// One joint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JointConfig {
    /// Microsteps per turn of the joint: motor steps x microstepping x gear ratio.
    pub steps_per_turn: u32,
    /// Soft limits, centidegrees, inclusive.
    pub min: i32,
    /// Soft limits, centidegrees, inclusive.
    pub max: i32,
    /// Top speed, centidegrees per second.
    pub max_speed: u32,
    /// Acceleration and deceleration, centidegrees per second squared.
    pub max_accel: u32,
    /// Finding zero.
    pub homing: HomingConfig,
}

impl JointConfig {
    /// Steps for an angle, to the nearest step.
    pub fn steps(&self, centideg: i32) -> i32 {
        div_round(i64::from(centideg) * i64::from(self.steps_per_turn), 36_000) as i32
    }

    /// The angle of a step count, to the nearest centidegree.
    pub fn centideg(&self, steps: i32) -> i32 {
        div_round(
            i64::from(steps) * 36_000,
            i64::from(self.steps_per_turn.max(1)),
        ) as i32
    }

    /// A speed or acceleration in steps (per second, or per second squared), at least 1.
    pub fn rate(&self, centideg_per_s: u32) -> u32 {
        let r = u64::from(centideg_per_s) * u64::from(self.steps_per_turn) / 36_000;
        r.clamp(1, u64::from(u32::MAX)) as u32
    }
}

/// The arm controller's configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArmConfig {
    /// J1, J2, J3.
    pub joints: [JointConfig; JOINTS],
    /// Limits on J3 - J2 (the parallelogram's relative elbow), centidegrees, inclusive.
    /// A straight line in joint space between two poses that respect it respects it all the
    /// way (the limit is a convex set), so checking the target is enough.
    pub elbow: Option<(i32, i32)>,
    /// Speed of the fastest joint when `MoveJoints` says 0, centidegrees per second.
    pub default_speed: u32,
    /// The pose homing ends in, centidegrees; within the soft limits, off the switches.
    pub home_pose: [i32; JOINTS],
    /// Joints in the order they home (J3 and J2 before J1, say, to fold the arm first).
    pub homing_order: [usize; JOINTS],
    /// After the pump stops, the valve vents the cup this long so the piece lets go at once.
    pub vent_us: u32,
    /// When a homing finds a switch this far from where the previous homing put it, steps were
    /// lost in between: a `Stall` alarm. Centidegrees; `None` turns the check off.
    pub stall_tolerance: Option<i32>,
}

impl ArmConfig {
    /// The paper's arm as `config/arm.yaml` describes it (Dobot-class, 1.8° motors at 1/16
    /// microstepping behind a 10:1 reduction). Gearing, switch angles and speeds are to be
    /// measured on the real arm.
    pub const fn paper_robot() -> ArmConfig {
        const fn joint(min: i32, max: i32, toward: Direction, switch_at: i32) -> JointConfig {
            JointConfig {
                steps_per_turn: 200 * 16 * 10,
                min,
                max,
                max_speed: 12_000,
                max_accel: 40_000,
                homing: HomingConfig {
                    toward,
                    switch_at,
                    seek_speed: 2_000,
                    latch_speed: 200,
                    backoff: 300,
                    max_travel: 27_000,
                },
            }
        }
        ArmConfig {
            joints: [
                joint(-9_000, 9_000, Direction::Reverse, -9_500),
                joint(0, 8_500, Direction::Reverse, -300),
                joint(-1_000, 9_500, Direction::Reverse, -1_300),
            ],
            elbow: Some((-6_000, 8_000)),
            default_speed: 12_000,
            home_pose: [0, 0, 0],
            homing_order: [2, 1, 0],
            vent_us: 200_000,
            stall_tolerance: Some(100),
        }
    }
}

/// n / d rounded to the nearest integer, halves away from minus infinity; d > 0.
fn div_round(n: i64, d: i64) -> i64 {
    (n + d / 2).div_euclid(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn angles_and_steps_convert_to_the_nearest() {
        let j = ArmConfig::paper_robot().joints[0];
        assert_eq!(j.steps(9_000), 8_000);
        assert_eq!(j.steps(-9_000), -8_000);
        assert_eq!(j.centideg(8_000), 9_000);
        assert_eq!(j.centideg(-1), -1);
        assert_eq!(j.rate(12_000), 10_666);
    }
}
