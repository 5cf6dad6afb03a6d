//! `check_urdf`-style validation of a parsed URDF: what urdf-rs does not check and what would
//! make `k` panic or rviz show a broken tree.

use std::collections::{BTreeMap, BTreeSet};

use thiserror::Error;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum UrdfError {
    #[error("URDF does not parse: {0}")]
    Parse(String),
    #[error("two links are named {0}")]
    DuplicateLink(String),
    #[error("two joints are named {0}")]
    DuplicateJoint(String),
    #[error("joint {joint} names {role} link {link}, which does not exist")]
    MissingLink {
        joint: String,
        role: &'static str,
        link: String,
    },
    #[error("link {0} is the child of more than one joint")]
    TwoParents(String),
    #[error("the tree must have exactly one root link, has {0:?}")]
    Roots(Vec<String>),
    #[error("links {0:?} are not reachable from the root (a cycle)")]
    Unreachable(Vec<String>),
    #[error("joint {joint} mimics {target}, which does not exist")]
    MissingMimic { joint: String, target: String },
    #[error("joint {joint} mimics {target}, itself a mimic joint")]
    ChainedMimic { joint: String, target: String },
    #[error("joint {0} is movable but has no usable limits")]
    NoLimits(String),
}

/// The root link's name, when the URDF forms one tree with consistent joints and mimics.
pub fn validate(robot: &urdf_rs::Robot) -> Result<String, UrdfError> {
    let mut links = BTreeSet::new();
    for l in &robot.links {
        if !links.insert(l.name.as_str()) {
            return Err(UrdfError::DuplicateLink(l.name.clone()));
        }
    }
    let mut joints = BTreeMap::new();
    let mut parent_of = BTreeMap::new();
    let mut children: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for j in &robot.joints {
        if joints.insert(j.name.as_str(), j).is_some() {
            return Err(UrdfError::DuplicateJoint(j.name.clone()));
        }
        for (role, link) in [("parent", &j.parent.link), ("child", &j.child.link)] {
            if !links.contains(link.as_str()) {
                return Err(UrdfError::MissingLink {
                    joint: j.name.clone(),
                    role,
                    link: link.clone(),
                });
            }
        }
        if parent_of
            .insert(j.child.link.as_str(), j.parent.link.as_str())
            .is_some()
        {
            return Err(UrdfError::TwoParents(j.child.link.clone()));
        }
        children
            .entry(j.parent.link.as_str())
            .or_default()
            .push(j.child.link.as_str());
        let movable = !matches!(j.joint_type, urdf_rs::JointType::Fixed);
        let continuous = matches!(j.joint_type, urdf_rs::JointType::Continuous);
        let ordered = j.limit.lower.partial_cmp(&j.limit.upper) == Some(std::cmp::Ordering::Less);
        if movable && !continuous && !ordered {
            return Err(UrdfError::NoLimits(j.name.clone()));
        }
    }
    let roots: Vec<String> = links
        .iter()
        .filter(|l| !parent_of.contains_key(*l))
        .map(|l| l.to_string())
        .collect();
    let [root] = roots.as_slice() else {
        return Err(UrdfError::Roots(roots));
    };
    // Every link has at most one parent, so a walk from the root that misses links means
    // those links hang in a cycle.
    let mut seen = BTreeSet::new();
    let mut stack = vec![root.as_str()];
    while let Some(l) = stack.pop() {
        if seen.insert(l) {
            stack.extend(children.get(l).into_iter().flatten());
        }
    }
    if seen.len() != links.len() {
        let lost = links
            .difference(&seen)
            .map(|l| l.to_string())
            .collect::<Vec<_>>();
        return Err(UrdfError::Unreachable(lost));
    }
    for j in &robot.joints {
        if let Some(m) = &j.mimic {
            let target = joints
                .get(m.joint.as_str())
                .ok_or(UrdfError::MissingMimic {
                    joint: j.name.clone(),
                    target: m.joint.clone(),
                })?;
            if target.mimic.is_some() {
                return Err(UrdfError::ChainedMimic {
                    joint: j.name.clone(),
                    target: m.joint.clone(),
                });
            }
        }
    }
    Ok(root.clone())
}

/// Parses and validates URDF text.
pub fn parse(text: &str) -> Result<urdf_rs::Robot, UrdfError> {
    let robot = urdf_rs::read_from_string(text).map_err(|e| UrdfError::Parse(e.to_string()))?;
    validate(&robot)?;
    Ok(robot)
}
