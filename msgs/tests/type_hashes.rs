//! The RIHS01 hashes computed at build time are rosidl's.
//!
//! The golden values in `tools/ros2/checkers_msgs_type_hashes.json` were made by rosidl itself
//! (`rosidl translate --to idl`, then `generate_type_hash`) from this package's files. Where
//! ROS 2 Jazzy is installed, the copies of standard types under `msgs/std` are also checked
//! against the hashes in its `share/<package>/msg/*.json`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use checkers_msgs::{type_hash, Interface, TYPE_HASHES};

fn golden() -> BTreeMap<String, String> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools/ros2/checkers_msgs_type_hashes.json");
    let text = std::fs::read_to_string(&path).expect("the golden hashes are in the repository");
    serde_json::from_str(&text).expect("the golden file is a JSON object of strings")
}

#[test]
fn every_checkers_msgs_type_hashes_as_rosidl_computes_it() {
    let golden = golden();
    assert_eq!(golden.len(), 65);
    for (name, hash) in &golden {
        assert_eq!(type_hash(name), Some(hash.as_str()), "{name}");
    }
    let ours = TYPE_HASHES
        .iter()
        .filter(|(name, _)| name.starts_with("checkers_msgs/"))
        .count();
    assert_eq!(
        ours,
        golden.len(),
        "no checkers_msgs type without a golden hash"
    );
}

#[test]
fn the_interface_constant_is_the_table_entry() {
    use checkers_msgs::msg::GameState;
    use checkers_msgs::srv::ScanBoard_Request;
    assert_eq!(Some(GameState::TYPE_HASH), type_hash(GameState::ROS_TYPE));
    assert_eq!(
        <ScanBoard_Request as Interface>::TYPE_HASH,
        "RIHS01_ee78bad44a5d796e7c1dc63b2961a00c1e83edadab7d5d025cb83fcb0af88b20"
    );
    assert!(
        TYPE_HASHES.windows(2).all(|w| w[0].0 < w[1].0),
        "sorted for the lookup"
    );
    assert_eq!(type_hash("no_such/msg/Type"), None);
}

/// `/opt/ros/jazzy-min` (from `../shared/ros2`) or the ROS 2 that `AMENT_PREFIX_PATH` names.
fn jazzy_share() -> Option<PathBuf> {
    let mut candidates: Vec<PathBuf> = std::env::var("AMENT_PREFIX_PATH")
        .unwrap_or_default()
        .split(':')
        .filter(|p| !p.is_empty())
        .map(|p| Path::new(p).join("share"))
        .collect();
    candidates.push(PathBuf::from("/opt/ros/jazzy-min/share"));
    candidates
        .into_iter()
        .find(|share| share.join("std_msgs/msg/String.json").is_file())
}

/// Where package `package` of Jazzy is installed: beside `share`, or in one of
/// ../shared/ros2's other prefixes (tf2_msgs comes with its rviz2 part).
fn package_share(share: &Path, package: &str) -> Option<PathBuf> {
    [
        share.to_path_buf(),
        PathBuf::from("/opt/ros/jazzy-viz/share"),
        PathBuf::from("/opt/ros/jazzy-fastdds/share"),
    ]
    .into_iter()
    .find(|s| s.join(package).is_dir())
}

#[test]
fn the_standard_copies_hash_as_in_jazzy() {
    let Some(share) = jazzy_share() else {
        eprintln!("skipped: no ROS 2 Jazzy installed (its msg/*.json hold the reference hashes)");
        return;
    };
    let mut checked = 0;
    for (name, hash) in TYPE_HASHES {
        if name.starts_with("checkers_msgs/") || !name.contains("/msg/") {
            continue;
        }
        let package = name.split('/').next().unwrap_or_default();
        let Some(home) = package_share(&share, package) else {
            eprintln!("{name}: {package} is not installed here; not checked");
            continue;
        };
        let path = home.join(format!("{name}.json"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let json: serde_json::Value = serde_json::from_str(&text).expect("rosidl writes JSON");
        let theirs = json["type_hashes"][0]["hash_string"].as_str();
        assert_eq!(theirs, Some(*hash), "{name}");
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} standard types checked");
}
