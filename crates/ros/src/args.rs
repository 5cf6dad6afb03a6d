//! The ROS part of a node's command line, read as rcl reads it: sections from `--ros-args` to
//! `--` (or the end), holding `-r/--remap [node:]from:=to` (with `__node`/`__name` and `__ns`),
//! `-p/--param name:=value`, `--params-file FILE`, `--log-level [logger:=]LEVEL`, `-e/--enclave`
//! and the rosout/stdout log switches. Everything outside those sections is the program's own.

use std::path::PathBuf;

use thiserror::Error;

use crate::names;
use crate::params::{load_params_file, ParamValue, Params, ParamsError};

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ArgsError {
    #[error("{flag} needs a value")]
    MissingValue { flag: String },
    #[error("malformed remap rule {0:?}: expected [node:]from:=to")]
    Remap(String),
    #[error("malformed parameter rule {0:?}: expected name:=value")]
    Param(String),
    #[error("invalid node name {0:?}")]
    NodeName(String),
    #[error("invalid namespace {0:?}: it must be absolute, like /robot")]
    Namespace(String),
    #[error("unknown ROS argument {0:?}")]
    Unknown(String),
}

/// One remap rule, optionally limited to the node whose original name is `node`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Remap {
    pub node: Option<String>,
    pub from: String,
    pub to: String,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct RosArgs {
    pub remaps: Vec<Remap>,
    /// `-p` overrides in command-line order.
    pub params: Vec<(String, ParamValue)>,
    pub params_files: Vec<PathBuf>,
    pub log_levels: Vec<(Option<String>, String)>,
    pub enclave: Option<String>,
    pub rosout_logs: bool,
    pub stdout_logs: bool,
    /// Arguments outside `--ros-args` sections, the program name first.
    pub user_args: Vec<String>,
}

impl RosArgs {
    /// Parses the process's own arguments.
    pub fn from_env() -> Result<RosArgs, ArgsError> {
        RosArgs::parse(std::env::args())
    }

    pub fn parse<I, S>(args: I) -> Result<RosArgs, ArgsError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut out = RosArgs {
            rosout_logs: true,
            stdout_logs: true,
            ..RosArgs::default()
        };
        let mut it = args.into_iter().map(Into::into);
        let mut in_ros = false;
        while let Some(arg) = it.next() {
            if !in_ros {
                if arg == "--ros-args" {
                    in_ros = true;
                } else {
                    out.user_args.push(arg);
                }
                continue;
            }
            let mut value = |flag: &str| {
                it.next().ok_or_else(|| ArgsError::MissingValue {
                    flag: flag.to_string(),
                })
            };
            match arg.as_str() {
                "--" => in_ros = false,
                "--ros-args" => {}
                "-r" | "--remap" => out.remaps.push(parse_remap(&value(&arg)?)?),
                "-p" | "--param" => {
                    let rule = value(&arg)?;
                    let (name, v) = rule
                        .split_once(":=")
                        .filter(|(n, _)| !n.is_empty())
                        .ok_or_else(|| ArgsError::Param(rule.clone()))?;
                    out.params
                        .push((name.to_string(), ParamValue::from_yaml_text(v)));
                }
                "--params-file" => out.params_files.push(PathBuf::from(value(&arg)?)),
                "--log-level" => {
                    let rule = value(&arg)?;
                    out.log_levels.push(match rule.split_once(":=") {
                        Some((logger, level)) => (Some(logger.to_string()), level.to_string()),
                        None => (None, rule),
                    });
                }
                "-e" | "--enclave" => out.enclave = Some(value(&arg)?),
                "--enable-rosout-logs" => out.rosout_logs = true,
                "--disable-rosout-logs" => out.rosout_logs = false,
                "--enable-stdout-logs" => out.stdout_logs = true,
                "--disable-stdout-logs" => out.stdout_logs = false,
                "--enable-external-lib-logs" | "--disable-external-lib-logs" => {}
                "--log-file-name" => {
                    value(&arg)?;
                }
                other => return Err(ArgsError::Unknown(other.to_string())),
            }
        }
        Ok(out)
    }

    /// The node's name after `__node`/`__name` remaps (the last that applies wins).
    pub fn node_name(&self, default: &str) -> String {
        self.special(default, &["__node", "__name"])
            .unwrap_or_else(|| default.to_string())
    }

    /// The node's namespace after `__ns` remaps, always absolute.
    pub fn namespace(&self, original_node: &str, default: &str) -> String {
        let ns = self
            .special(original_node, &["__ns"])
            .unwrap_or_else(|| default.to_string());
        if ns.starts_with('/') {
            ns
        } else {
            format!("/{ns}")
        }
    }

    fn special(&self, original_node: &str, keys: &[&str]) -> Option<String> {
        self.remaps
            .iter()
            .rfind(|r| {
                keys.contains(&r.from.as_str())
                    && r.node.as_deref().is_none_or(|n| n == original_node)
            })
            .map(|r| r.to.clone())
    }

    /// Checks the special remaps: a valid node name and an absolute, valid namespace.
    pub fn validate(&self, original_node: &str) -> Result<(), ArgsError> {
        let name = self.node_name(original_node);
        if !names::is_valid_node_name(&name) {
            return Err(ArgsError::NodeName(name));
        }
        if let Some(ns) = self.special(original_node, &["__ns"]) {
            if !names::is_valid_namespace(&ns) {
                return Err(ArgsError::Namespace(ns));
            }
        }
        Ok(())
    }

    /// The fully qualified name a topic or service `name` resolves to for this node: expanded,
    /// then remapped by the first rule that matches (rcl's order).
    pub fn resolve(&self, name: &str, original_node: &str, node: &str, ns: &str) -> String {
        let fqn = names::expand(name, ns, node);
        for r in &self.remaps {
            if r.from.starts_with("__") {
                continue;
            }
            if r.node
                .as_deref()
                .is_some_and(|n| n != original_node && n != node)
            {
                continue;
            }
            if names::expand(&r.from, ns, node) == fqn {
                return names::expand(&r.to, ns, node);
            }
        }
        fqn
    }

    /// The node's parameter overrides: params files in order, then `-p` rules.
    pub fn overrides(&self, node_fqn: &str) -> Result<Vec<(String, ParamValue)>, ParamsError> {
        let mut out = Vec::new();
        for f in &self.params_files {
            out.extend(load_params_file(f, node_fqn)?);
        }
        out.extend(self.params.iter().cloned());
        Ok(out)
    }

    /// The node's parameters, ready for declarations.
    pub fn params(&self, node_fqn: &str) -> Result<Params, ParamsError> {
        Ok(Params::with_overrides(self.overrides(node_fqn)?))
    }
}

fn parse_remap(rule: &str) -> Result<Remap, ArgsError> {
    let bad = || ArgsError::Remap(rule.to_string());
    let (lhs, to) = rule.split_once(":=").ok_or_else(bad)?;
    let (node, from) = match lhs.split_once(':') {
        Some((n, f)) => (Some(n.to_string()), f),
        None => (None, lhs),
    };
    if from.is_empty() || to.is_empty() {
        return Err(bad());
    }
    if !from.starts_with("__") && (!names::is_valid(from) || !names::is_valid(to)) {
        return Err(bad());
    }
    Ok(Remap {
        node,
        from: from.to_string(),
        to: to.to_string(),
    })
}
