//! Homing: each joint in turn finds its Hall switch, first quickly, then slowly from a short
//! distance so the switch edge is met at a speed the motor can stop at dead; that edge becomes
//! the joint's known angle. Then the soft limits go on and the arm moves to its home pose.
//!
//! For one joint:
//!
//! ```text
//! Release  (only if the switch is already closed) creep away until it opens, at most
//!          RELEASE_BACKOFFS x backoff
//! Seek     toward the switch at seek speed, up to max_travel; brake when it closes
//! Backoff  away by `backoff`; the switch must be open again
//! Latch    toward it at latch speed, up to 2 x backoff; stop dead when it closes: zero here
//! ```
//!
//! A switch never found is a `Stall` alarm (the joint is blocked or the switch dead); a switch
//! that stays closed is a `Limit` alarm. When the arm was homed before, the switch must be met
//! where the count expects it: further off than `stall_tolerance` means steps were lost since.

use super::{AlarmCode, Arm, ArmIo, ArmState, Halt, JOINTS};
use crate::Micros;

/// How far (in backoffs) a joint that starts on its switch creeps off it. Such a joint lies
/// between the switch and its hard stop, a few degrees; a switch still closed after this is
/// stuck, and creeping on (once up to `max_travel`, the joint's whole range, for minutes)
/// would drive the arm into its other stop.
pub const RELEASE_BACKOFFS: i32 = 4;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Waiting for the joints to come to rest.
    Settle,
    Release,
    Seek,
    /// The switch was found at seek speed; braking past it.
    SeekBrake,
    Backoff,
    Latch,
    /// All zeroed; moving to the home pose.
    Park,
}

/// Where a homing sequence is.
#[derive(Debug, Clone, Copy)]
pub(super) struct Homing {
    /// Whether the count was trusted when homing began (for the lost-step check).
    was_homed: bool,
    /// Index into `homing_order`.
    index: usize,
    phase: Phase,
}

impl Homing {
    pub(super) fn new(was_homed: bool) -> Homing {
        Homing {
            was_homed,
            index: 0,
            phase: Phase::Settle,
        }
    }
}

impl<IO: ArmIo> Arm<IO> {
    /// Moves joint `j` alone by `delta` centidegrees at `speed`; the soft limits are lifted
    /// while homing, so nothing can refuse it.
    fn jog(&mut self, j: usize, delta: i32, speed: u32, now: Micros) {
        let c = self.cfg.joints[j];
        let target = self.joints[j].position() + c.steps(delta);
        let _ = self.joints[j].move_to(target, c.rate(speed), c.rate(c.max_accel), now);
    }

    /// Signed distance toward joint `j`'s switch.
    fn toward(&self, j: usize, distance: i32) -> i32 {
        self.cfg.joints[j].homing.toward.sign() * distance
    }

    fn begin_joint(&mut self, j: usize, now: Micros) -> Phase {
        let h = self.cfg.joints[j].homing;
        if self.io.limit_closed(j) {
            let release = (RELEASE_BACKOFFS * h.backoff).min(h.max_travel);
            self.jog(j, -self.toward(j, release), h.latch_speed, now);
            Phase::Release
        } else {
            self.jog(j, self.toward(j, h.max_travel), h.seek_speed, now);
            Phase::Seek
        }
    }

    pub(super) fn homing_tick(&mut self, now: Micros) {
        let Some(mut homing) = self.homing else {
            return;
        };
        let j = self.cfg.homing_order[homing.index % JOINTS];
        let h = self.cfg.joints[j].homing;
        let moving = self.joints[j].is_moving();
        let next = match homing.phase {
            Phase::Settle if self.at_rest() => {
                for s in &mut self.joints {
                    s.set_limits(None);
                }
                Some(self.begin_joint(j, now))
            }
            Phase::Settle => None,
            Phase::Release => {
                if !self.io.limit_closed(j) {
                    // Creeping: stopping dead loses nothing.
                    self.joints[j].emergency_stop();
                    self.jog(j, -self.toward(j, h.backoff), h.seek_speed, now);
                    Some(Phase::Backoff)
                } else if !moving {
                    let travel = (RELEASE_BACKOFFS * h.backoff).min(h.max_travel);
                    self.fault(AlarmCode::Limit, j as u8, travel, Halt::Now, now);
                    return;
                } else {
                    None
                }
            }
            Phase::Seek => {
                if self.io.limit_closed(j) {
                    self.joints[j].stop(now);
                    Some(Phase::SeekBrake)
                } else if !moving {
                    self.fault(AlarmCode::Stall, j as u8, h.max_travel, Halt::Now, now);
                    return;
                } else {
                    None
                }
            }
            Phase::SeekBrake if !moving => {
                self.jog(j, -self.toward(j, h.backoff), h.seek_speed, now);
                Some(Phase::Backoff)
            }
            Phase::SeekBrake => None,
            Phase::Backoff if !moving => {
                if self.io.limit_closed(j) {
                    self.fault(AlarmCode::Limit, j as u8, h.backoff, Halt::Now, now);
                    return;
                }
                self.jog(j, self.toward(j, 2 * h.backoff), h.latch_speed, now);
                Some(Phase::Latch)
            }
            Phase::Backoff => None,
            Phase::Latch => {
                if self.io.limit_closed(j) {
                    self.joints[j].emergency_stop();
                    if !self.zero(j, homing.was_homed, now) {
                        return;
                    }
                    homing.index += 1;
                    if homing.index < JOINTS {
                        let next = self.cfg.homing_order[homing.index];
                        Some(self.begin_joint(next, now))
                    } else if self.park(now) {
                        Some(Phase::Park)
                    } else {
                        return;
                    }
                } else if !moving {
                    self.fault(AlarmCode::Stall, j as u8, 2 * h.backoff, Halt::Now, now);
                    return;
                } else {
                    None
                }
            }
            Phase::Park if self.at_rest() => {
                self.homing = None;
                self.homed = true;
                self.state = ArmState::Idle;
                return;
            }
            Phase::Park => None,
        };
        if let Some(phase) = next {
            homing.phase = phase;
        }
        self.homing = Some(homing);
    }

    /// Joint `j` stands where its switch closed: that is its known angle. Returns false if a
    /// lost-step alarm was raised instead.
    fn zero(&mut self, j: usize, was_homed: bool, now: Micros) -> bool {
        let c = self.cfg.joints[j];
        let found = c.centideg(self.joints[j].position());
        let off = found - c.homing.switch_at;
        if let Some(tolerance) = self.cfg.stall_tolerance {
            if was_homed && off.abs() > tolerance {
                self.fault(AlarmCode::Stall, j as u8, off, Halt::Now, now);
                return false;
            }
        }
        self.joints[j].set_position(c.steps(c.homing.switch_at));
        true
    }

    /// All joints zeroed: limits on, and off to the home pose. False if that was refused.
    fn park(&mut self, now: Micros) -> bool {
        for (s, c) in self.joints.iter_mut().zip(&self.cfg.joints) {
            s.set_limits(Some((c.steps(c.min), c.steps(c.max))));
        }
        let pose = self.cfg.home_pose;
        let speed = self.cfg.default_speed;
        match self.start_move(pose, speed, now) {
            Ok(()) => true,
            Err(j) => {
                // A home pose outside the limits is a configuration error; say where.
                self.fault(AlarmCode::OutOfRange, j as u8, pose[j], Halt::Now, now);
                false
            }
        }
    }
}
