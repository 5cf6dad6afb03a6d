//! A keystore in the layout of `ros2 security create_keystore` and `create_enclave`: one CA
//! (both the identity and the permissions CA), the signed governance, and per enclave a key,
//! a certificate whose subject is `CN=<enclave>`, and the signed permissions.

use std::path::{Path, PathBuf};

use chrono::{Duration, Utc};
use openssl::asn1::{Asn1Integer, Asn1Time};
use openssl::bn::{BigNum, MsbOption};
use openssl::ec::{EcGroup, EcKey};
use openssl::hash::MessageDigest;
use openssl::nid::Nid;
use openssl::pkcs7::{Pkcs7, Pkcs7Flags};
use openssl::pkey::{PKey, Private};
use openssl::stack::Stack;
use openssl::x509::extension::BasicConstraints;
use openssl::x509::{X509Name, X509};

use crate::documents;
use crate::layout::enclave_dir;
use crate::policy::EnclavePolicy;
use crate::Sros2Error;

/// How long certificates and permissions are valid, as in sros2.
const VALID_DAYS: u32 = 3650;
const CA_NAME: &str = "checkers_robot keystore CA";

#[derive(Debug)]
pub struct Keystore {
    root: PathBuf,
    ca_cert: X509,
    ca_key: PKey<Private>,
}

impl Keystore {
    /// Opens the keystore at `root`, or creates its CA, public and private folders and the
    /// signed governance when it has none. The flag says whether it was created.
    pub fn open_or_create(root: &Path) -> Result<(Keystore, bool), Sros2Error> {
        let key_path = root.join("private/ca.key.pem");
        let cert_path = root.join("public/ca.cert.pem");
        let created = !key_path.exists();
        let (ca_cert, ca_key) = if created {
            let key = new_key()?;
            let cert = certificate(CA_NAME, &key, None)?;
            write_key(&key_path, &key)?;
            write(&cert_path, &cert.to_pem()?)?;
            for role in ["identity_ca", "permissions_ca"] {
                link("ca.cert.pem", &root.join(format!("public/{role}.cert.pem")))?;
                link("ca.key.pem", &root.join(format!("private/{role}.key.pem")))?;
            }
            (cert, key)
        } else {
            let key = PKey::private_key_from_pem(&read(&key_path)?)?;
            let cert = X509::from_pem(&read(&cert_path)?)?;
            (cert, key)
        };
        let store = Keystore {
            root: root.to_path_buf(),
            ca_cert,
            ca_key,
        };
        let governance = root.join("enclaves/governance.xml");
        if created || !governance.exists() {
            let xml = documents::governance();
            write(&governance, xml.as_bytes())?;
            write(
                &root.join("enclaves/governance.p7s"),
                &store.sign(xml.as_bytes())?,
            )?;
        }
        Ok((store, created))
    }

    /// Writes (or replaces) the enclave's key, certificate and signed permissions; returns its
    /// folder.
    pub fn create_enclave(&self, policy: &EnclavePolicy) -> Result<PathBuf, Sros2Error> {
        let dir = enclave_dir(&self.root, &policy.path)
            .ok_or_else(|| Sros2Error::Enclave(policy.path.clone()))?;
        let key = new_key()?;
        let cert = certificate(&policy.path, &key, Some((&self.ca_cert, &self.ca_key)))?;
        write_key(&dir.join("key.pem"), &key)?;
        write(&dir.join("cert.pem"), &cert.to_pem()?)?;
        let now = Utc::now();
        let xml = documents::permissions(policy, now, now + Duration::days(VALID_DAYS.into()));
        write(&dir.join("permissions.xml"), xml.as_bytes())?;
        write(&dir.join("permissions.p7s"), &self.sign(xml.as_bytes())?)?;
        // Links into the keystore's shared files, relative as sros2 makes them.
        let up = "../".repeat(
            dir.strip_prefix(&self.root)
                .map_or(1, |r| r.components().count()),
        );
        link(
            &format!("{up}enclaves/governance.p7s"),
            &dir.join("governance.p7s"),
        )?;
        for role in ["identity_ca", "permissions_ca"] {
            link(
                &format!("{up}public/{role}.cert.pem"),
                &dir.join(format!("{role}.cert.pem")),
            )?;
        }
        Ok(dir)
    }

    /// An S/MIME detached signature of `data` by the CA (`openssl smime -sign -text`).
    fn sign(&self, data: &[u8]) -> Result<Vec<u8>, Sros2Error> {
        let flags = Pkcs7Flags::DETACHED | Pkcs7Flags::TEXT;
        let empty = Stack::new()?;
        let signed = Pkcs7::sign(&self.ca_cert, &self.ca_key, &empty, data, flags)?;
        Ok(signed.to_smime(data, flags)?)
    }
}

fn new_key() -> Result<PKey<Private>, Sros2Error> {
    let group = EcGroup::from_curve_name(Nid::X9_62_PRIME256V1)?;
    Ok(PKey::from_ec_key(EcKey::generate(&group)?)?)
}

/// A certificate for `common_name`, signed by `issuer` or by itself (the CA).
fn certificate(
    common_name: &str,
    key: &PKey<Private>,
    issuer: Option<(&X509, &PKey<Private>)>,
) -> Result<X509, Sros2Error> {
    let mut name = X509Name::builder()?;
    name.append_entry_by_nid(Nid::COMMONNAME, common_name)?;
    let name = name.build();
    let mut serial = BigNum::new()?;
    serial.rand(120, MsbOption::MAYBE_ZERO, false)?;
    let mut b = X509::builder()?;
    b.set_version(2)?;
    let serial = Asn1Integer::from_bn(&serial)?;
    b.set_serial_number(&serial)?;
    b.set_subject_name(&name)?;
    b.set_pubkey(key)?;
    let (from, until) = (
        Asn1Time::days_from_now(0)?,
        Asn1Time::days_from_now(VALID_DAYS)?,
    );
    b.set_not_before(&from)?;
    b.set_not_after(&until)?;
    let (issuer_name, signer) = match issuer {
        Some((cert, key)) => (cert.subject_name(), key),
        None => (name.as_ref(), key),
    };
    b.set_issuer_name(issuer_name)?;
    let ca = issuer.is_none();
    let mut constraints = BasicConstraints::new();
    constraints.critical();
    if ca {
        constraints.ca();
    }
    b.append_extension(constraints.build()?)?;
    b.sign(signer, MessageDigest::sha256())?;
    Ok(b.build())
}

fn read(path: &Path) -> Result<Vec<u8>, Sros2Error> {
    std::fs::read(path).map_err(|source| Sros2Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), Sros2Error> {
    let io = |source| Sros2Error::Io {
        path: path.to_path_buf(),
        source,
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    std::fs::write(path, bytes).map_err(io)
}

/// A private key: readable by its owner only.
fn write_key(path: &Path, key: &PKey<Private>) -> Result<(), Sros2Error> {
    write(path, &key.private_key_to_pem_pkcs8()?)?;
    set_private(path).map_err(|source| Sros2Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(unix)]
fn set_private(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
}

#[cfg(not(unix))]
fn set_private(_path: &Path) -> std::io::Result<()> {
    Ok(())
}

/// A relative symbolic link `at -> target`, replacing what was there (a copy where links are
/// not available).
fn link(target: &str, at: &Path) -> Result<(), Sros2Error> {
    let io = |source| Sros2Error::Io {
        path: at.to_path_buf(),
        source,
    };
    if at.symlink_metadata().is_ok() {
        std::fs::remove_file(at).map_err(io)?;
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(target, at).map_err(io)
    }
    #[cfg(not(unix))]
    {
        let from = at.parent().unwrap_or(Path::new(".")).join(target);
        std::fs::copy(from, at).map(|_| ()).map_err(io)
    }
}
