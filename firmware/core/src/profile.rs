//! The time law of a move: a trapezoidal velocity profile (triangular when the move is too
//! short to reach the top speed), shared by every joint that takes part, and the exact time of
//! each step under it.
//!
//! Every joint `i` of a move covering `n_i` steps follows the same normalised curve, so all of
//! them accelerate, cruise and brake at the same instants and take their last step at the same
//! microsecond; that is how `MoveJoints` makes the joints arrive together. A joint's speed and
//! acceleration are then its share of the longest move's, which is what its own limits are
//! checked against when the move is planned.
//!
//! To stay integer-only (no FPU on the intended microcontrollers, and no rounding drift), the
//! curve is written in "progress" `P`, in microseconds squared:
//!
//! ```text
//! accelerate  0  <= t <= t1:      P = t^2
//! cruise      t1 <= t <= t2:      P = 2 t1 t - t1^2
//! brake       t2 <= t <= t2 + t1: P = 2 t1 t2 - (t2 + t1 - t)^2
//! ```
//!
//! so the whole move covers `E = 2 t1 t2`. Joint `i` advances one step per `E / n_i` of
//! progress, and its step `k` is due when `P = k E / n_i`: in the ramps that is a square root,
//! while cruising a division. A step is taken when the ideal position reaches it (not half a
//! step earlier), so a joint is never ahead of the plan and every joint's last step falls
//! exactly at the end of the move.
//!
//! Stopping (decelerating) at `tau` is the same curve with `t2 = tau` (and `t1 = tau` when it
//! is still accelerating): the progress made so far is unchanged, so the steps already taken
//! stay valid and the remaining ones come later than planned, never sooner.

/// The longest a move may take, in microseconds of cruise-equivalent time (about 17.9 minutes).
/// It keeps every product below fit in 64 bits; a slower request is sped up to it.
pub const MAX_DURATION_US: u64 = 1 << 30;

/// What one joint asks of a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Demand {
    /// Steps to cover (the direction is the stepper's business).
    pub steps: u32,
    /// The most steps per second this joint may make in this move.
    pub max_rate: u32,
    /// The most steps per second squared this joint may accelerate.
    pub max_accel: u32,
}

/// A planned move's time law (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Profile {
    /// End of the acceleration, microseconds after the start.
    t1: u64,
    /// Start of the braking; the move ends at `t2 + t1`.
    t2: u64,
    /// Fixed-point fraction bits of the per-step progress, chosen when planning so that the
    /// whole move's progress still fits in 63 bits.
    shift: u32,
}

/// A joint's scale on a [`Profile`]: its progress per step, in fixed point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Track {
    per_step: u64,
}

impl Profile {
    /// A move that does not move.
    pub const STILL: Profile = Profile {
        t1: 0,
        t2: 0,
        shift: 0,
    };

    /// The fastest profile that keeps every joint within its rate and acceleration.
    pub fn plan(demands: &[Demand]) -> Profile {
        // t2 is the time the move would take at its top speed; t1 t2 bounds the acceleration.
        let mut t2: u128 = 0;
        let mut t1_t2: u128 = 0;
        for d in demands.iter().filter(|d| d.steps > 0) {
            let n = u128::from(d.steps);
            t2 = t2.max((n * 1_000_000).div_ceil(u128::from(d.max_rate.max(1))));
            t1_t2 = t1_t2.max((n * 1_000_000_000_000).div_ceil(u128::from(d.max_accel.max(1))));
        }
        if t2 == 0 {
            return Profile::STILL;
        }
        let limit = u128::from(MAX_DURATION_US);
        let mut t2 = t2.min(limit);
        let mut t1 = t1_t2.div_ceil(t2);
        if t1 > t2 {
            // Too short to reach the top speed: accelerate half way, brake the other half.
            let mut peak = t1_t2.isqrt();
            if peak * peak < t1_t2 {
                peak += 1;
            }
            t2 = peak.min(limit);
            t1 = t2;
        }
        // Both fit in 30 bits, so the casts are exact.
        Profile::with_times(t1 as u64, t2 as u64)
    }

    fn with_times(t1: u64, t2: u64) -> Profile {
        let total = 2 * t1 * t2;
        let bits = u64::BITS - total.leading_zeros();
        Profile {
            t1,
            t2,
            shift: 62u32.saturating_sub(bits),
        }
    }

    /// When the acceleration ends, microseconds after the start.
    pub fn accel_end(&self) -> u64 {
        self.t1
    }

    /// When the braking begins.
    pub fn brake_start(&self) -> u64 {
        self.t2
    }

    /// When the move ends: the last step of every joint falls here.
    pub fn end(&self) -> u64 {
        self.t2 + self.t1
    }

    /// The whole move's progress, microseconds squared.
    fn total(&self) -> u64 {
        2 * self.t1 * self.t2
    }

    /// The scale of a joint covering `steps` steps of this move. Plan first, then take the
    /// tracks: a stopped profile keeps its joints' tracks.
    pub fn track(&self, steps: u32) -> Track {
        let per_step = if steps == 0 {
            u64::MAX
        } else {
            // total << shift < 2^62: fits, and so does every k * per_step for k <= steps.
            ((u128::from(self.total()) << self.shift) / u128::from(steps)) as u64
        };
        Track { per_step }
    }

    /// When step `k` (1-based) of a joint on `track` is due, microseconds after the start, or
    /// `None` if the move (as planned or as stopped) never reaches it.
    pub fn step_time(&self, track: Track, k: u32) -> Option<u64> {
        let s = self.shift;
        let p = u64::from(k).checked_mul(track.per_step)?;
        let t1_sq = (self.t1 * self.t1) << s;
        let total = self.total() << s;
        if k == 0 || p > total || total == 0 {
            return None;
        }
        if p <= t1_sq {
            return Some(sqrt_fixed_ceil(p, s));
        }
        let brake_from = total - t1_sq;
        if p <= brake_from {
            // P = 2 t1 t - t1^2, solved for t; both terms are below 2^62.
            return Some((p + t1_sq).div_ceil(self.t1 << (s + 1)));
        }
        Some(self.end() - sqrt_fixed(total - p, s))
    }

    /// The same move, braking from `tau` microseconds after the start (no change if it is
    /// already braking).
    pub fn stopped_at(&self, tau: u64) -> Profile {
        if tau >= self.t2 {
            return *self;
        }
        Profile {
            t1: self.t1.min(tau),
            t2: tau,
            // Keep the shift: the joints' tracks were computed with it, and the progress only
            // shrinks, so everything still fits.
            shift: self.shift,
        }
    }

    /// A joint's speed at `t` microseconds after the start, in steps per second.
    pub fn rate_at(&self, track: Track, t: u64) -> u64 {
        if track.per_step == u64::MAX || self.t1 == 0 {
            return 0;
        }
        // dP/dt in µs, scaled like the track.
        let slope = if t <= self.t1 {
            2 * t
        } else if t <= self.t2 {
            2 * self.t1
        } else {
            2 * self.end().saturating_sub(t)
        };
        ((u128::from(slope) << self.shift) * 1_000_000 / u128::from(track.per_step)) as u64
    }
}

/// floor(sqrt(x / 2^s)), exactly, without losing the fraction bits first.
fn sqrt_fixed(x: u64, s: u32) -> u64 {
    (x >> (s & 1)).isqrt() >> (s / 2)
}

/// ceil(sqrt(x / 2^s)): a step is never due before the ideal position reaches it.
fn sqrt_fixed_ceil(x: u64, s: u32) -> u64 {
    let r = sqrt_fixed(x, s);
    if (r * r) << s < x {
        r + 1
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_point_square_root_is_exact() {
        for s in 0..20 {
            for x in [0u64, 1, 2, 3, 4, 15, 16, 17, 99, 100, 1_000_000] {
                assert_eq!(sqrt_fixed(x << s, s), x.isqrt(), "x {x} s {s}");
            }
        }
    }

    #[test]
    fn a_still_profile_has_no_steps() {
        let p = Profile::plan(&[Demand {
            steps: 0,
            max_rate: 1000,
            max_accel: 1000,
        }]);
        assert_eq!(p, Profile::STILL);
        assert_eq!(p.step_time(p.track(5), 1), None);
    }

    #[test]
    fn a_single_step_move_ends_on_time() {
        let p = Profile::plan(&[Demand {
            steps: 1,
            max_rate: 1000,
            max_accel: 1_000_000,
        }]);
        let t = p.track(1);
        assert_eq!(p.step_time(t, 1), Some(p.end()));
        assert_eq!(p.step_time(t, 2), None);
    }
}
