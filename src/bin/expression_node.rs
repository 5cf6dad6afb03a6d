//! `ros2 run checkers_robot expression_node [--ros-args ...]`: the face and voice, which runs inside
//! `checkers-robot` (src/nodes.rs); this entry point becomes `checkers-robot node expression_node`.

fn main() -> std::process::ExitCode {
    node_exec::exec(env!("CARGO_BIN_NAME"))
}
