//! SROS2 keystores without a ROS install. `ros2 security` (sros2) makes a keystore from a
//! policy file; this crate makes the same layout and documents, so that the robot's graph,
//! rclpy, rclcpp and the `ros2` command line all read it:
//! - [`policy::load`] reads sros2's policy format into the DDS topics each enclave may use;
//! - [`documents`] writes the governance and the permissions;
//! - [`keystore::Keystore`] makes the CA, each enclave's key and certificate, and signs the
//!   documents (S/MIME, as the DDS Security builtin plugins verify them).
//!
//! # Example
//!
//! A one-enclave policy turned into the DDS topics its node may use, and into the permissions
//! document its keystore folder gets.
//!
//! ```
//! use std::path::Path;
//!
//! let policy = r#"<policy version="0.2.0"><enclaves>
//!   <enclave path="/checkers/board_sensor"><profiles><profile ns="/" node="board_sensor">
//!     <topics publish="ALLOW"><topic>/board/occupancy</topic></topics>
//!     <services reply="ALLOW"><service>/board/scan</service></services>
//!   </profile></profiles></enclave>
//! </enclaves></policy>"#;
//! let file = std::env::temp_dir().join(format!("sros2-doc-{}.xml", std::process::id()));
//! std::fs::write(&file, policy)?;
//! let enclaves = sros2::policy::load(&file);
//! std::fs::remove_file(&file)?;
//! let sensor = &enclaves?[0];
//!
//! // A topic `/t` is the DDS topic `rt/t`; serving `/s` reads `rq/sRequest`, writes `rr/sReply`.
//! let published: Vec<&str> = sensor.allow.publish.iter().map(String::as_str).collect();
//! assert_eq!(published, ["rr/board/scanReply", "rt/board/occupancy"]);
//! assert!(sensor.allow.subscribe.contains("rq/board/scanRequest"));
//! let now = chrono::Utc::now();
//! let xml = sros2::documents::permissions(sensor, now, now + chrono::Duration::days(365));
//! assert!(xml.contains("<subject_name>CN=/checkers/board_sensor</subject_name>"));
//! assert_eq!(
//!     sros2::layout::enclave_dir(Path::new("/ks"), &sensor.path),
//!     Some(Path::new("/ks/enclaves/checkers/board_sensor").to_path_buf())
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod documents;
pub mod keystore;
pub mod layout;
pub mod policy;

use std::path::{Path, PathBuf};

use thiserror::Error;

pub use keystore::Keystore;
pub use policy::{Access, EnclavePolicy};

#[derive(Debug, Error)]
pub enum Sros2Error {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("policy {path}: {why}")]
    Policy { path: PathBuf, why: String },
    #[error("enclave {0:?}: an enclave is an absolute ROS name such as /checkers/arbiter")]
    Enclave(String),
    #[error("OpenSSL: {0}")]
    Crypto(#[from] openssl::error::ErrorStack),
}

/// What [`init`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitReport {
    /// A new CA was made (false: the keystore's own was used).
    pub created_ca: bool,
    /// The enclaves written, with their folders.
    pub enclaves: Vec<(String, PathBuf)>,
}

/// Makes (or completes) the keystore at `root` with every enclave of the policy at `policy`,
/// or only those named in `only` when it is not empty.
pub fn init(root: &Path, policy: &Path, only: &[String]) -> Result<InitReport, Sros2Error> {
    let enclaves = policy::load(policy)?;
    for name in only {
        if !enclaves.iter().any(|e| &e.path == name) {
            return Err(Sros2Error::Policy {
                path: policy.to_path_buf(),
                why: format!("it has no enclave {name}"),
            });
        }
    }
    let (store, created_ca) = Keystore::open_or_create(root)?;
    let mut written = Vec::new();
    for e in enclaves
        .iter()
        .filter(|e| only.is_empty() || only.contains(&e.path))
    {
        written.push((e.path.clone(), store.create_enclave(e)?));
    }
    Ok(InitReport {
        created_ca,
        enclaves: written,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/security/policy.xml")
    }

    #[test]
    fn init_makes_the_sros2_layout_and_reuses_its_ca() {
        let dir = tempfile::tempdir().expect("tmp");
        let root = dir.path().join("ks");
        let report = init(&root, &policy(), &[]).expect("init");
        assert!(report.created_ca);
        assert!(report.enclaves.len() >= 8);
        let arbiter = root.join("enclaves/checkers/arbiter");
        for f in layout::ENCLAVE_FILES.iter().chain(&["permissions.xml"]) {
            assert!(arbiter.join(f).is_file(), "{f}");
        }
        let cert =
            X509::from_pem(&std::fs::read(arbiter.join("cert.pem")).expect("cert")).expect("pem");
        let ca = X509::from_pem(&std::fs::read(root.join("public/ca.cert.pem")).expect("ca"))
            .expect("pem");
        assert!(cert.verify(&ca.public_key().expect("key")).expect("verify"));
        let cn = cert
            .subject_name()
            .entries_by_nid(openssl::nid::Nid::COMMONNAME)
            .next()
            .and_then(|e| e.data().to_string().ok());
        assert_eq!(cn.as_deref(), Some("/checkers/arbiter"));
        // The signed permissions verify against the CA, as a DDS participant checks them.
        let p7s = std::fs::read(arbiter.join("permissions.p7s")).expect("p7s");
        let (pkcs7, content) = openssl::pkcs7::Pkcs7::from_smime(&p7s).expect("smime");
        let mut store = openssl::x509::store::X509StoreBuilder::new().expect("store");
        store.add_cert(ca.clone()).expect("ca");
        let store = store.build();
        let certs = openssl::stack::Stack::new().expect("stack");
        let mut out = Vec::new();
        pkcs7
            .verify(
                &certs,
                &store,
                content.as_deref(),
                Some(&mut out),
                openssl::pkcs7::Pkcs7Flags::TEXT,
            )
            .expect("signature verifies");
        let xml = std::fs::read_to_string(arbiter.join("permissions.xml")).expect("xml");
        assert_eq!(String::from_utf8_lossy(&out).replace("\r\n", "\n"), xml);

        let again = init(&root, &policy(), &["/checkers/viewer".into()]).expect("again");
        assert!(!again.created_ca);
        assert_eq!(again.enclaves.len(), 1);
        assert!(init(&root, &policy(), &["/nobody".into()]).is_err());
    }

    use openssl::x509::X509;
}
