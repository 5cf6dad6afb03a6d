//! colcon builds only the interface files that CMakeLists.txt names, so every file under
//! msg/, srv/ and action/ must be listed there, and nothing else.

use std::collections::BTreeSet;
use std::path::Path;

#[test]
fn cmake_lists_names_every_interface_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut on_disk = BTreeSet::new();
    for dir in ["msg", "srv", "action"] {
        for entry in std::fs::read_dir(root.join(dir)).expect("folder exists") {
            let name = entry.expect("entry").file_name();
            on_disk.insert(format!("{dir}/{}", name.to_string_lossy()));
        }
    }
    let cmake = std::fs::read_to_string(root.join("CMakeLists.txt")).expect("CMakeLists.txt");
    let listed: BTreeSet<String> = cmake
        .lines()
        .map(|line| line.split('#').next().unwrap_or(""))
        .flat_map(str::split_whitespace)
        .map(|word| word.trim_matches('"').to_string())
        .filter(|word| {
            ["msg/", "srv/", "action/"]
                .iter()
                .any(|dir| word.starts_with(dir))
        })
        .collect();
    assert_eq!(listed, on_disk);
}
