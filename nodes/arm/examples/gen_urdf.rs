//! Prints the URDF generated from config/arm.yaml and config/board.yaml (or the files given as
//! `gen_urdf [ARM_YAML BOARD_YAML]`):
//! `cargo run -p arm --example gen_urdf > urdf/checkers_robot.urdf`.

use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (arm, board) = match args.as_slice() {
        [] => (arm::ArmConfig::builtin()?, arm::BoardConfig::builtin()?),
        [a, b] => (
            arm::ArmConfig::load(Path::new(a))?,
            arm::BoardConfig::load(Path::new(b))?,
        ),
        _ => return Err("usage: gen_urdf [ARM_YAML BOARD_YAML]".into()),
    };
    print!("{}", arm::urdf_gen::generate(&arm, &board));
    Ok(())
}
