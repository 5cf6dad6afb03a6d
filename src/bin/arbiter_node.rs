//! `ros2 run checkers_robot arbiter_node [--ros-args ...]`: the game arbiter, which runs inside
//! `checkers-robot` (src/nodes.rs); this entry point becomes `checkers-robot node arbiter_node`.

fn main() -> std::process::ExitCode {
    node_exec::exec(env!("CARGO_BIN_NAME"))
}
