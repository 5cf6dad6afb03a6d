//! `ros2 run checkers_robot web_node [--ros-args ...]`: the web window, which runs inside
//! `checkers-robot` (src/nodes.rs); this entry point becomes `checkers-robot node web_node`.

fn main() -> std::process::ExitCode {
    node_exec::exec(env!("CARGO_BIN_NAME"))
}
