//! The logic of the draughts robot's three controllers (arm, head, field): everything a
//! controller does that is neither a register nor the wire codec. `no_std`, no heap, no
//! `unsafe`; hardware is reached through embedded-hal 1.0 traits or the small traits here that
//! a board crate (or the simulator) implements.
//!
//! Time is a monotonic count of microseconds passed in by the caller; every part is a state
//! machine advanced by `tick(now)`, so the host tests run it with no hardware at all.

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
