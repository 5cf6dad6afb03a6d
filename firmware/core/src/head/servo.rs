//! A hobby servo without feedback (SG90 brows, MG996R neck): a commanded angle that moves
//! toward its target no faster than a rate limit, and the pulse width that commands it.
//!
//! The servo itself would jump to a new pulse as fast as it can; ramping the pulse instead
//! gives the slow, readable head movements the protocol's `speed` asks for, and keeps the
//! MG996Rs' current peaks off the supply the LED drivers share. Since nothing reports the real
//! horn angle, the ramped command is what `Status` shows.

use crate::Micros;

/// One servo's figures. Angles are centidegrees from the protocol's neutral.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServoConfig {
    /// Mechanical limits; targets are clamped to them.
    pub min: i16,
    /// Mechanical limits; targets are clamped to them.
    pub max: i16,
    /// Pulse width at the neutral angle, microseconds.
    pub neutral_us: u16,
    /// Pulse width change for +90 degrees, microseconds; negative for a servo mounted so that
    /// the protocol's positive is its negative. 1000 maps 0..180 degrees to 500..2500 us.
    pub us_per_90deg: i16,
    /// The fastest it is driven, centidegrees per second (also the speed for "0: as fast as
    /// the servos go").
    pub max_speed: u16,
}

/// Sub-centidegree resolution for the ramp, so slow speeds at fast ticks still move.
const MILLI: i32 = 1000;

/// A rate-limited servo.
#[derive(Debug, Clone, Copy)]
pub struct Servo {
    cfg: ServoConfig,
    /// Commanded angle, thousandths of a centidegree.
    at: i32,
    target: i16,
    speed: u16,
    last_tick: Option<Micros>,
}

impl Servo {
    /// At neutral (clamped into the limits), not moving.
    pub fn new(cfg: ServoConfig) -> Servo {
        let start = 0i16.clamp(cfg.min, cfg.max);
        Servo {
            cfg,
            at: i32::from(start) * MILLI,
            target: start,
            speed: cfg.max_speed,
            last_tick: None,
        }
    }

    /// Heads for `angle` (clamped) at `speed` centidegrees per second (0, or more than the
    /// servo's maximum: its maximum).
    pub fn set_target(&mut self, angle: i16, speed: u16) {
        self.target = angle.clamp(self.cfg.min, self.cfg.max);
        self.speed = if speed == 0 {
            self.cfg.max_speed
        } else {
            speed.min(self.cfg.max_speed)
        };
    }

    /// Moves the command toward the target for the time since the last tick.
    pub fn tick(&mut self, now: Micros) {
        // A gap longer than this is a stalled loop, not time the servo should catch up on.
        const MAX_GAP_US: Micros = 100_000;
        let dt = self
            .last_tick
            .map_or(0, |last| now.saturating_sub(last).min(MAX_GAP_US));
        self.last_tick = Some(now);
        let reach = (u64::from(self.speed) * dt * MILLI as u64 / 1_000_000) as i32;
        let goal = i32::from(self.target) * MILLI;
        self.at = if self.at < goal {
            (self.at + reach).min(goal)
        } else {
            (self.at - reach).max(goal)
        };
    }

    /// The commanded angle now, centidegrees (rounded).
    pub fn angle(&self) -> i16 {
        let half = if self.at >= 0 { MILLI / 2 } else { -MILLI / 2 };
        ((self.at + half) / MILLI) as i16
    }

    /// Where it is heading.
    pub fn target(&self) -> i16 {
        self.target
    }

    /// Whether it has yet to reach its target.
    pub fn moving(&self) -> bool {
        self.at != i32::from(self.target) * MILLI
    }

    /// The pulse width for the commanded angle, microseconds.
    pub fn pulse_us(&self) -> u16 {
        // (at / MILLI) centidegrees * us_per_90 / 9000, in one division to keep the resolution.
        let offset =
            i64::from(self.at) * i64::from(self.cfg.us_per_90deg) / (9_000 * i64::from(MILLI));
        (i64::from(self.cfg.neutral_us) + offset).clamp(0, i64::from(u16::MAX)) as u16
    }
}
