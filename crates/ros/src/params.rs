//! Parameters as rcl and rclcpp treat them: values typed by YAML, params files with node
//! selectors (`/**`, `node`, `/ns/node`, `*` and `**` wildcards) and `ros__parameters`,
//! nested keys joined with dots; files apply in order, then `-p` overrides win.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde_yaml::Value;
use thiserror::Error;

/// A parameter value, with the types ROS 2 parameters have.
#[derive(Debug, Clone, PartialEq)]
pub enum ParamValue {
    Bool(bool),
    Integer(i64),
    Double(f64),
    String(String),
    BoolArray(Vec<bool>),
    IntegerArray(Vec<i64>),
    DoubleArray(Vec<f64>),
    StringArray(Vec<String>),
}

impl ParamValue {
    pub fn type_name(&self) -> &'static str {
        match self {
            ParamValue::Bool(_) => "bool",
            ParamValue::Integer(_) => "integer",
            ParamValue::Double(_) => "double",
            ParamValue::String(_) => "string",
            ParamValue::BoolArray(_) => "bool array",
            ParamValue::IntegerArray(_) => "integer array",
            ParamValue::DoubleArray(_) => "double array",
            ParamValue::StringArray(_) => "string array",
        }
    }

    /// Reads a value as `-p name:=value` does: as YAML, so `3` is an integer, `3.0` a double,
    /// `true` a bool, `[1, 2]` an integer array, anything else a string.
    pub fn from_yaml_text(text: &str) -> ParamValue {
        match serde_yaml::from_str::<Value>(text) {
            Ok(v) => ParamValue::from_yaml(&v).unwrap_or_else(|| ParamValue::String(text.into())),
            Err(_) => ParamValue::String(text.to_string()),
        }
    }

    /// A YAML value as a parameter; `None` for mappings, nulls and mixed arrays.
    pub fn from_yaml(v: &Value) -> Option<ParamValue> {
        Some(match v {
            Value::Bool(b) => ParamValue::Bool(*b),
            Value::Number(n) => match n.as_i64() {
                Some(i) => ParamValue::Integer(i),
                None => ParamValue::Double(n.as_f64()?),
            },
            Value::String(s) => ParamValue::String(s.clone()),
            Value::Sequence(items) => {
                let scalars: Option<Vec<ParamValue>> =
                    items.iter().map(ParamValue::from_yaml).collect();
                array_of(scalars?)?
            }
            Value::Tagged(t) => ParamValue::from_yaml(&t.value)?,
            Value::Null | Value::Mapping(_) => return None,
        })
    }
}

/// Scalars of one type as an array (integers widen to doubles when mixed with them).
fn array_of(items: Vec<ParamValue>) -> Option<ParamValue> {
    use ParamValue as P;
    if items.iter().all(|v| matches!(v, P::Bool(_))) {
        return Some(P::BoolArray(
            items
                .iter()
                .filter_map(|v| match v {
                    P::Bool(b) => Some(*b),
                    _ => None,
                })
                .collect(),
        ));
    }
    if items.iter().all(|v| matches!(v, P::Integer(_))) {
        return Some(P::IntegerArray(
            items
                .iter()
                .filter_map(|v| match v {
                    P::Integer(i) => Some(*i),
                    _ => None,
                })
                .collect(),
        ));
    }
    if items
        .iter()
        .all(|v| matches!(v, P::Integer(_) | P::Double(_)))
    {
        return Some(P::DoubleArray(
            items
                .iter()
                .filter_map(|v| match v {
                    P::Integer(i) => Some(*i as f64),
                    P::Double(d) => Some(*d),
                    _ => None,
                })
                .collect(),
        ));
    }
    if items.iter().all(|v| matches!(v, P::String(_))) {
        return Some(P::StringArray(
            items
                .iter()
                .filter_map(|v| match v {
                    P::String(s) => Some(s.clone()),
                    _ => None,
                })
                .collect(),
        ));
    }
    None
}

impl ParamValue {
    /// The value as a level file or a spec string writes it: a string without quotes.
    pub fn text(&self) -> String {
        match self {
            ParamValue::String(s) => s.clone(),
            ParamValue::Double(d) => d.to_string(),
            other => other.to_string(),
        }
    }
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Bool(b) => write!(f, "{b}"),
            ParamValue::Integer(i) => write!(f, "{i}"),
            ParamValue::Double(d) => write!(f, "{d:?}"),
            ParamValue::String(s) => write!(f, "{s:?}"),
            ParamValue::BoolArray(v) => write!(f, "{v:?}"),
            ParamValue::IntegerArray(v) => write!(f, "{v:?}"),
            ParamValue::DoubleArray(v) => write!(f, "{v:?}"),
            ParamValue::StringArray(v) => write!(f, "{v:?}"),
        }
    }
}

#[derive(Debug, Error)]
pub enum ParamsError {
    #[error("cannot read params file {path}: {why}")]
    File { path: String, why: String },
    #[error("params file {path}: {why}")]
    // Boxed: every error of the ROS layer (RosError) would otherwise carry its size.
    Format {
        path: String,
        why: Box<FileFormatError>,
    },
    #[error("parameter {name}: expected {expected}, got {value} ({got})")]
    Type {
        name: String,
        expected: &'static str,
        value: String,
        got: &'static str,
    },
    #[error("parameter {name} = {value}: {why}")]
    Invalid {
        name: String,
        value: String,
        why: String,
    },
}

/// What is wrong with a params file's text.
#[derive(Debug, Error)]
pub enum FileFormatError {
    #[error(transparent)]
    Yaml(#[from] serde_yaml::Error),
    #[error("the top level must be a mapping of node names")]
    TopLevel,
    /// `key` as YAML shows it.
    #[error("node key {key} is not a string")]
    NodeKey { key: String },
    #[error("{node}: expected a mapping with ros__parameters")]
    NodeBody { node: String },
    /// `key` as YAML shows it.
    #[error("{node}: key {key} is not a string")]
    Key { node: String, key: String },
    #[error("{node}: ros__parameters must be a mapping")]
    Parameters { node: String },
    /// `name` as YAML shows it.
    #[error("{node}: parameter name {name} is not a string")]
    Name { node: String, name: String },
    /// `value` as YAML shows it.
    #[error("{node}: parameter {name} has an unsupported value {value}")]
    Value {
        node: String,
        name: String,
        value: String,
    },
}

/// Overrides from params files for the node `node_fqn` (`/ns/name`), in file order.
pub fn load_params_file(
    path: &Path,
    node_fqn: &str,
) -> Result<Vec<(String, ParamValue)>, ParamsError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| ParamsError::File {
        path: shown.clone(),
        why: e.to_string(),
    })?;
    params_from_yaml(&text, node_fqn).map_err(|why| ParamsError::Format {
        path: shown,
        why: Box::new(why),
    })
}

/// The overrides a params file's text gives the node `node_fqn`.
pub fn params_from_yaml(
    text: &str,
    node_fqn: &str,
) -> Result<Vec<(String, ParamValue)>, FileFormatError> {
    let doc: Value = serde_yaml::from_str(text)?;
    let Value::Mapping(top) = doc else {
        return Err(FileFormatError::TopLevel);
    };
    let mut out = Vec::new();
    for (key, body) in &top {
        let Some(key) = key.as_str() else {
            return Err(FileFormatError::NodeKey {
                key: format!("{key:?}"),
            });
        };
        collect_node(key, body, node_fqn, &mut out)?;
    }
    Ok(out)
}

/// A node key's block: either `ros__parameters` directly, or a namespace level holding further
/// node keys (rcl accepts `ns: { node: { ros__parameters: ... } }`).
fn collect_node(
    key: &str,
    body: &Value,
    node_fqn: &str,
    out: &mut Vec<(String, ParamValue)>,
) -> Result<(), FileFormatError> {
    let Value::Mapping(m) = body else {
        return Err(FileFormatError::NodeBody { node: key.into() });
    };
    for (k, v) in m {
        let Some(k) = k.as_str() else {
            return Err(FileFormatError::Key {
                node: key.into(),
                key: format!("{k:?}"),
            });
        };
        if k == "ros__parameters" {
            if selector_matches(key, node_fqn) {
                flatten("", v, key, out)?;
            }
        } else {
            collect_node(
                &format!("{}/{k}", key.trim_end_matches('/')),
                v,
                node_fqn,
                out,
            )?;
        }
    }
    Ok(())
}

fn flatten(
    prefix: &str,
    v: &Value,
    key: &str,
    out: &mut Vec<(String, ParamValue)>,
) -> Result<(), FileFormatError> {
    let Value::Mapping(m) = v else {
        return Err(FileFormatError::Parameters { node: key.into() });
    };
    for (k, v) in m {
        let name = match k {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            other => {
                return Err(FileFormatError::Name {
                    node: key.into(),
                    name: format!("{other:?}"),
                })
            }
        };
        let full = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}.{name}")
        };
        match v {
            Value::Mapping(_) => flatten(&full, v, key, out)?,
            _ => match ParamValue::from_yaml(v) {
                Some(p) => out.push((full, p)),
                None => {
                    return Err(FileFormatError::Value {
                        node: key.into(),
                        name: full,
                        value: format!("{v:?}"),
                    })
                }
            },
        }
    }
    Ok(())
}

/// rcl's node-key matching: a key without a leading `/` is rooted; `*` matches one name token,
/// `**` any number of them.
pub fn selector_matches(selector: &str, node_fqn: &str) -> bool {
    let sel = if selector.starts_with('/') {
        selector.to_string()
    } else {
        format!("/{selector}")
    };
    let sel: Vec<&str> = sel.split('/').filter(|t| !t.is_empty()).collect();
    let name: Vec<&str> = node_fqn.split('/').filter(|t| !t.is_empty()).collect();
    tokens_match(&sel, &name)
}

fn tokens_match(sel: &[&str], name: &[&str]) -> bool {
    match sel.split_first() {
        None => name.is_empty(),
        Some((&"**", rest)) => (0..=name.len()).any(|i| tokens_match(rest, &name[i..])),
        Some((tok, rest)) => match name.split_first() {
            Some((n, nrest)) => (*tok == "*" || tok == n) && tokens_match(rest, nrest),
            None => false,
        },
    }
}

/// Why `ros2 param set` cannot change our parameters: every node reads them once, at start.
/// Both backends serve the declared parameters read-only, with this as the reason.
pub const READ_ONLY: &str = "the node reads it when it starts: give it with `--ros-args -p \
                             NAME:=VALUE` or in a params file, then restart the node";

/// Where a backend serves the declared parameters: its ROS 2 parameter services.
pub trait ServeDeclared {
    /// Serves every parameter `params` has declared (read-only: the nodes read them at start).
    fn serve(&mut self, params: &Params);
}

/// A node's [`Params`], borrowed. On drop, every parameter declared through it is handed to the
/// backend's parameter services, so `ros2 param list/get/describe` show what the node runs with.
pub struct ParamsGuard<'a, S: ServeDeclared> {
    params: &'a mut Params,
    server: S,
}

impl<'a, S: ServeDeclared> ParamsGuard<'a, S> {
    pub(crate) fn new(params: &'a mut Params, server: S) -> ParamsGuard<'a, S> {
        ParamsGuard { params, server }
    }
}

impl<S: ServeDeclared> fmt::Debug for ParamsGuard<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.params.fmt(f)
    }
}

impl<S: ServeDeclared> std::ops::Deref for ParamsGuard<'_, S> {
    type Target = Params;
    fn deref(&self) -> &Params {
        self.params
    }
}

impl<S: ServeDeclared> std::ops::DerefMut for ParamsGuard<'_, S> {
    fn deref_mut(&mut self) -> &mut Params {
        self.params
    }
}

impl<S: ServeDeclared> Drop for ParamsGuard<'_, S> {
    fn drop(&mut self) {
        self.server.serve(self.params);
    }
}

/// A node's parameters: overrides waiting to be declared, and declared values.
#[derive(Debug, Clone, Default)]
pub struct Params {
    overrides: BTreeMap<String, ParamValue>,
    values: BTreeMap<String, ParamValue>,
}

/// Rust types a parameter can be read as.
pub trait FromParam: Sized {
    const TYPE: &'static str;
    fn from_param(v: &ParamValue) -> Option<Self>;
    fn into_param(self) -> ParamValue;
}

macro_rules! from_param {
    ($t:ty, $name:literal, $variant:ident $(, $widen:ident)?) => {
        impl FromParam for $t {
            const TYPE: &'static str = $name;
            fn from_param(v: &ParamValue) -> Option<Self> {
                match v {
                    ParamValue::$variant(x) => Some(x.clone()),
                    $(ParamValue::$widen(i) => Some(*i as f64),)?
                    _ => None,
                }
            }
            fn into_param(self) -> ParamValue {
                ParamValue::$variant(self)
            }
        }
    };
}

from_param!(bool, "bool", Bool);
from_param!(i64, "integer", Integer);
from_param!(f64, "double", Double, Integer);
from_param!(String, "string", String);
from_param!(Vec<bool>, "bool array", BoolArray);
from_param!(Vec<i64>, "integer array", IntegerArray);
from_param!(Vec<f64>, "double array", DoubleArray);
from_param!(Vec<String>, "string array", StringArray);

impl Params {
    /// Parameters with these overrides (later entries win).
    pub fn with_overrides(overrides: impl IntoIterator<Item = (String, ParamValue)>) -> Params {
        Params {
            overrides: overrides.into_iter().collect(),
            values: BTreeMap::new(),
        }
    }

    /// Declares `name` with a default; an override of the right type replaces it. An override
    /// of the wrong type is an error naming the parameter and the value.
    pub fn declare<T: FromParam + Clone>(
        &mut self,
        name: &str,
        default: T,
    ) -> Result<T, ParamsError> {
        let value = match self.overrides.get(name) {
            None => default,
            Some(v) => T::from_param(v).ok_or_else(|| ParamsError::Type {
                name: name.to_string(),
                expected: T::TYPE,
                value: v.to_string(),
                got: v.type_name(),
            })?,
        };
        self.values
            .insert(name.to_string(), value.clone().into_param());
        Ok(value)
    }

    /// A declared parameter's value.
    pub fn get<T: FromParam>(&self, name: &str) -> Option<T> {
        self.values.get(name).and_then(T::from_param)
    }

    pub fn value(&self, name: &str) -> Option<&ParamValue> {
        self.values.get(name)
    }

    /// Sets a declared parameter, keeping its type.
    pub fn set(&mut self, name: &str, value: ParamValue) -> Result<(), ParamsError> {
        match self.values.get(name) {
            None => Err(ParamsError::Invalid {
                name: name.to_string(),
                value: value.to_string(),
                why: "not declared".into(),
            }),
            Some(old) if std::mem::discriminant(old) != std::mem::discriminant(&value) => {
                Err(ParamsError::Type {
                    name: name.to_string(),
                    expected: old.type_name(),
                    value: value.to_string(),
                    got: value.type_name(),
                })
            }
            Some(_) => {
                self.values.insert(name.to_string(), value);
                Ok(())
            }
        }
    }

    /// Declares `name` with the value it was given (a params file, `-p`), whatever its type:
    /// for a node whose parameters are open-ended, as a planner level's are. `None` if it was
    /// not given.
    pub fn declare_given(&mut self, name: &str) -> Option<ParamValue> {
        let value = self.overrides.get(name)?.clone();
        self.values.insert(name.to_string(), value.clone());
        Some(value)
    }

    /// The names of every override given, declared or not.
    pub fn given(&self) -> Vec<String> {
        self.overrides.keys().cloned().collect()
    }

    /// Overrides no declaration used (worth a warning: usually a typo).
    pub fn unused_overrides(&self) -> Vec<&str> {
        self.overrides
            .keys()
            .filter(|k| !self.values.contains_key(*k))
            .map(String::as_str)
            .collect()
    }

    pub fn declared(&self) -> impl Iterator<Item = (&str, &ParamValue)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_typing_of_command_line_values() {
        assert_eq!(ParamValue::from_yaml_text("3"), ParamValue::Integer(3));
        assert_eq!(ParamValue::from_yaml_text("3.5"), ParamValue::Double(3.5));
        assert_eq!(ParamValue::from_yaml_text("true"), ParamValue::Bool(true));
        assert_eq!(
            ParamValue::from_yaml_text("alphabeta"),
            ParamValue::String("alphabeta".into())
        );
        assert_eq!(
            ParamValue::from_yaml_text("'3'"),
            ParamValue::String("3".into())
        );
        assert_eq!(
            ParamValue::from_yaml_text("[1, 2]"),
            ParamValue::IntegerArray(vec![1, 2])
        );
        assert_eq!(
            ParamValue::from_yaml_text("[1, 2.5]"),
            ParamValue::DoubleArray(vec![1.0, 2.5])
        );
        assert_eq!(
            ParamValue::from_yaml_text("[a, b]"),
            ParamValue::StringArray(vec!["a".into(), "b".into()])
        );
        assert_eq!(
            ParamValue::from_yaml_text(""),
            ParamValue::String(String::new())
        );
    }

    #[test]
    fn selectors_match_like_rcl() {
        assert!(selector_matches("/**", "/planner"));
        assert!(selector_matches("/**", "/robot/planner"));
        assert!(selector_matches("planner", "/planner"));
        assert!(!selector_matches("planner", "/robot/planner"));
        assert!(selector_matches("/robot/planner", "/robot/planner"));
        assert!(selector_matches("/robot/*", "/robot/planner"));
        assert!(selector_matches("/**/planner", "/a/b/planner"));
        assert!(!selector_matches("/other/planner", "/robot/planner"));
    }

    #[test]
    fn params_file_blocks_apply_in_order_with_nested_keys() {
        let yaml = r#"
/**:
  ros__parameters:
    use_sim_time: false
    limits: { time_s: 1.0, depth: 4 }
planner:
  ros__parameters:
    algorithm: mcts
    limits:
      depth: 8
/robot/planner:
  ros__parameters:
    algorithm: alphabeta
robot:
  planner:
    ros__parameters:
      seed: 7
"#;
        let root = params_from_yaml(yaml, "/planner").expect("parses");
        let p = Params::with_overrides(root);
        let mut p = p;
        assert_eq!(
            p.declare("algorithm", String::from("random"))
                .expect("string"),
            "mcts"
        );
        assert_eq!(p.declare("limits.depth", 1i64).expect("int"), 8);
        assert_eq!(p.declare("limits.time_s", 0.5f64).expect("double"), 1.0);
        let ns = params_from_yaml(yaml, "/robot/planner").expect("parses");
        let mut q = Params::with_overrides(ns);
        assert_eq!(
            q.declare("algorithm", String::from("random"))
                .expect("string"),
            "alphabeta"
        );
        assert_eq!(q.declare("seed", 0i64).expect("nested namespace key"), 7);
        assert_eq!(q.declare("limits.depth", 1i64).expect("int"), 4);
    }

    #[test]
    fn wrong_types_are_named_errors() {
        let mut p =
            Params::with_overrides([("depth".to_string(), ParamValue::String("deep".into()))]);
        let e = p
            .declare("depth", 3i64)
            .expect_err("a string is not an integer");
        let msg = e.to_string();
        assert!(msg.contains("depth") && msg.contains("deep"), "{msg}");
        // Integers widen to doubles, as rclcpp does not but users expect from YAML `1`.
        let mut p = Params::with_overrides([("t".to_string(), ParamValue::Integer(2))]);
        assert_eq!(p.declare("t", 0.5f64).expect("widened"), 2.0);
        assert!(p.set("t", ParamValue::String("x".into())).is_err());
        assert!(p.set("t", ParamValue::Double(3.0)).is_ok());
        assert_eq!(p.get::<f64>("t"), Some(3.0));
    }

    #[test]
    fn malformed_files_are_errors() {
        assert!(params_from_yaml("- a\n- b\n", "/n").is_err());
        assert!(params_from_yaml("n:\n  ros__parameters: 3\n", "/n").is_err());
        assert!(params_from_yaml("n: [", "/n").is_err());
        let e = load_params_file(Path::new("/nonexistent.yaml"), "/n").expect_err("missing");
        assert!(e.to_string().contains("/nonexistent.yaml"));
    }

    #[test]
    fn format_errors_read_as_they_always_have() {
        let why = |yaml: &str| {
            params_from_yaml(yaml, "/n")
                .expect_err("malformed")
                .to_string()
        };
        assert_eq!(
            why("- a\n"),
            "the top level must be a mapping of node names"
        );
        assert_eq!(why("n: 3\n"), "n: expected a mapping with ros__parameters");
        assert_eq!(
            why("n:\n  ros__parameters: 3\n"),
            "n: ros__parameters must be a mapping"
        );
        assert_eq!(
            why("n:\n  ros__parameters:\n    p: ~\n"),
            "n: parameter p has an unsupported value Null"
        );
    }
}
