//! `ros2 run checkers_robot recorder_node [--ros-args ...]`: every game as an MCAP recording,
//! which runs inside `checkers-robot` (src/nodes.rs); this entry point becomes
//! `checkers-robot node recorder_node`.

fn main() -> std::process::ExitCode {
    node_exec::exec(env!("CARGO_BIN_NAME"))
}
