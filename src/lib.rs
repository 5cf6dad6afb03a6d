//! The library behind the `checkers-robot` command, for the command and for the tests alike:
//! - [`launch`]: the interpreter of the project's ROS 2 XML launch files;
//! - [`graph`]: a client of the running robot graph, and the simulated robot launched as child
//!   processes, which `play`, `watch`, `soak` and the whole-graph tests drive;
//! - [`node_table`]: the robot's nodes, their executables' names and what runs each.
//!
//! The rules, the planners and the nodes live in their own crates (`crates/`, `nodes/`).

pub mod graph;
pub mod launch;
pub mod node_table;
