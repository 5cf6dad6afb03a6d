//! One joint's stepper: where it is (in steps), where it may go (soft limits), and when its
//! next step is due under the move it follows; plus the step/direction pins of an A4988-class
//! driver.
//!
//! The generator is polled: [`Stepper::poll`] takes at most one step per call, when that step's
//! time has come, and [`Stepper::next_step_at`] says when to call again, so a board can run it
//! from a one-shot timer interrupt and the simulator from its event queue. Step times come from
//! the move's [`Profile`] and are absolute (counted from the move's start), so a poll that comes
//! a little late makes the next step come a little sooner and the joint stays on its plan.

use core::convert::Infallible;

use embedded_hal::delay::DelayNs;
use embedded_hal::digital::OutputPin;

use crate::profile::{Demand, Profile, Track};
use crate::Micros;

/// Which way a joint turns, in the joint's own angle convention (not the motor wiring's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Towards larger step counts.
    Forward,
    /// Towards smaller step counts.
    Reverse,
}

impl Direction {
    /// The other way.
    pub fn opposite(self) -> Direction {
        match self {
            Direction::Forward => Direction::Reverse,
            Direction::Reverse => Direction::Forward,
        }
    }

    /// +1 or -1.
    pub fn sign(self) -> i32 {
        match self {
            Direction::Forward => 1,
            Direction::Reverse => -1,
        }
    }
}

/// A target outside the soft limits; nothing was started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfRange {
    /// The refused target, in steps.
    pub target: i32,
}

#[derive(Debug, Clone, Copy)]
struct Motion {
    profile: Profile,
    track: Track,
    start: Micros,
    dir: Direction,
    /// Steps taken in this move.
    taken: u32,
    /// Absolute time of the next step; `None` once the move (as planned or stopped) is done.
    next: Option<Micros>,
}

impl Motion {
    fn schedule(&mut self) {
        self.next = self
            .profile
            .step_time(self.track, self.taken + 1)
            .map(|t| self.start + t);
    }
}

/// One joint's step generator.
#[derive(Debug, Clone)]
pub struct Stepper {
    position: i32,
    limits: Option<(i32, i32)>,
    motion: Option<Motion>,
}

impl Default for Stepper {
    fn default() -> Self {
        Self::new()
    }
}

impl Stepper {
    /// At step 0, no soft limits, standing still.
    pub const fn new() -> Stepper {
        Stepper {
            position: 0,
            limits: None,
            motion: None,
        }
    }

    /// Where the joint is, in steps.
    pub fn position(&self) -> i32 {
        self.position
    }

    /// Declares the current position to be `steps` (homing sets the zero this way).
    pub fn set_position(&mut self, steps: i32) {
        self.position = steps;
    }

    /// The soft limits, inclusive, in steps; `None` while the position is not known.
    pub fn limits(&self) -> Option<(i32, i32)> {
        self.limits
    }

    /// Sets or (with `None`) lifts the soft limits. Homing lifts them: until the switch is
    /// found the count means nothing.
    pub fn set_limits(&mut self, limits: Option<(i32, i32)>) {
        self.limits = limits;
    }

    /// Whether `target` lies within the soft limits (always, when there are none).
    pub fn allows(&self, target: i32) -> bool {
        self.limits
            .is_none_or(|(min, max)| (min..=max).contains(&target))
    }

    /// Moves alone to `target`, as fast as `max_rate` (steps/s) and `max_accel` (steps/s²)
    /// allow. Replaces any move in progress without braking: call it from a standstill.
    pub fn move_to(
        &mut self,
        target: i32,
        max_rate: u32,
        max_accel: u32,
        now: Micros,
    ) -> Result<(), OutOfRange> {
        let steps = target.abs_diff(self.position);
        let profile = Profile::plan(&[Demand {
            steps,
            max_rate,
            max_accel,
        }]);
        self.follow(profile, target, now)
    }

    /// Moves to `target` on a profile planned with the other joints of the move (its demand
    /// for this joint must have been `|target - position|` steps).
    pub fn follow(&mut self, profile: Profile, target: i32, now: Micros) -> Result<(), OutOfRange> {
        if !self.allows(target) {
            return Err(OutOfRange { target });
        }
        let steps = target.abs_diff(self.position);
        if steps == 0 {
            self.motion = None;
            return Ok(());
        }
        let dir = if target > self.position {
            Direction::Forward
        } else {
            Direction::Reverse
        };
        let mut m = Motion {
            profile,
            track: profile.track(steps),
            start: now,
            dir,
            taken: 0,
            next: None,
        };
        m.schedule();
        self.motion = m.next.is_some().then_some(m);
        Ok(())
    }

    /// Takes the next step if it is due at `now`, and says which way it went: the caller
    /// pulses the driver. At most one step per call.
    pub fn poll(&mut self, now: Micros) -> Option<Direction> {
        let m = self.motion.as_mut()?;
        if m.next? > now {
            return None;
        }
        let to = self.position + m.dir.sign();
        if let Some((min, max)) = self.limits {
            // Cannot happen for a checked target: a step that takes the joint beyond a soft
            // limit is never taken. (Steps back toward the range are: homing parks from the
            // switch, which lies outside it.)
            let beyond = match m.dir {
                Direction::Forward => to > max,
                Direction::Reverse => to < min,
            };
            if beyond {
                self.motion = None;
                return None;
            }
        }
        self.position = to;
        m.taken += 1;
        m.schedule();
        let dir = m.dir;
        if m.next.is_none() {
            self.motion = None;
        }
        Some(dir)
    }

    /// When the next step is due, if the joint is moving.
    pub fn next_step_at(&self) -> Option<Micros> {
        self.motion.and_then(|m| m.next)
    }

    /// Whether a move is in progress (braking included).
    pub fn is_moving(&self) -> bool {
        self.motion.is_some()
    }

    /// Which way the current move goes.
    pub fn direction(&self) -> Option<Direction> {
        self.motion.map(|m| m.dir)
    }

    /// The speed of the current move at `now`, steps per second (0 when still).
    pub fn rate(&self, now: Micros) -> u64 {
        self.motion.map_or(0, |m| {
            m.profile.rate_at(m.track, now.saturating_sub(m.start))
        })
    }

    /// Brakes at the move's own deceleration from `now`; the joint comes to rest short of the
    /// target.
    pub fn stop(&mut self, now: Micros) {
        if let Some(m) = self.motion.as_mut() {
            m.profile = m.profile.stopped_at(now.saturating_sub(m.start));
            m.schedule();
            if m.next.is_none() {
                self.motion = None;
            }
        }
    }

    /// Stops at once, without braking. At speed the rotor may overrun and lose steps: meant
    /// for alarms, and for the slow approach of homing.
    pub fn emergency_stop(&mut self) {
        self.motion = None;
    }
}

/// The step and direction inputs of an A4988-class driver.
///
/// GPIO on the microcontrollers considered cannot fail (their pins' error type is
/// `Infallible`); a pin that can fail, behind an I/O expander say, needs its own glue.
#[derive(Debug)]
pub struct StepDir<S, D> {
    step: S,
    dir: D,
    /// The motor is wired so that a high direction input turns the joint negative.
    invert: bool,
    last: Option<Direction>,
}

/// The A4988 wants the direction settled 200 ns before the step edge and the step input high
/// for at least 1 µs (and low as long); these leave margin for slow level shifters.
const DIR_SETUP_NS: u32 = 1_000;
const STEP_HIGH_NS: u32 = 2_000;

impl<S, D> StepDir<S, D>
where
    S: OutputPin<Error = Infallible>,
    D: OutputPin<Error = Infallible>,
{
    /// The pins; `invert` flips the direction input for a motor wired the other way round.
    pub fn new(step: S, dir: D, invert: bool) -> Self {
        StepDir {
            step,
            dir,
            invert,
            last: None,
        }
    }

    /// One step: sets the direction input if it changed (and waits for it to settle), then a
    /// step pulse.
    pub fn pulse(&mut self, dir: Direction, delay: &mut impl DelayNs) {
        if self.last != Some(dir) {
            let high = (dir == Direction::Forward) != self.invert;
            let Ok(()) = self.dir.set_state(high.into());
            delay.delay_ns(DIR_SETUP_NS);
            self.last = Some(dir);
        }
        let Ok(()) = self.step.set_high();
        delay.delay_ns(STEP_HIGH_NS);
        let Ok(()) = self.step.set_low();
    }

    /// The pins back.
    pub fn release(self) -> (S, D) {
        (self.step, self.dir)
    }
}
