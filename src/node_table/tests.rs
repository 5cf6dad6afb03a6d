use std::collections::BTreeSet;

use super::*;

/// `src/bin/NAME.rs` and Cargo.toml's `[[bin]]` entries are the entry points `ros2 run` finds;
/// each must be a node of the table, and every node must have one.
#[test]
fn every_entry_point_is_a_node() {
    let table: BTreeSet<String> = names().map(str::to_string).collect();
    assert_eq!(table.len(), NODES.len(), "a name is in the table twice");
    let files: BTreeSet<String> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/src/bin"))
            .expect("src/bin")
            .filter_map(Result::ok)
            .filter_map(|e| e.path().file_stem()?.to_str().map(str::to_string))
            .collect();
    assert_eq!(files, table);
    let manifest = include_str!("../../Cargo.toml");
    let bins: BTreeSet<String> = manifest
        .lines()
        .filter_map(|l| l.strip_prefix("name = \""))
        .filter_map(|l| l.strip_suffix('"'))
        .filter(|n| n.ends_with("_node"))
        .map(str::to_string)
        .collect();
    assert_eq!(bins, table);
}

#[test]
fn a_node_is_found_by_its_executable_name() {
    assert_eq!(find("arbiter_node").map(|n| n.name), Some("arbiter_node"));
    assert!(find("arbiter").is_none());
    assert!(find("").is_none());
}
