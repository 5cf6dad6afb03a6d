//! A running goal's cancel request, from the backend that hears it to the code executing the
//! goal: a flag for CPU-bound work that polls, and a watch for async work that awaits.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tokio::sync::watch;

/// The two ends of one goal's cancel request, not yet raised.
pub(crate) fn cancel_request() -> (CancelRequest, CancelWatch) {
    let flag = Arc::new(AtomicBool::new(false));
    let (tx, rx) = watch::channel(false);
    (
        CancelRequest {
            flag: Arc::clone(&flag),
            tx,
        },
        CancelWatch { flag, rx },
    )
}

/// The backend's end: raised when the client cancels the goal.
#[derive(Debug)]
pub struct CancelRequest {
    flag: Arc<AtomicBool>,
    tx: watch::Sender<bool>,
}

impl CancelRequest {
    /// Tells the goal's executor, however it listens.
    pub(crate) fn raise(&self) {
        self.flag.store(true, Ordering::Release);
        self.tx.send_replace(true);
    }

    /// The flag the request raises, for a backend that must tell later whether it was.
    #[cfg_attr(not(feature = "r2r"), allow(dead_code))]
    pub(crate) fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.flag)
    }

    /// Resolves once the goal has ended (its executor's end is gone).
    #[cfg_attr(not(feature = "r2r"), allow(dead_code))]
    pub(crate) async fn goal_ended(&self) {
        self.tx.closed().await;
    }
}

/// The executor's end, held by the running goal.
#[derive(Debug)]
pub(crate) struct CancelWatch {
    flag: Arc<AtomicBool>,
    rx: watch::Receiver<bool>,
}

impl CancelWatch {
    pub(crate) fn is_raised(&self) -> bool {
        self.flag.load(Ordering::Acquire)
    }

    pub(crate) fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.flag)
    }

    /// Resolves when the request is raised (at once if it already has been).
    pub(crate) async fn raised(&mut self) {
        // An error means the backend's end is gone (its server or cancel task with it): then no
        // cancel will ever come.
        if self.rx.wait_for(|c| *c).await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn a_raised_request_reaches_both_the_flag_and_the_watch() {
        let (request, mut watch) = cancel_request();
        let flag = watch.flag();
        assert!(!watch.is_raised() && !flag.load(Ordering::Acquire));
        request.raise();
        assert!(watch.is_raised() && flag.load(Ordering::Acquire));
        tokio::time::timeout(Duration::from_secs(1), watch.raised())
            .await
            .expect("a raised request resolves at once");
    }

    #[tokio::test]
    async fn a_gone_backend_never_raises_and_a_gone_goal_is_seen() {
        let (request, mut watch) = cancel_request();
        drop(request);
        let waited = tokio::time::timeout(Duration::from_millis(50), watch.raised()).await;
        assert!(
            waited.is_err(),
            "no cancel can come once the backend's end is gone"
        );

        let (request, watch) = cancel_request();
        drop(watch);
        tokio::time::timeout(Duration::from_secs(1), request.goal_ended())
            .await
            .expect("the goal's end is seen at once");
    }
}
