//! `ros2 run checkers_robot board_sensor_node [--ros-args ...]`: the board sensor reader, which runs inside
//! `checkers-robot` (src/nodes.rs); this entry point becomes `checkers-robot node board_sensor_node`.

fn main() -> std::process::ExitCode {
    node_exec::exec(env!("CARGO_BIN_NAME"))
}
