//! The thread that spins a node. rcl hands nothing to r2r's futures and streams until
//! `spin_once` runs, and `spin_once` blocks, so it gets a thread of its own rather than a slot
//! on the caller's executor.
//!
//! The r2r node lives as long as anything made from it: r2r's publishers, clients and servers
//! hold only weak references into the node and fail once it is gone, whereas the default
//! backend's keep working after the `Node` is dropped. When the last of them is dropped, the
//! thread is stopped and joined, and the node is destroyed on the thread that dropped it, never
//! on the spinner's: a spinner destroying the node while `main` had already returned and the
//! process was running its exit handlers crashed inside rmw_fastrtps_cpp (a segfault in
//! `rcl_service_fini`, at the end of every run on Fast DDS).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::error::RosError;

/// How long one `spin_once` waits for work: the longest a caller waits for the node.
const SPIN: Duration = Duration::from_millis(5);
/// How long the spinner stands aside when a caller waits for the node.
const STAND_ASIDE: Duration = Duration::from_millis(1);

/// The node and its spinner, shared by everything made from it.
pub(crate) struct Shared {
    inner: Arc<Inner>,
    spinner: Mutex<Option<JoinHandle<()>>>,
}

struct Inner {
    node: Mutex<r2r::Node>,
    /// Callers waiting for the node. A mutex does not queue its waiters fairly, and the spinner
    /// takes the node again at once, so it lets them go first.
    waiting: AtomicUsize,
    stop: AtomicBool,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("r2r node")
    }
}

impl Shared {
    /// Runs `f` on the node (creating an endpoint, reading a name), between two spins.
    pub fn with<R>(&self, f: impl FnOnce(&mut r2r::Node) -> R) -> R {
        self.inner.waiting.fetch_add(1, Ordering::AcqRel);
        let mut node = self
            .inner
            .node
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        self.inner.waiting.fetch_sub(1, Ordering::AcqRel);
        f(&mut node)
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        self.inner.stop.store(true, Ordering::Release);
        let spinner = self
            .spinner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(spinner) = spinner {
            if spinner.thread().id() != std::thread::current().id() {
                let _ = spinner.join();
            }
        }
        // `inner` goes next, and with it the node: the spinner's reference is gone.
    }
}

/// Starts spinning `node` on its own thread.
pub(crate) fn start(node: r2r::Node, fqn: &str) -> Result<Arc<Shared>, RosError> {
    let inner = Arc::new(Inner {
        node: Mutex::new(node),
        waiting: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
    });
    let theirs = Arc::clone(&inner);
    let spinner = std::thread::Builder::new()
        .name("r2r-spin".into())
        .spawn(move || spin(&theirs))
        .map_err(|e| RosError::Create {
            what: format!("spinner thread of {fqn}"),
            why: e.to_string(),
        })?;
    Ok(Arc::new(Shared {
        inner,
        spinner: Mutex::new(Some(spinner)),
    }))
}

fn spin(inner: &Inner) {
    while !inner.stop.load(Ordering::Acquire) {
        if inner.waiting.load(Ordering::Acquire) > 0 {
            std::thread::sleep(STAND_ASIDE);
            continue;
        }
        inner
            .node
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .spin_once(SPIN);
    }
}
