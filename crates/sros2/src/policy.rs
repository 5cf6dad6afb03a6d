//! sros2's policy format (version 0.2.0) turned into DDS topic names, as sros2's
//! `policy_to_permissions` transform does: a topic `/a` is `rt/a`; a service `/s` is the
//! request topic `rq/sRequest` and the reply topic `rr/sReply`; an action `/x` is its three
//! services under `/x/_action/` and its `feedback` and `status` topics.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use roxmltree::{Document, Node};

use crate::Sros2Error;

const XINCLUDE: &str = "http://www.w3.org/2001/XInclude";

/// The DDS topics an enclave may (or may not) write and read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Access {
    pub publish: BTreeSet<String>,
    pub subscribe: BTreeSet<String>,
}

impl Access {
    pub fn is_empty(&self) -> bool {
        self.publish.is_empty() && self.subscribe.is_empty()
    }
}

/// One enclave of the policy, its profiles merged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnclavePolicy {
    /// Such as `/checkers/arbiter`.
    pub path: String,
    pub allow: Access,
    pub deny: Access,
}

/// Reads a policy file, following `xi:include` (relative to the including file).
pub fn load(path: &Path) -> Result<Vec<EnclavePolicy>, Sros2Error> {
    let text = read(path)?;
    let doc = parse(path, &text)?;
    let root = doc.root_element();
    if root.tag_name().name() != "policy" {
        return Err(bad(path, "the root element is not <policy>"));
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut out = Vec::new();
    for enclave in elements(root, "enclaves").flat_map(|e| elements(e, "enclave")) {
        let name = enclave
            .attribute("path")
            .ok_or_else(|| bad(path, "an <enclave> has no path"))?;
        let mut policy = EnclavePolicy {
            path: name.to_string(),
            allow: Access::default(),
            deny: Access::default(),
        };
        for profile in elements(enclave, "profiles").flat_map(|p| elements(p, "profile")) {
            let ns = profile.attribute("ns").unwrap_or("/");
            let node = profile.attribute("node").unwrap_or("*");
            for item in profile.children().filter(Node::is_element) {
                if item.tag_name().namespace() == Some(XINCLUDE) {
                    let (file, included) = include(dir, path, item)?;
                    let idoc = parse(&file, &included)?;
                    for inner in idoc.root_element().children().filter(Node::is_element) {
                        rule(&file, inner, ns, node, &mut policy)?;
                    }
                } else {
                    rule(path, item, ns, node, &mut policy)?;
                }
            }
        }
        out.push(policy);
    }
    if out.is_empty() {
        return Err(bad(path, "it defines no enclave"));
    }
    Ok(out)
}

fn read(path: &Path) -> Result<String, Sros2Error> {
    std::fs::read_to_string(path).map_err(|source| Sros2Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

fn parse<'a>(path: &Path, text: &'a str) -> Result<Document<'a>, Sros2Error> {
    Document::parse(text).map_err(|e| bad(path, &e.to_string()))
}

fn bad(path: &Path, why: &str) -> Sros2Error {
    Sros2Error::Policy {
        path: path.to_path_buf(),
        why: why.to_string(),
    }
}

fn elements<'a, 'i>(parent: Node<'a, 'i>, tag: &'static str) -> impl Iterator<Item = Node<'a, 'i>> {
    parent
        .children()
        .filter(move |c| c.is_element() && c.tag_name().name() == tag)
}

/// The text of an `xi:include`d profile. Only the form of sros2's samples is understood: the
/// children of the included file's root `<profile>`.
fn include(dir: &Path, from: &Path, el: Node) -> Result<(PathBuf, String), Sros2Error> {
    if el.tag_name().name() != "include" {
        return Err(bad(from, "only xi:include is understood"));
    }
    match el.attribute("xpointer") {
        None | Some("xpointer(/profile/*)") => {}
        Some(other) => return Err(bad(from, &format!("xpointer {other:?} is not understood"))),
    }
    let href = el
        .attribute("href")
        .ok_or_else(|| bad(from, "an xi:include has no href"))?;
    let file = dir.join(href);
    let text = read(&file)?;
    Ok((file, text))
}

#[derive(Clone, Copy)]
enum Verb {
    Publish,
    Subscribe,
}

/// A DDS topic of a rule: prefix, suffix, and what the enclave does with it.
type Part = (&'static str, &'static str, Verb);
/// A rule's attribute (`publish`, `reply`, ...) and the DDS topics it grants.
type Role = (&'static str, &'static [Part]);

fn rule(
    file: &Path,
    el: Node,
    ns: &str,
    node: &str,
    out: &mut EnclavePolicy,
) -> Result<(), Sros2Error> {
    let kind = el.tag_name().name();
    let (child, roles): (&str, &[Role]) = match kind {
        "topics" => (
            "topic",
            &[
                ("publish", &[("rt", "", Verb::Publish)]),
                ("subscribe", &[("rt", "", Verb::Subscribe)]),
            ],
        ),
        "services" => (
            "service",
            &[
                (
                    "reply",
                    &[
                        ("rq", "Request", Verb::Subscribe),
                        ("rr", "Reply", Verb::Publish),
                    ],
                ),
                (
                    "request",
                    &[
                        ("rq", "Request", Verb::Publish),
                        ("rr", "Reply", Verb::Subscribe),
                    ],
                ),
            ],
        ),
        "actions" => ("action", &[("call", &[]), ("execute", &[])]),
        other => return Err(bad(file, &format!("<{other}> is not a policy rule"))),
    };
    for (role, topics) in roles {
        let Some(mode) = el.attribute(*role) else {
            continue;
        };
        let access = match mode {
            "ALLOW" => &mut out.allow,
            "DENY" => &mut out.deny,
            other => {
                return Err(bad(
                    file,
                    &format!("{role}={other:?}: expected ALLOW or DENY"),
                ))
            }
        };
        for name in elements(el, child) {
            let text = name.text().unwrap_or("").trim();
            let fqn = resolve(text, ns, node).map_err(|why| bad(file, &why.to_string()))?;
            if kind == "actions" {
                action(&fqn, *role == "call", access);
                continue;
            }
            for (prefix, suffix, verb) in *topics {
                let topic = format!("{prefix}{fqn}{suffix}");
                match verb {
                    Verb::Publish => access.publish.insert(topic),
                    Verb::Subscribe => access.subscribe.insert(topic),
                };
            }
        }
    }
    Ok(())
}

/// An action's DDS topics: the client requests on its three services and reads the feedback
/// and status; the server does the opposite.
fn action(fqn: &str, client: bool, access: &mut Access) {
    let (mine, theirs) = if client {
        (&mut access.publish, &mut access.subscribe)
    } else {
        (&mut access.subscribe, &mut access.publish)
    };
    for service in ["send_goal", "cancel_goal", "get_result"] {
        mine.insert(format!("rq{fqn}/_action/{service}Request"));
        theirs.insert(format!("rr{fqn}/_action/{service}Reply"));
    }
    for topic in ["feedback", "status"] {
        theirs.insert(format!("rt{fqn}/_action/{topic}"));
    }
}

/// Why a name in a policy is not a ROS name.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
enum NameError {
    #[error("an empty name")]
    Empty,
    #[error("{0:?} is not a valid name")]
    Invalid(String),
}

/// The fully qualified name: absolute names stay, `~` is the node's own, others are relative
/// to the profile's namespace.
fn resolve(name: &str, ns: &str, node: &str) -> Result<String, NameError> {
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    let ns = ns.trim_end_matches('/');
    let full = if name.starts_with('/') {
        name.to_string()
    } else if let Some(rest) = name.strip_prefix('~') {
        format!("{ns}/{node}{rest}")
    } else {
        format!("{ns}/{name}")
    };
    if full.contains("//") || full.ends_with('/') {
        return Err(NameError::Invalid(name.to_string()));
    }
    Ok(full)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_like_sros2() {
        assert_eq!(
            resolve("/game/state", "/", "x").as_deref(),
            Ok("/game/state")
        );
        assert_eq!(resolve("chatter", "/ns", "x").as_deref(), Ok("/ns/chatter"));
        assert_eq!(
            resolve("~/get_parameters", "/", "arm").as_deref(),
            Ok("/arm/get_parameters")
        );
        assert!(resolve("a//b", "/", "x").is_err());
    }

    #[test]
    fn the_repository_policy_gives_each_node_only_its_own_topics() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/security/policy.xml");
        let enclaves = load(&path).expect("policy");
        let get = |name: &str| {
            enclaves
                .iter()
                .find(|e| e.path == name)
                .unwrap_or_else(|| panic!("{name} in the policy"))
        };
        let arbiter = get("/checkers/arbiter");
        assert!(arbiter
            .allow
            .publish
            .contains("rq/arm/execute/_action/send_goalRequest"));
        assert!(arbiter
            .allow
            .subscribe
            .contains("rt/arm/execute/_action/feedback"));
        assert!(arbiter.allow.subscribe.contains("rq/game/newRequest"));
        assert!(arbiter.allow.publish.contains("rr/game/newReply"));
        assert!(arbiter.allow.publish.contains("rt/rosout"));
        assert!(arbiter
            .allow
            .subscribe
            .contains("rq/arbiter/get_parametersRequest"));
        let arm = get("/checkers/arm");
        assert!(arm
            .allow
            .subscribe
            .contains("rq/arm/execute/_action/send_goalRequest"));
        assert!(arm.allow.publish.contains("rt/arm/execute/_action/status"));
        // Only the arbiter may send the arm and the planner goals.
        for e in &enclaves {
            let sends = e.allow.publish.iter().any(|t| {
                t == "rq/arm/execute/_action/send_goalRequest"
                    || t == "rq/planner/plan/_action/send_goalRequest"
            });
            assert_eq!(sends, e.path == "/checkers/arbiter", "{}", e.path);
            let field = e.allow.publish.contains("rt/board/occupancy");
            assert_eq!(field, e.path == "/checkers/board_sensor", "{}", e.path);
        }
        let viewer = get("/checkers/viewer");
        assert!(viewer.allow.subscribe.contains("rt/joint_states"));
        assert!(!viewer
            .allow
            .publish
            .iter()
            .any(|t| t.starts_with("rq/game/")));
    }
}
