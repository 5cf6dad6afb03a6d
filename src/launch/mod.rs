//! The launch interpreter: reads the subset of ROS 2 XML launch files that the project's
//! launch files use (docs/launch.md), with their arguments, substitutions, includes, groups and
//! conditions, and gives each node of this package the command line `ros2 launch` would give
//! it. Nodes of other packages (robot_state_publisher, rviz2) come back as
//! [`Entry::Foreign`]. Starting and supervising the processes is the command line's part
//! (`checkers-robot launch`).

mod file;
mod load;
mod schema;
mod spec;
mod subst;

use std::path::{Path, PathBuf};

pub use file::LaunchError;
pub use load::Loader;
pub use spec::{shell_quote, Entry, NodeSpec};
pub use subst::SubstError;

/// The package whose share directory and executables this interpreter knows.
pub const PACKAGE: &str = "checkers_robot";

/// `$(find-pkg-share checkers_robot)`: the nearest directory at or above `start` whose
/// package.xml names the package (the repository root), else the source tree this library was
/// built from.
pub fn find_share(start: &Path) -> PathBuf {
    let start = std::path::absolute(start).unwrap_or_else(|_| start.to_path_buf());
    let needle = format!("<name>{PACKAGE}</name>");
    start
        .ancestors()
        .find(|d| std::fs::read_to_string(d.join("package.xml")).is_ok_and(|t| t.contains(&needle)))
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
}
