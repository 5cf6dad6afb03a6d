//! Joint-space trajectories: straight lines between waypoints, each timed by a time-optimal
//! trapezoidal profile under every joint's velocity and acceleration limit, the joints
//! synchronised so they start and stop together (the Dobot's point-to-point mode).
//!
//! A straight joint-space line between two poses inside the limits stays inside them: the
//! box limits and the coupled J3 - J2 band are both convex.

use nalgebra::Vector3;

use crate::config::Limits;
use crate::joints::Joints;

/// One rest-to-rest motion: q(t) = from + (to - from) s(t), s a trapezoid in 0..1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    pub from: Joints,
    pub to: Joints,
    /// Peak ds/dt and |d²s/dt²| of the path parameter.
    peak_rate: f64,
    accel: f64,
    /// Time spent accelerating (and, mirrored, decelerating), and at the peak rate.
    t_accel: f64,
    t_cruise: f64,
}

impl Segment {
    /// The fastest synchronised motion from `from` to `to` under `limits`.
    pub fn new(from: Joints, to: Joints, limits: &Limits) -> Segment {
        let d = to.0 - from.0;
        // The path parameter's limits are the tightest joint's, scaled by how far it moves.
        let (mut rate, mut accel) = (f64::INFINITY, f64::INFINITY);
        for i in 0..3 {
            let di = d[i].abs();
            if di > 0.0 {
                rate = rate.min(limits.velocity[i] / di);
                accel = accel.min(limits.acceleration[i] / di);
            }
        }
        if !rate.is_finite() {
            return Segment {
                from,
                to,
                peak_rate: 0.0,
                accel: 0.0,
                t_accel: 0.0,
                t_cruise: 0.0,
            };
        }
        // Triangular when the peak rate cannot be reached within half the path.
        let (peak_rate, t_accel, t_cruise) = if rate * rate / accel >= 1.0 {
            let t = (1.0 / accel).sqrt();
            (accel * t, t, 0.0)
        } else {
            let t = rate / accel;
            (rate, t, (1.0 - rate * t) / rate)
        };
        Segment {
            from,
            to,
            peak_rate,
            accel,
            t_accel,
            t_cruise,
        }
    }

    pub fn duration(&self) -> f64 {
        2.0 * self.t_accel + self.t_cruise
    }

    /// s, ds/dt, d²s/dt² at `t` (clamped to the segment).
    fn path(&self, t: f64) -> (f64, f64, f64) {
        let total = self.duration();
        if total == 0.0 {
            return (1.0, 0.0, 0.0);
        }
        let t = t.clamp(0.0, total);
        let (a, ta) = (self.accel, self.t_accel);
        if t < ta {
            (0.5 * a * t * t, a * t, a)
        } else if t <= ta + self.t_cruise {
            (
                0.5 * a * ta * ta + self.peak_rate * (t - ta),
                self.peak_rate,
                0.0,
            )
        } else {
            let left = total - t;
            (1.0 - 0.5 * a * left * left, a * left, -a)
        }
    }

    /// Position, velocity and acceleration of the joints `t` seconds into the segment.
    pub fn sample(&self, t: f64) -> (Joints, Vector3<f64>, Vector3<f64>) {
        let (s, ds, dds) = self.path(t);
        let d = self.to.0 - self.from.0;
        let q = if s >= 1.0 {
            self.to
        } else {
            Joints(self.from.0 + d * s)
        };
        (q, d * ds, d * dds)
    }
}

/// A piece of a trajectory: a motion, or holding still (a pump dwell).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Piece {
    Move(Segment),
    Hold { at: Joints, seconds: f64 },
}

impl Piece {
    pub fn duration(&self) -> f64 {
        match self {
            Piece::Move(s) => s.duration(),
            Piece::Hold { seconds, .. } => *seconds,
        }
    }
}

/// The state of the arm at one instant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    pub t: f64,
    pub q: Joints,
    pub qd: Vector3<f64>,
    pub qdd: Vector3<f64>,
    pub pump_on: bool,
}

/// Pieces laid end to end, with the pump switched at given times.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Trajectory {
    /// (start time, piece), in time order.
    pieces: Vec<(f64, Piece)>,
    /// (time, on), in time order.
    pump: Vec<(f64, bool)>,
    duration: f64,
    start: Joints,
}

impl Trajectory {
    pub fn new(start: Joints) -> Trajectory {
        Trajectory {
            start,
            ..Trajectory::default()
        }
    }

    pub fn push(&mut self, piece: Piece) {
        self.pieces.push((self.duration, piece));
        self.duration += piece.duration();
    }

    /// Switch the pump now (at the current end of the trajectory).
    pub fn pump(&mut self, on: bool) {
        self.pump.push((self.duration, on));
    }

    pub fn duration(&self) -> f64 {
        self.duration
    }

    pub fn pieces(&self) -> &[(f64, Piece)] {
        &self.pieces
    }

    /// The arm at time `t` (clamped to the trajectory).
    pub fn sample(&self, t: f64) -> Sample {
        let t = t.clamp(0.0, self.duration);
        let pump_on = self
            .pump
            .iter()
            .take_while(|(at, _)| *at <= t)
            .last()
            .is_some_and(|(_, on)| *on);
        // The last piece starting at or before t; a zero-length piece never owns an instant.
        let idx = self
            .pieces
            .partition_point(|(start, _)| *start <= t)
            .saturating_sub(1);
        let zero = Vector3::zeros();
        let (q, qd, qdd) = match self.pieces.get(idx) {
            None => (self.start, zero, zero),
            Some((start, Piece::Move(seg))) => seg.sample(t - start),
            Some((_, Piece::Hold { at, .. })) => (*at, zero, zero),
        };
        Sample {
            t,
            q,
            qd,
            qdd,
            pump_on,
        }
    }

    /// Samples every `period` seconds from 0, the end included.
    pub fn samples(&self, period: f64) -> Vec<Sample> {
        let n = if period > 0.0 {
            (self.duration / period).ceil() as usize
        } else {
            0
        };
        (0..=n)
            .map(|i| self.sample((i as f64 * period).min(self.duration)))
            .collect()
    }
}
