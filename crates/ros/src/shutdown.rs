//! Stopping on Ctrl-C or SIGTERM (what `ros2 launch` and our launcher send) by returning, so
//! that the node is dropped: its participant then tells the graph it is gone. A node that dies
//! of the signal instead stays in every rcl graph cache (the ros2 daemon, rviz) until its
//! discovery lease runs out, and a restarted graph is listed twice meanwhile.

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

/// Runs a node's main loop until it ends or a shutdown signal comes; on the signal the loop,
/// and the node it owns, are dropped before this returns.
pub async fn until_shutdown<E>(
    name: &str,
    main: impl Future<Output = Result<(), E>>,
) -> Result<(), E> {
    tokio::select! {
        r = main => r,
        _ = shutdown_signal() => {
            tracing::info!("{name} stopping");
            Ok(())
        }
    }
}
