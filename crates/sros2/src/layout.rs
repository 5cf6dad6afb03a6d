//! Where things are in an SROS2 keystore, for those who make one and those who read one
//! (`crates/ros` finds a node's enclave here).

use std::path::{Path, PathBuf};

/// The files of an enclave folder: its identity (CA, certificate, key), the permissions CA,
/// the governance and its permissions, the latter two S/MIME-signed.
pub const ENCLAVE_FILES: [&str; 6] = [
    "identity_ca.cert.pem",
    "cert.pem",
    "key.pem",
    "permissions_ca.cert.pem",
    "governance.p7s",
    "permissions.p7s",
];

/// The folder of `enclave` under the keystore `root`: `/` is `enclaves/`, `/a/b` is
/// `enclaves/a/b`. `None` unless the enclave is an absolute ROS name: letters, digits and
/// underscores between single slashes, no part starting with a digit.
pub fn enclave_dir(root: &Path, enclave: &str) -> Option<PathBuf> {
    let rest = enclave.strip_prefix('/')?;
    let mut dir = root.join("enclaves");
    if rest.is_empty() {
        return Some(dir);
    }
    for part in rest.split('/') {
        let ok = !part.is_empty()
            && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !part.starts_with(|c: char| c.is_ascii_digit());
        if !ok {
            return None;
        }
        dir.push(part);
    }
    Some(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enclaves_are_folders_under_enclaves() {
        let ks = Path::new("/ks");
        assert_eq!(enclave_dir(ks, "/"), Some(PathBuf::from("/ks/enclaves")));
        assert_eq!(
            enclave_dir(ks, "/checkers/arbiter"),
            Some(PathBuf::from("/ks/enclaves/checkers/arbiter"))
        );
        for bad in ["relative", "/../etc", "/a//b", "/a/", "/1st", "/a b"] {
            assert_eq!(enclave_dir(ks, bad), None, "{bad}");
        }
    }
}
