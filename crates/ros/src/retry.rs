//! Resending a request that is safe to repeat, shared by both backends' service clients.

use std::future::Future;
use std::time::Duration;

use crate::error::RosError;

/// Runs `call` up to `attempts` times in all until it succeeds. A request out of bounds is not
/// resent: it would fail the same way.
pub(crate) async fn retrying<T, F, Fut>(
    name: &str,
    timeout_per_attempt: Duration,
    attempts: u32,
    mut call: F,
) -> Result<T, RosError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, RosError>>,
{
    let mut last = None;
    for attempt in 1..=attempts.max(1) {
        match call().await {
            Ok(r) => return Ok(r),
            Err(e @ RosError::Bounds { .. }) => return Err(e),
            Err(e) => {
                tracing::debug!(service = %name, attempt, "{e}");
                last = Some(e);
            }
        }
    }
    Err(last.unwrap_or(RosError::Timeout {
        name: name.to_string(),
        after: timeout_per_attempt,
    }))
}
