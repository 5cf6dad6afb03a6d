use super::*;

fn argv(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

#[test]
fn other_command_lines_go_to_the_subcommands() {
    assert_eq!(dispatch(&argv(&["checkers-robot", "play"])), None);
    assert_eq!(dispatch(&argv(&["checkers-robot"])), None);
    // A node's name alone is not the `node` subcommand.
    assert_eq!(dispatch(&argv(&["checkers-robot", "arbiter_node"])), None);
}

#[test]
fn an_unknown_node_is_bad_input() {
    assert_eq!(
        dispatch(&argv(&["checkers-robot", "node", "referee_node"])),
        Some(ExitCode::from(2))
    );
    assert_eq!(
        dispatch(&argv(&["checkers-robot", "node"])),
        Some(ExitCode::from(2))
    );
}
