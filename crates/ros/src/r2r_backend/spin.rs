//! The thread that spins a node. rcl hands nothing to r2r's futures and streams until
//! `spin_once` runs, and `spin_once` blocks, so it gets a thread of its own rather than a slot
//! on the caller's executor.
//!
//! The r2r node lives as long as anything made from it: r2r's publishers, clients and servers
//! hold only weak references into the node and fail once it is gone, whereas the default
//! backend's keep working after the `Node` is dropped. The thread stops when the last of them
//! is dropped.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::Duration;

use crate::error::RosError;

/// How long one `spin_once` waits for work: the longest a caller waits for the node.
const SPIN: Duration = Duration::from_millis(5);
/// How long the spinner stands aside when a caller waits for the node.
const STAND_ASIDE: Duration = Duration::from_millis(1);

pub(crate) struct Shared {
    node: Mutex<r2r::Node>,
    /// Callers waiting for the node. A mutex does not queue its waiters fairly, and the spinner
    /// takes the node again at once, so it lets them go first.
    waiting: AtomicUsize,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("r2r node")
    }
}

impl Shared {
    /// Runs `f` on the node (creating an endpoint, reading a name), between two spins.
    pub fn with<R>(&self, f: impl FnOnce(&mut r2r::Node) -> R) -> R {
        self.waiting.fetch_add(1, Ordering::AcqRel);
        let mut node = self.node.lock().unwrap_or_else(PoisonError::into_inner);
        self.waiting.fetch_sub(1, Ordering::AcqRel);
        f(&mut node)
    }
}

/// Starts spinning `node` on its own thread.
pub(crate) fn start(node: r2r::Node, fqn: &str) -> Result<Arc<Shared>, RosError> {
    let shared = Arc::new(Shared {
        node: Mutex::new(node),
        waiting: AtomicUsize::new(0),
    });
    let weak = Arc::downgrade(&shared);
    std::thread::Builder::new()
        .name("r2r-spin".into())
        .spawn(move || spin(&weak))
        .map_err(|e| RosError::Create {
            what: format!("spinner thread of {fqn}"),
            why: e.to_string(),
        })?;
    Ok(shared)
}

fn spin(weak: &Weak<Shared>) {
    while let Some(shared) = weak.upgrade() {
        if shared.waiting.load(Ordering::Acquire) > 0 {
            drop(shared);
            std::thread::sleep(STAND_ASIDE);
            continue;
        }
        shared
            .node
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .spin_once(SPIN);
    }
}
