//! The two XML documents of DDS Security's access control (OMG DDS Security 1.1, 9.4): the
//! domain governance and a participant's permissions, written as `ros2 security` writes them.

use std::fmt::Write;

use chrono::{DateTime, Utc};

use crate::policy::{Access, EnclavePolicy};

/// The domains the documents cover: 0 to 230, so one keystore serves any `ROS_DOMAIN_ID`
/// (sros2 writes the one of its environment). Cyclone DDS refuses a document naming a domain
/// above 230.
pub const DOMAINS: &str = "<id_range><min>0</min><max>230</max></id_range>";

// No XML declaration: Cyclone DDS's parser refuses one (as sros2 writes none).

/// The governance of sros2's template: no unauthenticated participant joins; discovery,
/// liveliness and every topic's data and metadata are encrypted; whole RTPS messages signed.
pub fn governance() -> String {
    format!(
        r#"<dds xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="http://www.omg.org/spec/DDS-SECURITY/20170901/omg_shared_ca_governance.xsd">
  <domain_access_rules>
    <domain_rule>
      <domains>{DOMAINS}</domains>
      <allow_unauthenticated_participants>false</allow_unauthenticated_participants>
      <enable_join_access_control>true</enable_join_access_control>
      <discovery_protection_kind>ENCRYPT</discovery_protection_kind>
      <liveliness_protection_kind>ENCRYPT</liveliness_protection_kind>
      <rtps_protection_kind>SIGN</rtps_protection_kind>
      <topic_access_rules>
        <topic_rule>
          <topic_expression>*</topic_expression>
          <enable_discovery_protection>true</enable_discovery_protection>
          <enable_liveliness_protection>true</enable_liveliness_protection>
          <enable_read_access_control>true</enable_read_access_control>
          <enable_write_access_control>true</enable_write_access_control>
          <metadata_protection_kind>ENCRYPT</metadata_protection_kind>
          <data_protection_kind>ENCRYPT</data_protection_kind>
        </topic_rule>
      </topic_access_rules>
    </domain_rule>
  </domain_access_rules>
</dds>
"#
    )
}

/// The permissions of one enclave, valid from `not_before` to `not_after`. DENY rules come
/// first (the first matching rule decides); `ros_discovery_info`, which the DDS layers of ROS 2
/// exchange for the graph, is always allowed, as in sros2.
pub fn permissions(
    policy: &EnclavePolicy,
    not_before: DateTime<Utc>,
    not_after: DateTime<Utc>,
) -> String {
    let mut rules = String::new();
    if !policy.deny.is_empty() {
        rule(&mut rules, "deny_rule", &policy.deny);
    }
    rule(&mut rules, "allow_rule", &policy.allow);
    let discovery = Access {
        publish: ["ros_discovery_info".to_string()].into(),
        subscribe: ["ros_discovery_info".to_string()].into(),
    };
    rule(&mut rules, "allow_rule", &discovery);
    let when = |t: DateTime<Utc>| t.format("%Y-%m-%dT%H:%M:%S").to_string();
    format!(
        r#"<dds xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="http://www.omg.org/spec/DDS-SECURITY/20170901/omg_shared_ca_permissions.xsd">
  <permissions>
    <grant name="{name}">
      <subject_name>CN={name}</subject_name>
      <validity>
        <not_before>{before}</not_before>
        <not_after>{after}</not_after>
      </validity>
{rules}      <default>DENY</default>
    </grant>
  </permissions>
</dds>
"#,
        name = escape(&policy.path),
        before = when(not_before),
        after = when(not_after),
    )
}

fn rule(out: &mut String, tag: &str, access: &Access) {
    let _ = writeln!(out, "      <{tag}>\n        <domains>{DOMAINS}</domains>");
    for (verb, topics) in [
        ("publish", &access.publish),
        ("subscribe", &access.subscribe),
    ] {
        if topics.is_empty() {
            continue;
        }
        let _ = writeln!(out, "        <{verb}>\n          <topics>");
        for t in topics {
            let _ = writeln!(out, "            <topic>{}</topic>", escape(t));
        }
        let _ = writeln!(out, "          </topics>\n        </{verb}>");
    }
    let _ = writeln!(out, "      </{tag}>");
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permissions_list_each_topic_once_with_deny_first() {
        let mut policy = EnclavePolicy {
            path: "/a/b".into(),
            allow: Access::default(),
            deny: Access::default(),
        };
        policy.allow.publish.insert("rt/x".into());
        policy.deny.subscribe.insert("rt/y".into());
        let t0 = DateTime::from_timestamp(0, 0).expect("epoch");
        let xml = permissions(&policy, t0, t0);
        assert!(xml.contains("<subject_name>CN=/a/b</subject_name>"));
        assert!(xml.contains("<not_before>1970-01-01T00:00:00</not_before>"));
        let deny = xml.find("<deny_rule>").expect("deny");
        let allow = xml.find("<allow_rule>").expect("allow");
        assert!(deny < allow);
        assert_eq!(xml.matches("<topic>rt/x</topic>").count(), 1);
        assert_eq!(xml.matches("ros_discovery_info").count(), 2);
        roxmltree::Document::parse(&xml).expect("well-formed");
        roxmltree::Document::parse(&governance()).expect("well-formed");
    }
}
