//! The link's notion of time. On a computer it is `std::time::Instant`; on a controller, a
//! free-running microsecond count ([`Micros`]) from the board's monotonic timer. The link only
//! adds durations and compares, so either serves.

use core::fmt::Debug;
use core::time::Duration;

/// A point on a monotonic clock.
pub trait Timestamp: Copy + Ord + Debug {
    /// This time plus `d`.
    fn after(self, d: Duration) -> Self;
    /// How long after `earlier` this is; zero if it is not after it.
    fn since(self, earlier: Self) -> Duration;
}

#[cfg(feature = "std")]
impl Timestamp for std::time::Instant {
    fn after(self, d: Duration) -> Self {
        self + d
    }

    fn since(self, earlier: Self) -> Duration {
        self.saturating_duration_since(earlier)
    }
}

/// Microseconds since a controller started: 64 bits never wrap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Micros(pub u64);

impl Timestamp for Micros {
    fn after(self, d: Duration) -> Self {
        // Not `as_micros`: its u128 arithmetic is a chain of library calls on a Cortex-M0+,
        // and the link asks this several times per main-loop turn.
        let us = d
            .as_secs()
            .saturating_mul(1_000_000)
            .saturating_add(u64::from(d.subsec_micros()));
        Micros(self.0.saturating_add(us))
    }

    fn since(self, earlier: Self) -> Duration {
        Duration::from_micros(self.0.saturating_sub(earlier.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn micros_add_and_subtract_without_wrapping() {
        let t = Micros(1_000);
        assert_eq!(t.after(Duration::from_millis(2)), Micros(3_000));
        assert_eq!(Micros(3_000).since(t), Duration::from_millis(2));
        assert_eq!(t.since(Micros(3_000)), Duration::ZERO);
        assert_eq!(
            Micros(u64::MAX).after(Duration::from_secs(1)),
            Micros(u64::MAX)
        );
    }
}
