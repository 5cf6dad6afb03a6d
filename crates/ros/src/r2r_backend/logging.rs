//! Logging on the r2r backend: our crates' `tracing` events go through rcutils under the node's
//! logger, so rcl prints them and writes them to its log file (and honours
//! `--disable-stdout-logs` itself). r2r never configures rcl's logging, so rcl does not publish
//! them on `/rosout`: this layer does, as rclcpp's nodes would (unless
//! `--disable-rosout-logs`). Dependencies' events go to stderr only.

use tracing::{Event, Level, Subscriber};
use tracing_subscriber::filter::filter_fn;
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::Layer;

use checkers_msgs::rcl_interfaces::msg::Log;

use super::node::Node;
use super::pubsub::Publisher;
use crate::logging::{is_ours, level_for, message, stderr_filter};
use crate::qos::Qos;

/// Installs the process-wide logger for `node`. `RUST_LOG`, when set, refines the stderr
/// filter of the dependencies. Does nothing if a logger is already installed.
pub fn init(node: &Node) {
    let stderr = node.args().stdout_logs.then(|| {
        tracing_subscriber::fmt::layer()
            .with_writer(std::io::stderr)
            .with_filter(stderr_filter(None))
            // rcutils prints ours already.
            .with_filter(filter_fn(|meta| !is_ours(meta.target())))
    });
    let rosout = if node.args().rosout_logs {
        match node.shared_publisher::<Log>("/rosout", Qos::State) {
            Ok(p) => Some(p),
            Err(e) => {
                eprintln!("no /rosout for {}: {e}", node.name());
                None
            }
        }
    } else {
        None
    };
    let rcl = RclLayer {
        logger: node.logger().to_string(),
        max: level_for(node.args(), node.name()),
        rosout,
    };
    // Fails only when a logger exists already (several nodes in one process): keep it.
    let _ = tracing_subscriber::registry()
        .with(stderr)
        .with(rcl)
        .try_init();
}

struct RclLayer {
    logger: String,
    max: Level,
    rosout: Option<Publisher<Log>>,
}

impl<S: Subscriber> Layer<S> for RclLayer {
    fn on_event(&self, event: &Event<'_>, _ctx: Context<'_, S>) {
        let meta = event.metadata();
        // In tracing, more verbose levels compare greater.
        if *meta.level() > self.max || !is_ours(meta.target()) {
            return;
        }
        let severity = match *meta.level() {
            Level::ERROR => r2r::LogSeverity::Error,
            Level::WARN => r2r::LogSeverity::Warn,
            Level::INFO => r2r::LogSeverity::Info,
            _ => r2r::LogSeverity::Debug,
        };
        // r2r hands the text to C, and panics on a NUL byte.
        let text = message(event).replace('\0', "\u{fffd}");
        let file = meta.file().unwrap_or("").replace('\0', "");
        // r2r's `log_*!` macros would stamp every line with this file and line: its function
        // takes the event's own.
        r2r::log(
            &text,
            &self.logger,
            &file,
            meta.line().unwrap_or(0),
            severity,
        );
        if let Some(rosout) = &self.rosout {
            let level = match *meta.level() {
                Level::ERROR => Log::ERROR,
                Level::WARN => Log::WARN,
                Level::INFO => Log::INFO,
                _ => Log::DEBUG,
            };
            let line = Log {
                stamp: crate::clock::system_now(),
                level,
                name: self.logger.clone(),
                msg: text,
                file,
                function: String::new(),
                line: meta.line().unwrap_or(0),
            };
            // A line that cannot go out is still on stderr and in rcl's log file.
            let _ = rosout.publish_now(line);
        }
    }
}
