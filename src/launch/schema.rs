//! The launch XML this runner accepts: each element's attributes and children. The whole
//! file is checked before it runs, so a typo inside a group that is off today still fails.

use roxmltree::Node as El;

use super::file::{File, LaunchError};

/// Action elements and the attributes and children each accepts.
fn schema(tag: &str) -> Option<(&'static [&'static str], Children)> {
    Some(match tag {
        "launch" => (&[], Children::Actions),
        "arg" => (
            &["name", "default", "description", "if", "unless"],
            Children::Only(&["choice"]),
        ),
        "let" | "set_env" => (&["name", "value", "if", "unless"], Children::None),
        "node" => (
            &[
                "pkg",
                "exec",
                "name",
                "namespace",
                "output",
                "args",
                "ros_args",
                "respawn",
                "respawn_delay",
                "if",
                "unless",
            ],
            Children::Only(&["param", "remap", "env"]),
        ),
        "group" => (&["scoped", "if", "unless"], Children::Actions),
        "push-ros-namespace" | "push_ros_namespace" => {
            (&["namespace", "if", "unless"], Children::None)
        }
        "include" => (&["file", "if", "unless"], Children::Only(&["arg"])),
        _ => return None,
    })
}

/// Elements that only appear inside another one, by parent.
fn inner_schema(parent: &str, tag: &str) -> Option<(&'static [&'static str], Children)> {
    Some(match (parent, tag) {
        ("arg", "choice") => (&["value"], Children::None),
        ("node" | "param", "param") => (&["name", "value", "from"], Children::Only(&["param"])),
        ("node", "remap") => (&["from", "to"], Children::None),
        ("node", "env") => (&["name", "value"], Children::None),
        ("include", "arg") => (&["name", "value"], Children::None),
        _ => return None,
    })
}

#[derive(Debug, Clone, Copy)]
enum Children {
    None,
    Actions,
    Only(&'static [&'static str]),
}

/// Checks tags, attributes and children of the whole tree.
pub(super) fn validate(f: &File, el: El, parent: Option<&str>) -> Result<(), LaunchError> {
    let tag = el.tag_name().name();
    let found = match parent {
        None => schema(tag),
        Some(p) => match schema(p) {
            Some((_, Children::Actions)) if tag != "launch" => schema(tag),
            _ => inner_schema(p, tag),
        },
    };
    let (attrs, children) = found.ok_or_else(|| match parent {
        Some(p) => f.err(el, format!("unknown tag <{tag}> in <{p}>")),
        None => f.err(el, format!("unknown tag <{tag}>")),
    })?;
    for a in el.attributes() {
        if !attrs.contains(&a.name()) {
            return Err(f.err(
                el,
                format!(
                    "unknown attribute {:?} of <{tag}> (known: {})",
                    a.name(),
                    attrs.join(", ")
                ),
            ));
        }
    }
    for c in el.children() {
        if c.is_text() && c.text().is_some_and(|t| !t.trim().is_empty()) {
            return Err(f.err(c, format!("unexpected text in <{tag}>")));
        }
        if !c.is_element() {
            continue;
        }
        let ok = match children {
            Children::None => false,
            Children::Actions => true,
            Children::Only(list) => list.contains(&c.tag_name().name()),
        };
        if !ok {
            return Err(f.err(
                c,
                format!("<{}> is not allowed in <{tag}>", c.tag_name().name()),
            ));
        }
        validate(f, c, Some(tag))?;
    }
    Ok(())
}
