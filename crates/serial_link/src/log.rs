//! Logging that is there with `std` (through `tracing`) and compiles away without it, so the
//! link reads the same on a computer and on a controller.

#[cfg(feature = "std")]
pub(crate) use tracing::{debug, info, trace, warn};

#[cfg(not(feature = "std"))]
macro_rules! no_log {
    ($($t:tt)*) => {
        ()
    };
}

#[cfg(not(feature = "std"))]
pub(crate) use {no_log as debug, no_log as info, no_log as trace, no_log as warn};
