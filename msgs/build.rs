//! Generates `$OUT_DIR/interfaces.rs` from the interface files, so the `.msg`/`.srv`/`.action`
//! files stay the single source of truth: the project's own under `msg/`, `srv/`, `action/`
//! (package name from `package.xml`), the standard ones under `std/<package>/msg/`.

#[path = "idl/generate.rs"]
mod generate;
#[path = "idl/parse.rs"]
mod parse;
#[path = "idl/rust_syntax.rs"]
mod rust_syntax;
#[path = "idl/type_hash.rs"]
mod type_hash;

use std::path::{Path, PathBuf};
use std::{env, fs};

use generate::Interface;
use parse::Kind;

fn main() {
    let root =
        PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    for watched in [
        "build.rs",
        "idl",
        "package.xml",
        "msg",
        "srv",
        "action",
        "std",
    ] {
        println!("cargo:rerun-if-changed={watched}");
    }

    let own_package = package_name(&root.join("package.xml"));
    let mut interfaces = Vec::new();
    collect(&root, &own_package, &mut interfaces);
    for package_dir in sorted_entries(&root.join("std"))
        .into_iter()
        .filter(|p| p.is_dir())
    {
        let package = file_name(&package_dir);
        if let Err(message) = parse::check_package_name(&package) {
            panic!("{}: {message}", package_dir.display());
        }
        collect(&package_dir, &package, &mut interfaces);
    }

    let code = generate::generate(&interfaces, &own_package)
        .unwrap_or_else(|e| panic!("cannot generate the Rust types: {e}"));
    let out =
        PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("interfaces.rs");
    // Rewriting identical output would only make cargo rebuild the crate for nothing.
    if fs::read_to_string(&out).ok().as_deref() != Some(code.as_str()) {
        fs::write(&out, code).unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
    }
}

/// The `<name>` of a ROS `package.xml`.
fn package_name(path: &Path) -> String {
    let text =
        fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let name = text
        .split_once("<name>")
        .and_then(|(_, rest)| rest.split_once("</name>"))
        .map(|(name, _)| name.trim().to_string())
        .unwrap_or_else(|| panic!("{}: no <name> element", path.display()));
    if let Err(message) = parse::check_package_name(&name) {
        panic!("{}: {message}", path.display());
    }
    name
}

/// Parses every interface file in the `msg/`, `srv/` and `action/` folders of `package_dir`.
fn collect(package_dir: &Path, package: &str, interfaces: &mut Vec<Interface>) {
    for kind in [Kind::Msg, Kind::Srv, Kind::Action] {
        for path in sorted_entries(&package_dir.join(kind.dir())) {
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            if Kind::from_extension(ext) != Some(kind) {
                panic!(
                    "{}: unexpected file in {}/ (only .{} files belong there)",
                    path.display(),
                    kind.dir(),
                    kind.dir()
                );
            }
            let name = path
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("")
                .to_string();
            if !parse::is_type_name(&name) {
                panic!(
                    "{}: the file name must be the interface name in CamelCase (letters and digits)",
                    path.display()
                );
            }
            let text = fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let definition = parse::parse(&text, kind)
                .unwrap_or_else(|e| panic!("{}:{}: {}", path.display(), e.line, e.message));
            interfaces.push(Interface {
                package: package.to_string(),
                name,
                path: path.display().to_string(),
                definition,
                text,
            });
        }
    }
}

/// The entries of a folder in name order (so the output is stable); none if it does not exist.
fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .map(|e| {
            e.unwrap_or_else(|err| panic!("cannot list {}: {err}", dir.display()))
                .path()
        })
        .filter(|p| !file_name(p).starts_with('.'))
        .collect();
    paths.sort();
    paths
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_string()
}
