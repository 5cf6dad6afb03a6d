//! The library behind the `checkers-robot` command, for the command and for the tests alike:
//! - [`launch`]: the interpreter of the project's ROS 2 XML launch files;
//! - [`graph`]: a client of the running robot graph, and the simulated robot launched as child
//!   processes, which `play`, `watch`, `soak` and the whole-graph tests drive;
//! - [`node_table`]: the robot's nodes, their executables' names and what runs each.
//!
//! The rules, the planners and the nodes live in their own crates (`crates/`, `nodes/`).
//!
//! # Example
//!
//! What `checkers-robot launch launch/sim.launch.xml difficulty:=hard` would start: the
//! shipped launch file evaluated, each node of this package with its command line, each one
//! the `checkers-robot` executable runs.
//!
//! ```
//! use std::collections::HashMap;
//! use std::path::Path;
//!
//! use checkers_robot::launch::{Entry, Loader};
//! use checkers_robot::node_table;
//!
//! let share = Path::new(env!("CARGO_MANIFEST_DIR"));
//! let args = ["difficulty:=hard".to_string()];
//! let entries = Loader::new(share, &args, HashMap::new())?
//!     .load(&share.join("launch/sim.launch.xml"))?;
//! let nodes: Vec<_> = entries
//!     .iter()
//!     .filter_map(|e| match e {
//!         Entry::Node(n) => Some(n),
//!         Entry::Foreign { .. } => None,
//!     })
//!     .collect();
//! assert_eq!(nodes[0].exec, "sim_node");
//! assert!(nodes.iter().all(|n| node_table::find(&n.exec).is_some()));
//! let planner = nodes.iter().find(|n| n.exec == "planner_node").ok_or("no planner")?;
//! assert!(planner.params_files[0].ends_with("config/difficulty/hard.yaml"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod graph;
pub mod launch;
pub mod node_table;
