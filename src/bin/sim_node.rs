//! `ros2 run checkers_robot sim_node [--ros-args ...]`: the simulated hardware (docs/sim.md), which runs inside
//! `checkers-robot` (src/nodes.rs); this entry point becomes `checkers-robot node sim_node`.

fn main() -> std::process::ExitCode {
    node_exec::exec(env!("CARGO_BIN_NAME"))
}
