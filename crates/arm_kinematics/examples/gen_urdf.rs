//! Prints the URDF generated from config/arm.yaml and config/board.yaml (or the files given as
//! `gen_urdf [ARM_YAML BOARD_YAML]`):
//! `cargo run -p arm_kinematics --example gen_urdf > urdf/checkers_robot.urdf`.

use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (arm, board) = match args.as_slice() {
        [] => (
            arm_kinematics::ArmConfig::builtin()?,
            arm_kinematics::BoardConfig::builtin()?,
        ),
        [a, b] => (
            arm_kinematics::ArmConfig::load(Path::new(a))?,
            arm_kinematics::BoardConfig::load(Path::new(b))?,
        ),
        _ => return Err("usage: gen_urdf [ARM_YAML BOARD_YAML]".into()),
    };
    print!("{}", arm_kinematics::urdf_gen::generate(&arm, &board));
    Ok(())
}
