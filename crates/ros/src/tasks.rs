//! The background tasks that hold a node's DDS entities (its spinner, an action server's cancel
//! answerer, a result waiting to be picked up, the node's own loops), and the order a node ends
//! in: those tasks and their readers and writers first, then the participant, all before the
//! runtime. A task left to the runtime's teardown is dropped after the participant: RustDDS can
//! then no longer remove its readers and writers ("Cannot remove Writer GUID"), and peers keep
//! them until the discovery lease runs out.

use std::any::Any;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::task::JoinSet;

/// A node's background tasks; clones share them.
#[derive(Clone, Default)]
pub struct Tasks {
    tasks: Arc<Mutex<JoinSet<()>>>,
    /// Stopped after the others: the node's spinner, which the node (perhaps held by one of
    /// the others) tells to stop as it drops.
    last: Arc<Mutex<JoinSet<()>>>,
}

impl std::fmt::Debug for Tasks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Tasks({})",
            lock(&self.tasks).len() + lock(&self.last).len()
        )
    }
}

fn lock(set: &Mutex<JoinSet<()>>) -> MutexGuard<'_, JoinSet<()>> {
    set.lock().unwrap_or_else(|p| p.into_inner())
}

fn spawn_into(set: &Mutex<JoinSet<()>>, task: impl Future<Output = ()> + Send + 'static) {
    let mut set = lock(set);
    // Finished tasks are reaped here, so a long-lived node's set does not grow.
    while set.try_join_next().is_some() {}
    set.spawn(task);
}

/// Aborts every task of `set` and waits until each has been dropped; again for any that a
/// dropped task spawned meanwhile.
async fn stop(set: &Mutex<JoinSet<()>>) {
    loop {
        let mut taken = std::mem::take(&mut *lock(set));
        if taken.is_empty() {
            return;
        }
        taken.abort_all();
        while taken.join_next().await.is_some() {}
    }
}

impl Tasks {
    /// Runs `task` on the current tokio runtime until it ends or the node is closed.
    pub fn spawn(&self, task: impl Future<Output = ()> + Send + 'static) {
        spawn_into(&self.tasks, task);
    }

    /// As [`spawn`](Self::spawn), but stopped after all the others.
    pub(crate) fn spawn_last(&self, task: impl Future<Output = ()> + Send + 'static) {
        spawn_into(&self.last, task);
    }

    async fn stop(&self) {
        stop(&self.tasks).await;
        stop(&self.last).await;
    }
}

/// Ends a node in order once its main loop is gone: taken from the node (`Node::closer`)
/// before the node moves into the loop, and closed after the loop and the node are dropped.
pub struct Closer {
    tasks: Tasks,
    /// What keeps the participant alive until the tasks are gone.
    participant: Box<dyn Any + Send>,
}

impl std::fmt::Debug for Closer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Closer")
            .field("tasks", &self.tasks)
            .finish()
    }
}

impl Closer {
    pub(crate) fn new(tasks: Tasks, participant: Box<dyn Any + Send>) -> Closer {
        Closer { tasks, participant }
    }

    /// Stops the tasks (their readers and writers are removed), then lets the participant go.
    pub async fn close(self) {
        self.tasks.stop().await;
        drop(self.participant);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Counts its drops, as a reader or writer would be removed.
    struct Entity(Arc<AtomicUsize>);

    impl Drop for Entity {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[tokio::test]
    async fn close_drops_every_task_before_the_participant() {
        let dropped = Arc::new(AtomicUsize::new(0));
        let tasks = Tasks::default();
        for _ in 0..3 {
            let e = Entity(Arc::clone(&dropped));
            tasks.spawn(async move {
                let _held = e;
                std::future::pending::<()>().await;
            });
        }
        tasks.spawn(async {});
        let e = Entity(Arc::clone(&dropped));
        tasks.spawn_last(async move {
            let _held = e;
            std::future::pending::<()>().await;
        });
        struct Participant(Arc<AtomicUsize>, Arc<AtomicUsize>);
        impl Drop for Participant {
            fn drop(&mut self) {
                // Every entity is gone when the participant goes.
                self.1
                    .store(self.0.load(Ordering::SeqCst), Ordering::SeqCst);
            }
        }
        let seen = Arc::new(AtomicUsize::new(usize::MAX));
        let closer = Closer::new(
            tasks.clone(),
            Box::new(Participant(Arc::clone(&dropped), Arc::clone(&seen))),
        );
        closer.close().await;
        assert_eq!(dropped.load(Ordering::SeqCst), 4);
        assert_eq!(seen.load(Ordering::SeqCst), 4);
    }
}
