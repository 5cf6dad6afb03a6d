use super::*;

#[test]
fn the_command_names_the_node_and_passes_its_arguments() {
    let cmd = command(
        Path::new("/opt/robot/bin/arbiter_node"),
        "arbiter_node",
        ["--ros-args".into(), "-r".into(), "__node:=ref".into()],
    );
    assert_eq!(cmd.get_program(), "/opt/robot/bin/checkers-robot");
    let args: Vec<_> = cmd.get_args().collect();
    assert_eq!(
        args,
        ["node", "arbiter_node", "--ros-args", "-r", "__node:=ref"]
    );
}

#[test]
fn a_linked_entry_point_finds_the_executable_beside_its_target() {
    let dir = tempfile::tempdir().expect("tempdir");
    let build = dir.path().join("release");
    let install = dir.path().join("lib");
    std::fs::create_dir_all(&build).expect("mkdir");
    std::fs::create_dir_all(&install).expect("mkdir");
    std::fs::write(build.join("planner_node"), "").expect("write");
    std::os::unix::fs::symlink(build.join("planner_node"), install.join("planner_node"))
        .expect("symlink");
    let found = beside(&install.join("planner_node"));
    assert_eq!(
        found,
        std::fs::canonicalize(&build).expect("canonical").join(MAIN)
    );
}
