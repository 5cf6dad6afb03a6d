//! Timing and sizing of a link. The defaults suit 115200 baud, where the longest frame takes
//! about 6 ms on the line; `docs/serial-protocol.md` gives the same numbers to firmware.

use core::time::Duration;

/// The most reliable messages a link can hold behind the one in flight: the buffer a link
/// reserves (in RAM, without a heap). The default queue uses all of it.
pub const MAX_QUEUE: usize = 32;

/// Timing and sizing of a [`crate::Link`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkConfig {
    /// How long a reliable frame waits for its acknowledgement before it is sent again.
    pub ack_timeout: Duration,
    /// How many times a reliable frame is sent again before the session is declared lost.
    pub max_retries: u8,
    /// How often the host repeats `Hello` while it has no session.
    pub hello_interval: Duration,
    /// How long the host waits before trying again with a controller that answered with another
    /// protocol version or kind.
    pub incompatible_retry: Duration,
    /// The host sends `Ping` when it has sent nothing, or heard nothing, for this long.
    pub keepalive_interval: Duration,
    /// A session ends when nothing valid has been heard from the peer for this long.
    pub peer_timeout: Duration,
    /// Reliable messages waiting behind the one in flight, at most [`MAX_QUEUE`]; more are
    /// refused with [`crate::SendError::QueueFull`].
    pub max_queue: usize,
    /// Seed for the handshake nonces; `None` draws one from the process's random state (with
    /// `std`; a controller should pass something that differs between power-ups, such as a
    /// timer read after the first byte arrives). Tests set it to make runs repeatable.
    pub nonce_seed: Option<u64>,
}

impl Default for LinkConfig {
    fn default() -> Self {
        Self {
            ack_timeout: Duration::from_millis(100),
            max_retries: 5,
            hello_interval: Duration::from_millis(200),
            incompatible_retry: Duration::from_secs(2),
            keepalive_interval: Duration::from_millis(250),
            peer_timeout: Duration::from_secs(1),
            max_queue: MAX_QUEUE,
            nonce_seed: None,
        }
    }
}
