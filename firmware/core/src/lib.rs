//! The logic of the draughts robot's three controllers (arm, head, field): everything a
//! controller does that is neither a register nor the wire codec. `no_std`, no heap, no
//! `unsafe`; hardware is reached through embedded-hal 1.0 traits or the small traits here that
//! a board crate (or the simulator) implements.
//!
//! Time is a monotonic count of microseconds passed in by the caller; every part is a state
//! machine advanced by `tick(now)`, so the host tests run it with no hardware at all.
//!
//! # Example
//!
//! A joint's steps as a controller's loop takes them, with no hardware: each step at its due
//! time on a trapezoidal profile; and the field's Hall sensors debounced.
//!
//! ```
//! use firmware_core::field::Debouncer;
//! use firmware_core::stepper::Stepper;
//!
//! let mut joint = Stepper::new();
//! // To step 200 at up to 2000 steps/s and 20000 steps/s², from time 0.
//! joint.move_to(200, 2_000, 20_000, 0).expect("no soft limits are set");
//! let mut last = 0;
//! while let Some(due) = joint.next_step_at() {
//!     assert!(joint.poll(due).is_some(), "the caller pulses the driver here");
//!     last = due;
//! }
//! assert_eq!(joint.position(), 200);
//! assert!((100_000..300_000).contains(&last), "a fraction of a second: {last} µs");
//!
//! // A new reading must persist for 3 scans: a one-scan flicker is ignored.
//! let mut sensors = Debouncer::new(3);
//! sensors.update(0b0001);
//! assert_eq!(sensors.update(0b0011), 0);
//! assert_eq!(sensors.update(0b0001), 0);
//! let changed = [0b0101, 0b0101, 0b0101].map(|raw| sensors.update(raw));
//! assert_eq!(changed, [0, 0, 0b0100]);
//! assert_eq!(sensors.state(), 0b0101);
//! ```

#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod arm;
pub mod device;
pub mod field;
pub mod head;
pub mod profile;
pub mod stepper;

/// A monotonic time in microseconds (64 bits: it never wraps).
pub type Micros = u64;
