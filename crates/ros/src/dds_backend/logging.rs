//! Logging on the ros2-client backend: `tracing` events to stderr and, through ros2-client's
//! rosout writer, to `/rosout`, under the rules of `crate::logging`.

use std::cell::Cell;

use ros2_client::builtin_interfaces::Time;
use ros2_client::log::LogLevel;
use ros2_client::{NodeLoggingHandle, RosoutRaw};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::Layer;

use super::node::Node;
use crate::logging::{is_ours, level_for, message, stderr_filter};

thread_local! {
    /// Set while a line is being published: the publisher's own logs must not loop back.
    static PUBLISHING: Cell<bool> = const { Cell::new(false) };
}

/// Installs the process-wide logger for a node of the default backend. `RUST_LOG`, when set,
/// refines the stderr filter (e.g. `RUST_LOG=rustdds=debug`). Does nothing if a logger is
/// already installed.
pub fn init(node: &Node) {
    let level = level_for(node.args(), node.name());
    let stderr = node.args().stdout_logs.then(|| {
        tracing_subscriber::fmt::layer()
            .with_writer(std::io::stderr)
            .with_filter(stderr_filter(Some(level)))
    });
    let rosout = node.args().rosout_logs.then(|| RosoutLayer {
        handle: node.logging_handle(),
        name: logger_name(node),
        max: level,
    });
    // Fails only when a logger exists already (several nodes in one test process): keep it.
    let _ = tracing_subscriber::registry()
        .with(stderr)
        .with(rosout)
        .try_init();
}

/// rcl names a node's logger by its namespace and name joined with dots.
fn logger_name(node: &Node) -> String {
    let ns = node.namespace().trim_matches('/').replace('/', ".");
    if ns.is_empty() {
        node.name().to_string()
    } else {
        format!("{ns}.{}", node.name())
    }
}

struct RosoutLayer {
    handle: NodeLoggingHandle,
    name: String,
    max: Level,
}

impl<S: Subscriber> Layer<S> for RosoutLayer {
    fn on_event(&self, event: &Event<'_>, _ctx: Context<'_, S>) {
        let meta = event.metadata();
        // In tracing, more verbose levels compare greater.
        if *meta.level() > self.max || !is_ours(meta.target()) || PUBLISHING.with(Cell::get) {
            return;
        }
        let text = message(event);
        let level = match *meta.level() {
            Level::ERROR => LogLevel::Error,
            Level::WARN => LogLevel::Warn,
            Level::INFO => LogLevel::Info,
            _ => LogLevel::Debug,
        };
        PUBLISHING.with(|p| p.set(true));
        self.handle.rosout_raw(
            Time::now(),
            level,
            &self.name,
            &text,
            meta.file().unwrap_or(""),
            meta.module_path().unwrap_or(""),
            meta.line().unwrap_or(0),
        );
        PUBLISHING.with(|p| p.set(false));
    }
}
