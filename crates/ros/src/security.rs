//! DDS Security settings as rcl reads them (SROS2): `ROS_SECURITY_ENABLE`,
//! `ROS_SECURITY_STRATEGY`, `ROS_SECURITY_KEYSTORE`, `ROS_SECURITY_ENCLAVE_OVERRIDE`, and the
//! enclave of `--ros-args --enclave` (`/` when none is given). A keystore has the layout of
//! `ros2 security create_keystore`: an enclave `/a/b` is the folder `enclaves/a/b`, holding the
//! six files below.

use std::path::{Path, PathBuf};

use thiserror::Error;

/// The files rcl's DDS layers read from an enclave's folder (rmw_dds_common's names).
pub use sros2::layout::ENCLAVE_FILES;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SecurityError {
    #[error(
        "ROS_SECURITY_ENABLE=true with ROS_SECURITY_STRATEGY=Enforce, but ROS_SECURITY_KEYSTORE \
         is not set"
    )]
    NoKeystore,
    #[error(
        "SECURITY ERROR: unable to find a folder matching the enclave {enclave:?} in \
         {keystore:?} (expected {expected:?}); create it with `ros2 security create_enclave` \
         or `checkers-robot security init`"
    )]
    NoEnclave {
        enclave: String,
        keystore: PathBuf,
        expected: PathBuf,
    },
    #[error("the enclave folder {dir:?} lacks {file} (an enclave holds {all})", all = ENCLAVE_FILES.join(", "))]
    MissingFile { dir: PathBuf, file: &'static str },
    #[error("enclave {0:?}: an enclave is an absolute name such as / or /checkers/arbiter")]
    BadEnclave(String),
}

/// What rcl does when an enclave's credentials are missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// The node refuses to start.
    Enforce,
    /// The node runs without security (and says so).
    Permissive,
}

/// Security as the environment asks for it; `None` in [`crate::env::RosEnv`] when
/// `ROS_SECURITY_ENABLE` is not `true`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecurityEnv {
    pub strategy: Strategy,
    pub keystore: Option<PathBuf>,
    /// `ROS_SECURITY_ENCLAVE_OVERRIDE`: wins over the enclave of the command line.
    pub enclave_override: Option<String>,
}

impl SecurityEnv {
    /// Reads the variables through `get`, as rcl does: only the exact `true` enables security
    /// and only the exact `Enforce` enforces it.
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Option<SecurityEnv> {
        if get("ROS_SECURITY_ENABLE").as_deref() != Some("true") {
            return None;
        }
        let strategy = if get("ROS_SECURITY_STRATEGY").as_deref() == Some("Enforce") {
            Strategy::Enforce
        } else {
            Strategy::Permissive
        };
        let nonempty = |k: &str| get(k).filter(|v| !v.trim().is_empty());
        Some(SecurityEnv {
            strategy,
            keystore: nonempty("ROS_SECURITY_KEYSTORE").map(PathBuf::from),
            enclave_override: nonempty("ROS_SECURITY_ENCLAVE_OVERRIDE"),
        })
    }

    /// The enclave folder whose credentials the node's participant uses, or `None` to run
    /// unsecured (permissive, and no credentials found). Enforce turns every gap into an error.
    pub fn resolve(&self, enclave: Option<&str>) -> Result<Option<PathBuf>, SecurityError> {
        let enclave = self.enclave_override.as_deref().or(enclave).unwrap_or("/");
        let found = self.find(enclave);
        match (found, self.strategy) {
            (Ok(dir), _) => Ok(Some(dir)),
            (Err(e), Strategy::Enforce) => Err(e),
            (Err(SecurityError::BadEnclave(e)), Strategy::Permissive) => {
                Err(SecurityError::BadEnclave(e))
            }
            (Err(e), Strategy::Permissive) => {
                tracing::warn!(
                    "{e}; running without DDS security (ROS_SECURITY_STRATEGY is not Enforce)"
                );
                Ok(None)
            }
        }
    }

    fn find(&self, enclave: &str) -> Result<PathBuf, SecurityError> {
        let keystore = self.keystore.as_deref().ok_or(SecurityError::NoKeystore)?;
        let dir = enclave_dir(keystore, enclave)?;
        if !dir.is_dir() {
            return Err(SecurityError::NoEnclave {
                enclave: enclave.to_string(),
                keystore: keystore.to_path_buf(),
                expected: dir,
            });
        }
        for file in ENCLAVE_FILES {
            if !dir.join(file).is_file() {
                return Err(SecurityError::MissingFile { dir, file });
            }
        }
        Ok(dir)
    }
}

/// The folder of `enclave` in `keystore`: `/` is `enclaves/`, `/a/b` is `enclaves/a/b`.
pub fn enclave_dir(keystore: &Path, enclave: &str) -> Result<PathBuf, SecurityError> {
    sros2::layout::enclave_dir(keystore, enclave)
        .ok_or_else(|| SecurityError::BadEnclave(enclave.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn sec(pairs: &[(&str, &str)]) -> Option<SecurityEnv> {
        let m: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        SecurityEnv::from_lookup(|k| m.get(k).cloned())
    }

    #[test]
    fn only_exact_true_enables_and_only_exact_enforce_enforces() {
        assert_eq!(sec(&[]), None);
        assert_eq!(sec(&[("ROS_SECURITY_ENABLE", "1")]), None);
        assert_eq!(sec(&[("ROS_SECURITY_ENABLE", "True")]), None);
        let s = sec(&[("ROS_SECURITY_ENABLE", "true")]).expect("enabled");
        assert_eq!(s.strategy, Strategy::Permissive);
        assert_eq!(s.keystore, None);
        let s = sec(&[
            ("ROS_SECURITY_ENABLE", "true"),
            ("ROS_SECURITY_STRATEGY", "Enforce"),
            ("ROS_SECURITY_KEYSTORE", "/ks"),
        ])
        .expect("enabled");
        assert_eq!(s.strategy, Strategy::Enforce);
        assert_eq!(s.keystore.as_deref(), Some(Path::new("/ks")));
    }

    #[test]
    fn enclave_folders_follow_the_keystore_layout() {
        let ks = Path::new("/ks");
        assert_eq!(
            enclave_dir(ks, "/").expect("root"),
            Path::new("/ks/enclaves")
        );
        assert_eq!(
            enclave_dir(ks, "/checkers/arbiter").expect("nested"),
            Path::new("/ks/enclaves/checkers/arbiter")
        );
        assert!(enclave_dir(ks, "relative").is_err());
        assert!(enclave_dir(ks, "/../etc").is_err());
    }

    #[test]
    fn enforce_refuses_a_missing_enclave_and_permissive_runs_without() {
        let keystore = std::env::temp_dir().join(format!("ros-sec-test-{}", std::process::id()));
        let dir = keystore.join("enclaves/robot");
        std::fs::create_dir_all(&dir).expect("tmp");
        let mut s = SecurityEnv {
            strategy: Strategy::Enforce,
            keystore: Some(keystore.clone()),
            enclave_override: None,
        };
        assert!(matches!(
            s.resolve(Some("/viewer")),
            Err(SecurityError::NoEnclave { .. })
        ));
        assert!(matches!(
            s.resolve(Some("/robot")),
            Err(SecurityError::MissingFile {
                file: "identity_ca.cert.pem",
                ..
            })
        ));
        for f in ENCLAVE_FILES {
            std::fs::write(dir.join(f), "x").expect("write");
        }
        assert_eq!(s.resolve(Some("/robot")), Ok(Some(dir.clone())));
        s.enclave_override = Some("/robot".into());
        assert_eq!(s.resolve(Some("/viewer")), Ok(Some(dir)));
        s.enclave_override = None;
        s.strategy = Strategy::Permissive;
        assert_eq!(s.resolve(Some("/viewer")), Ok(None));
        assert!(s.resolve(Some("no_slash")).is_err());
        let _ = std::fs::remove_dir_all(&keystore);
    }
}
