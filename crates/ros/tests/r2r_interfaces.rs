//! The r2r backend binds every `checkers_msgs` service and action to r2r's native types from a
//! hand-written list, compiled only on the robot: this keeps the list complete.

use std::collections::BTreeSet;
use std::path::Path;

include!("../src/r2r_backend/interfaces.rs");

macro_rules! names {
    (services: [$($s:ident),*], actions: [$($a:ident),*],) => {
        (
            [$(stringify!($s)),*].map(String::from).into_iter().collect::<BTreeSet<_>>(),
            [$(stringify!($a)),*].map(String::from).into_iter().collect::<BTreeSet<_>>(),
        )
    };
}

fn interface_files(dir: &str, extension: &str) -> BTreeSet<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../msgs")
        .join(dir);
    std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .filter_map(|entry| {
            let path = entry.expect("a directory entry").path();
            (path.extension()? == extension)
                .then(|| path.file_stem()?.to_str().map(String::from))?
        })
        .collect()
}

#[test]
fn every_service_and_action_is_bound() {
    let (services, actions) = checkers_interfaces!(names);
    let fix = "make the lists in crates/ros/src/r2r_backend/interfaces.rs match msgs/";
    assert_eq!(services, interface_files("srv", "srv"), "{fix}");
    assert_eq!(actions, interface_files("action", "action"), "{fix}");
}
