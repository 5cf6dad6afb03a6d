//! ROS 2 name expansion and remapping, as rcl does it: relative names live in the node's
//! namespace, `~` names under the node itself, and remap rules match fully qualified names.

/// A fully qualified name for `name` used by node `node` in namespace `ns` (`/` or `/a/b`).
pub fn expand(name: &str, ns: &str, node: &str) -> String {
    let ns = ns.trim_end_matches('/');
    if let Some(rest) = name.strip_prefix('~') {
        let rest = rest.trim_start_matches('/');
        let base = format!("{ns}/{node}");
        return if rest.is_empty() {
            base
        } else {
            format!("{base}/{rest}")
        };
    }
    if name.starts_with('/') {
        return name.to_string();
    }
    format!("{ns}/{name}")
}

/// Whether `name` is a valid ROS 2 topic or service name (before expansion).
pub fn is_valid(name: &str) -> bool {
    if name.is_empty() || name.ends_with('/') && name != "/" || name.contains("//") {
        return false;
    }
    let body = name.strip_prefix('~').unwrap_or(name);
    let mut first = true;
    for token in body.split('/').filter(|t| !t.is_empty()) {
        let starts_ok = token
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || (!first && c.is_ascii_digit()));
        if !starts_ok && !token.chars().all(|c| c.is_ascii_digit()) {
            return false;
        }
        if !token.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return false;
        }
        first = false;
    }
    true
}

/// Whether `name` is a valid node name (no slashes, starts with a letter or `_`).
pub fn is_valid_node_name(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether `ns` is a valid absolute namespace (`/` or `/a/b`).
pub fn is_valid_namespace(ns: &str) -> bool {
    ns == "/" || (ns.starts_with('/') && !ns.ends_with('/') && is_valid(ns))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_like_rcl() {
        assert_eq!(expand("chatter", "/", "talker"), "/chatter");
        assert_eq!(expand("chatter", "/robot", "talker"), "/robot/chatter");
        assert_eq!(expand("/abs", "/robot", "talker"), "/abs");
        assert_eq!(
            expand("~/private", "/robot", "talker"),
            "/robot/talker/private"
        );
        assert_eq!(expand("~", "/", "talker"), "/talker");
    }

    #[test]
    fn validates_names() {
        assert!(is_valid("/game/state"));
        assert!(is_valid("game/state"));
        assert!(is_valid("~/x"));
        assert!(!is_valid("game//state"));
        assert!(!is_valid("game state"));
        assert!(!is_valid("/9lives"));
        assert!(is_valid_node_name("arbiter"));
        assert!(!is_valid_node_name("9arbiter"));
        assert!(!is_valid_node_name("a/b"));
        assert!(is_valid_namespace("/"));
        assert!(is_valid_namespace("/robot/left"));
        assert!(!is_valid_namespace("robot"));
        assert!(!is_valid_namespace("/robot/"));
    }
}
