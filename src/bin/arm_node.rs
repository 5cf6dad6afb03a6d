//! `ros2 run checkers_robot arm_node [--ros-args ...]`: the arm driver (and `arm_node calibrate --port PORT`), which runs inside
//! `checkers-robot` (src/nodes.rs); this entry point becomes `checkers-robot node arm_node`.

fn main() -> std::process::ExitCode {
    node_exec::exec(env!("CARGO_BIN_NAME"))
}
