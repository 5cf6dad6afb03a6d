//! Stopping on Ctrl-C or SIGTERM (what `ros2 launch` and our launcher send) by returning, so
//! that the node is dropped: its participant then tells the graph it is gone (see
//! [`crate::tasks`] for the order). A node that dies of the signal instead stays in every rcl
//! graph cache (the ros2 daemon, rviz) until its discovery lease runs out, and a restarted
//! graph is listed twice meanwhile.

use std::future::Future;

/// Resolves on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Runs a node's main loop until it ends or a shutdown signal comes, then ends the node in
/// order: the loop and what it owns (the node, its readers and writers) are dropped, then the
/// node's background tasks, then its participant, all before this returns and the runtime goes.
pub async fn until_shutdown<E, F>(
    name: &str,
    node: crate::Node,
    main: impl FnOnce(crate::Node) -> F,
) -> Result<(), E>
where
    F: Future<Output = Result<(), E>>,
{
    let closer = node.closer();
    let r = tokio::select! {
        r = main(node) => r,
        _ = shutdown_signal() => {
            tracing::info!("{name} stopping");
            Ok(())
        }
    };
    closer.close().await;
    r
}
