//! Tells the r2r backend which r2r-generated interfaces exist. r2r generates Rust types at its
//! own build time for the interface packages it finds (`AMENT_PREFIX_PATH`, `CMAKE_PREFIX_PATH`
//! or `CMAKE_IDL_PACKAGES`, narrowed by `IDL_PACKAGE_FILTER`), and with `doc-only` only for the
//! standard packages it ships. The same search here decides:
//! - `ros_r2r_bindings`: `r2r::checkers_msgs` exists, so the service and action servers can be
//!   bound to its native types (on the robot, never in CI);
//! - `ros_r2r_sim_time`: `rosgraph_msgs` was generated, so r2r has its `TimeSource`.

use std::env;
use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(ros_r2r_bindings)");
    println!("cargo::rustc-check-cfg=cfg(ros_r2r_sim_time)");
    for var in [
        "AMENT_PREFIX_PATH",
        "CMAKE_PREFIX_PATH",
        "CMAKE_IDL_PACKAGES",
        "IDL_PACKAGE_FILTER",
    ] {
        println!("cargo::rerun-if-env-changed={var}");
    }
    let r2r = env::var_os("CARGO_FEATURE_R2R").is_some();
    // Under doc-only r2r ignores the ROS environment and uses its shipped bindings.
    let doc_only = env::var_os("CARGO_FEATURE_R2R_DOC_ONLY").is_some();
    if !r2r || doc_only {
        return;
    }
    if generated_by_r2r("checkers_msgs") {
        println!("cargo::rustc-cfg=ros_r2r_bindings");
    }
    if generated_by_r2r("rosgraph_msgs") {
        println!("cargo::rustc-cfg=ros_r2r_sim_time");
    }
}

/// Whether r2r's build finds interface package `package`, as `r2r_common` searches.
fn generated_by_r2r(package: &str) -> bool {
    // r2r always adds these few to the filter; ours are never among them.
    let allowed = env::var("IDL_PACKAGE_FILTER")
        .map(|f| f.split(';').any(|p| p == package))
        .unwrap_or(true);
    if !allowed {
        return false;
    }
    if let Ok(dirs) = env::var("CMAKE_IDL_PACKAGES") {
        // Each entry is `.../share/<package>/cmake`.
        return dirs.split(':').any(|d| {
            Path::new(d)
                .parent()
                .and_then(Path::file_name)
                .is_some_and(|n| n == package)
        });
    }
    ["AMENT_PREFIX_PATH", "CMAKE_PREFIX_PATH"]
        .iter()
        .filter_map(env::var_os)
        .any(|paths| {
            env::split_paths(&paths).any(|prefix| {
                prefix
                    .join("share/ament_index/resource_index/rosidl_interfaces")
                    .join(package)
                    .is_file()
            })
        })
}
