//! Timing and sizing of a link. The defaults suit 115200 baud, where the longest frame takes
//! about 6 ms on the line; `docs/serial-protocol.md` gives the same numbers to firmware.

use std::time::Duration;

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
    /// Reliable messages waiting behind the one in flight; more are refused with
    /// [`crate::SendError::QueueFull`].
    pub max_queue: usize,
    /// Seed for the handshake nonces; `None` draws one from the process's random state. Tests
    /// set it to make runs repeatable.
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
            max_queue: 32,
            nonce_seed: None,
        }
    }
}
