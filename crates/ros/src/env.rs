//! The environment variables rcl reads: the DDS domain, how far discovery may reach, and DDS
//! Security.

use thiserror::Error;

use crate::security::SecurityEnv;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EnvError {
    #[error("ROS_DOMAIN_ID={0:?} is not a domain id (0..=232)")]
    DomainId(String),
    #[error(
        "ROS_AUTOMATIC_DISCOVERY_RANGE={0:?}: expected SUBNET, LOCALHOST, OFF or SYSTEM_DEFAULT"
    )]
    DiscoveryRange(String),
}

/// How far automatic discovery reaches (Jazzy's `ROS_AUTOMATIC_DISCOVERY_RANGE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiscoveryRange {
    Subnet,
    Localhost,
    Off,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RosEnv {
    pub domain_id: u16,
    pub discovery: DiscoveryRange,
    /// DDS Security (SROS2); `None` unless `ROS_SECURITY_ENABLE=true`.
    pub security: Option<SecurityEnv>,
}

impl RosEnv {
    /// Reads the process environment.
    pub fn from_env() -> Result<RosEnv, EnvError> {
        RosEnv::from_lookup(|k| std::env::var(k).ok())
    }

    /// Reads settings through `get`, so tests need not touch the process environment.
    /// `ROS_AUTOMATIC_DISCOVERY_RANGE` wins over the older `ROS_LOCALHOST_ONLY=1`, as in Jazzy.
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<RosEnv, EnvError> {
        let domain_id = match get("ROS_DOMAIN_ID").map(|s| s.trim().to_string()) {
            None => 0,
            Some(s) if s.is_empty() => 0,
            Some(s) => match s.parse::<u16>() {
                Ok(d) if d <= 232 => d,
                _ => return Err(EnvError::DomainId(s)),
            },
        };
        let range = get("ROS_AUTOMATIC_DISCOVERY_RANGE").map(|s| s.trim().to_ascii_uppercase());
        let discovery = match range.as_deref() {
            Some("LOCALHOST") => DiscoveryRange::Localhost,
            Some("OFF") => DiscoveryRange::Off,
            Some("SUBNET") => DiscoveryRange::Subnet,
            Some("") | Some("SYSTEM_DEFAULT") | None => {
                if get("ROS_LOCALHOST_ONLY").is_some_and(|v| v.trim() == "1") {
                    DiscoveryRange::Localhost
                } else {
                    DiscoveryRange::Subnet
                }
            }
            Some(other) => return Err(EnvError::DiscoveryRange(other.to_string())),
        };
        let security = SecurityEnv::from_lookup(&get);
        Ok(RosEnv {
            domain_id,
            discovery,
            security,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> Result<RosEnv, EnvError> {
        let m: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        RosEnv::from_lookup(|k| m.get(k).cloned())
    }

    #[test]
    fn reads_domain_and_range() {
        assert_eq!(env(&[]).expect("defaults").domain_id, 0);
        assert_eq!(env(&[("ROS_DOMAIN_ID", "7")]).expect("7").domain_id, 7);
        assert!(env(&[("ROS_DOMAIN_ID", "x")]).is_err());
        assert!(env(&[("ROS_DOMAIN_ID", "300")]).is_err());
        assert_eq!(
            env(&[("ROS_LOCALHOST_ONLY", "1")])
                .expect("old style")
                .discovery,
            DiscoveryRange::Localhost
        );
        assert_eq!(
            env(&[("ROS_AUTOMATIC_DISCOVERY_RANGE", "localhost")])
                .expect("new style")
                .discovery,
            DiscoveryRange::Localhost
        );
        assert_eq!(
            env(&[
                ("ROS_AUTOMATIC_DISCOVERY_RANGE", "SUBNET"),
                ("ROS_LOCALHOST_ONLY", "1")
            ])
            .expect("range wins")
            .discovery,
            DiscoveryRange::Subnet
        );
    }
}
