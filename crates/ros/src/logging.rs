//! Logging for node code: `tracing` events go to stderr and to `/rosout` (as
//! `rcl_interfaces/msg/Log`), at the level `--ros-args --log-level` sets, so `ros2 topic echo
//! /rosout` and rqt_console show our nodes like any other.
//!
//! [`init`] is the installer of the backend in use (`dds_backend::logging`,
//! `r2r_backend::logging`); the level and filtering rules here are shared by both.

use std::fmt::Write as _;

use tracing::field::{Field, Visit};
use tracing::{Event, Level};
use tracing_subscriber::EnvFilter;

use crate::args::RosArgs;

/// Installs the process-wide logger for a node of the backend in use.
pub use crate::backend::logging::init;

/// The crates whose logs are the node's own: they log at the node's level and reach `/rosout`.
const OURS: [&str; 15] = [
    "ros",
    "ros_probe",
    "checkers_robot",
    "checkers_msgs",
    "draughts",
    "planner",
    "arm",
    "arbiter",
    "board_sensor",
    "expression",
    "sim",
    "serial_link",
    "web",
    "recording",
    "graph_client",
];

pub(crate) fn is_ours(target: &str) -> bool {
    let krate = target.split("::").next().unwrap_or(target);
    OURS.contains(&krate)
}

/// The stderr filter: `RUST_LOG` when set (and not empty), else dependencies at warn and our
/// crates at `ours` (`None` where our events reach the console another way).
pub(crate) fn stderr_filter(ours: Option<Level>) -> EnvFilter {
    let from_env = std::env::var("RUST_LOG")
        .ok()
        .filter(|v| !v.trim().is_empty())
        .and_then(|v| EnvFilter::try_new(v).ok());
    from_env.unwrap_or_else(|| match ours {
        Some(level) => EnvFilter::new(format!("warn,{}", crate_filter(level))),
        None => EnvFilter::new("warn"),
    })
}

/// Dependencies only warn, except the DDS layers' internals. RustDDS warns about peers that
/// have no locator (routine on a loopback-only graph) and, when a node shuts down, logs errors
/// about endpoints and multicast groups it tears down after the participant; ros2-client logs
/// that its spinner has already stopped. None of it is the user's business (`RUST_LOG` brings
/// it back). ros2-client's echo of each `/rosout` line is dropped.
fn crate_filter(level: Level) -> String {
    let l = level.as_str().to_ascii_lowercase();
    OURS.iter()
        .map(|c| format!("{c}={l}"))
        .chain([
            // A directive's target matches by prefix: `ros=info` above would let
            // ros2_client's internals through.
            "ros2_client=warn".into(),
            "rustdds=off".into(),
            "ros2_client::node=off".into(),
            "ros2_client::rosout=off".into(),
        ])
        .collect::<Vec<_>>()
        .join(",")
}

/// `--log-level NAME:=LEVEL` for this node wins over a bare `--log-level LEVEL`; rcl's default
/// is info. rcl's `fatal` has no tracing level: it is treated as error.
pub fn level_for(args: &RosArgs, node_name: &str) -> Level {
    let parse = |s: &str| match s.to_ascii_lowercase().as_str() {
        "debug" => Some(Level::DEBUG),
        "info" => Some(Level::INFO),
        "warn" | "warning" => Some(Level::WARN),
        "error" | "fatal" => Some(Level::ERROR),
        _ => None,
    };
    let specific = args
        .log_levels
        .iter()
        .rev()
        .find(|(n, _)| n.as_deref() == Some(node_name))
        .and_then(|(_, l)| parse(l));
    let general = args
        .log_levels
        .iter()
        .rev()
        .find(|(n, _)| n.is_none())
        .and_then(|(_, l)| parse(l));
    specific.or(general).unwrap_or(Level::INFO)
}

/// The event's message, then its other fields as `name=value`.
pub(crate) fn message(event: &Event<'_>) -> String {
    let mut text = Text::default();
    event.record(&mut text);
    text.0
}

#[derive(Default)]
struct Text(String);

impl Visit for Text {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            let rest = std::mem::take(&mut self.0);
            let _ = write!(self.0, "{value:?}");
            if !rest.is_empty() {
                self.0.push(' ');
                self.0.push_str(&rest);
            }
        } else {
            if !self.0.is_empty() {
                self.0.push(' ');
            }
            let _ = write!(self.0, "{}={value:?}", field.name());
        }
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.record_debug(field, &format_args!("{value}"));
        } else {
            self.record_debug(field, &value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(extra: &[&str]) -> RosArgs {
        let mut all = vec!["prog", "--ros-args"];
        all.extend_from_slice(extra);
        RosArgs::parse(all).expect("valid arguments")
    }

    #[test]
    fn a_node_specific_level_wins_over_the_general_one() {
        let a = args(&["--log-level", "warn", "--log-level", "arbiter:=debug"]);
        assert_eq!(level_for(&a, "arbiter"), Level::DEBUG);
        assert_eq!(level_for(&a, "planner"), Level::WARN);
    }

    #[test]
    fn only_our_crates_reach_rosout() {
        assert!(is_ours("arbiter::game_loop"));
        assert!(is_ours("ros"));
        assert!(!is_ours("rustdds::rtps::writer"));
        assert!(!is_ours("ros2_client::rosout"));
        assert!(!is_ours("log"));
    }

    #[test]
    fn a_dependency_s_info_lines_stay_out_of_the_terminal() {
        use std::sync::{Arc, Mutex};
        #[derive(Clone, Default)]
        struct Buffer(Arc<Mutex<Vec<u8>>>);
        impl std::io::Write for Buffer {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.lock().map_or(Ok(0), |mut v| {
                    v.extend_from_slice(b);
                    Ok(b.len())
                })
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let buffer = Buffer::default();
        let writer = buffer.clone();
        let filter = EnvFilter::new(format!("warn,{}", crate_filter(Level::INFO)));
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_env_filter(filter)
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            tracing::info!(target: "ros2_client::context", "Creating topic");
            tracing::info!(target: "ros::node", "ours at info");
            tracing::warn!(target: "ros2_client::context", "a dependency's warning");
        });
        let text = buffer
            .0
            .lock()
            .map(|v| String::from_utf8_lossy(&v).into_owned())
            .unwrap_or_default();
        assert!(!text.contains("Creating topic"), "{text}");
        assert!(text.contains("ours at info"), "{text}");
        assert!(text.contains("a dependency's warning"), "{text}");
    }

    #[test]
    fn the_default_is_info_and_fatal_counts_as_error() {
        assert_eq!(level_for(&args(&[]), "x"), Level::INFO);
        assert_eq!(
            level_for(&args(&["--log-level", "FATAL"]), "x"),
            Level::ERROR
        );
    }
}
