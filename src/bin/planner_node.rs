//! `ros2 run checkers_robot planner_node [--ros-args ...]`: the planner, which runs inside
//! `checkers-robot` (src/nodes.rs); this entry point becomes `checkers-robot node planner_node`.

fn main() -> std::process::ExitCode {
    node_exec::exec(env!("CARGO_BIN_NAME"))
}
