//! The nodes' entry points. `ros2 run checkers_robot arbiter_node` and the launch files name
//! each node by its own executable; all of them live in the one `checkers-robot` executable
//! (`checkers-robot node arbiter_node ...`), and each entry point replaces itself with that,
//! keeping its process id, so signals and `ros2 launch`'s bookkeeping reach the node itself.
//!
//! # Example
//!
//! The command an entry point becomes: `checkers-robot` beside it, the node's name, then the
//! entry point's own arguments.
//!
//! ```
//! use std::ffi::OsString;
//! use std::path::Path;
//!
//! let entry = Path::new("/opt/robot/bin/arbiter_node");
//! let args = ["--ros-args", "-p", "level:=3"].map(OsString::from);
//! let cmd = node_exec::command(entry, "arbiter_node", args);
//! assert_eq!(cmd.get_program(), "/opt/robot/bin/checkers-robot");
//! let argv: Vec<_> = cmd.get_args().collect();
//! assert_eq!(argv, ["node", "arbiter_node", "--ros-args", "-p", "level:=3"]);
//! ```

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// The executable that holds every node, beside each entry point.
pub const MAIN: &str = "checkers-robot";

/// The command that runs node `name` with `args` through the executable beside `entry`.
pub fn command(entry: &Path, name: &str, args: impl IntoIterator<Item = OsString>) -> Command {
    let mut cmd = Command::new(beside(entry));
    cmd.arg("node").arg(name).args(args);
    cmd
}

/// `checkers-robot` in the directory of `entry`, links followed: an install may link the entry
/// points from elsewhere (`lib/checkers_robot/arbiter_node -> target/release/arbiter_node`).
pub fn beside(entry: &Path) -> PathBuf {
    let real = std::fs::canonicalize(entry).unwrap_or_else(|_| entry.to_path_buf());
    real.with_file_name(MAIN)
}

/// The entry point's `main`: becomes `checkers-robot node NAME ARGS...`, and returns only if
/// that cannot start.
pub fn exec(name: &str) -> ExitCode {
    let entry = std::env::current_exe().unwrap_or_else(|_| PathBuf::from(name));
    let mut cmd = command(&entry, name, std::env::args_os().skip(1));
    let err = cmd.exec();
    eprintln!(
        "{name}: cannot run {}: {err}. It is built with the entry points: `cargo build --bins` \
         (the same profile as {name})",
        beside(&entry).display()
    );
    ExitCode::from(127)
}

/// glibc's malloc as a node wants it (docs/soak.md, "The allocator"). A fixed mmap threshold:
/// glibc raises it to the size of each large buffer freed, after which buffers of that size
/// (a burst of DDS repairs, a marker array) came from the heap and their pages stayed with the
/// process. Two arenas, not one per thread, each of which kept its own freed pages.
pub const MALLOC_TUNABLES: &str = "glibc.malloc.mmap_threshold=65536:glibc.malloc.arena_max=2";

/// Runs this process again, same id and arguments, with [`MALLOC_TUNABLES`] in
/// `GLIBC_TUNABLES` (read by glibc only as a process starts), unless `GLIBC_TUNABLES` is set
/// already: by an earlier pass, or by the user, whose own choice stands. `Ok` when there was
/// nothing to do; `Err` says why it could not, and the caller goes on untuned.
pub fn tune_allocator() -> std::io::Result<()> {
    if std::env::var_os("GLIBC_TUNABLES").is_some() {
        return Ok(());
    }
    let exe = std::env::current_exe()?;
    let mut args = std::env::args_os().skip(1);
    let err = Command::new(exe)
        .args(&mut args)
        .env("GLIBC_TUNABLES", MALLOC_TUNABLES)
        .exec();
    Err(err)
}

#[cfg(test)]
mod tests;
