//! Reading launch XML the way `ros2 launch` does: actions run in document order against launch
//! configurations (`<arg>`, `<let>`, include arguments, `name:=value` from the command line),
//! groups scope them, includes do not (as in ROS 2, an include's settings stay visible after it).

use std::collections::{HashMap, HashSet};
use std::path::Path;

use roxmltree::Node as El;

use super::file::{File, LaunchError};
use super::schema::validate;
use super::spec::{Entry, NodeSpec};
use super::subst::{self, Scope};
use super::PACKAGE;

/// Includes deeper than this are taken for a file including itself.
const MAX_INCLUDE_DEPTH: usize = 32;

/// Evaluates launch files into the processes to start.
#[derive(Debug)]
pub struct Loader {
    share: String,
    env: HashMap<String, String>,
    configs: HashMap<String, String>,
    /// The namespace pushed by `<push-ros-namespace>`, absolute.
    ros_ns: Option<String>,
    /// `<set_env>` so far in this scope: every later node's process gets them.
    set_env: Vec<(String, String)>,
    declared: HashSet<String>,
    given: Vec<String>,
    entries: Vec<Entry>,
    depth: usize,
}

/// Substitution scope: the loader's state and the current file.
struct At<'a> {
    loader: &'a Loader,
    dir: &'a str,
    name: &'a str,
}

impl Scope for At<'_> {
    fn var(&self, name: &str) -> Option<String> {
        self.loader.configs.get(name).cloned()
    }
    fn env(&self, name: &str) -> Option<String> {
        self.loader.env.get(name).cloned()
    }
    fn share(&self) -> String {
        self.loader.share.clone()
    }
    fn current_file(&self) -> (String, String) {
        (self.dir.to_string(), self.name.to_string())
    }
}

impl Loader {
    /// `share` answers `$(find-pkg-share checkers_robot)`; `args` are the command line's
    /// `name:=value` pairs; `env` is what `$(env)` reads.
    pub fn new(
        share: &Path,
        args: &[String],
        env: HashMap<String, String>,
    ) -> Result<Loader, LaunchError> {
        let mut configs = HashMap::new();
        let mut given = Vec::new();
        for a in args {
            let (k, v) = a
                .split_once(":=")
                .filter(|(k, _)| !k.is_empty())
                .ok_or_else(|| LaunchError::BadArgument(a.clone()))?;
            configs.insert(k.to_string(), v.to_string());
            given.push(k.to_string());
        }
        Ok(Loader {
            share: share.display().to_string(),
            env,
            configs,
            ros_ns: None,
            set_env: Vec::new(),
            declared: HashSet::new(),
            given,
            entries: Vec::new(),
            depth: 0,
        })
    }

    /// Reads the launch file and everything it includes.
    pub fn load(mut self, file: &Path) -> Result<Vec<Entry>, LaunchError> {
        self.include(file)?;
        let mut unknown: Vec<_> = self
            .given
            .iter()
            .filter(|g| !self.declared.contains(*g))
            .cloned()
            .collect();
        if !unknown.is_empty() {
            unknown.dedup();
            let mut declared: Vec<_> = self.declared.into_iter().collect();
            declared.sort();
            return Err(LaunchError::Undeclared {
                given: unknown.join(", "),
                declared: declared.join(", "),
            });
        }
        Ok(self.entries)
    }

    fn include(&mut self, path: &Path) -> Result<(), LaunchError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| LaunchError::Read {
            file: shown.clone(),
            source,
        })?;
        let doc = roxmltree::Document::parse(&text).map_err(|source| LaunchError::Xml {
            file: shown.clone(),
            source,
        })?;
        let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let f = File {
            doc: &doc,
            path: shown,
            dir: abs
                .parent()
                .map(|d| d.display().to_string())
                .unwrap_or_default(),
            name: abs
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        };
        let root = doc.root_element();
        if root.tag_name().name() != "launch" {
            return Err(f.err(
                root,
                format!("expected <launch>, found <{}>", root.tag_name().name()),
            ));
        }
        // Check the whole file first, so a typo inside a group that is off today still fails.
        validate(&f, root, None)?;
        self.depth += 1;
        let r = self.actions(&f, root);
        self.depth -= 1;
        r
    }

    fn actions(&mut self, f: &File, parent: El) -> Result<(), LaunchError> {
        for el in parent.children().filter(El::is_element) {
            if self.condition(f, el)? {
                self.action(f, el)?;
            }
        }
        Ok(())
    }

    fn expand(&self, f: &File, el: El, text: &str) -> Result<String, LaunchError> {
        let scope = At {
            loader: self,
            dir: &f.dir,
            name: &f.name,
        };
        subst::expand(text, &scope).map_err(|source| LaunchError::Subst {
            at: f.at(el),
            source,
        })
    }

    fn opt(&self, f: &File, el: El, attr: &str) -> Result<Option<String>, LaunchError> {
        el.attribute(attr)
            .map(|t| self.expand(f, el, t))
            .transpose()
    }

    fn req(&self, f: &File, el: El, attr: &str) -> Result<String, LaunchError> {
        let tag = el.tag_name().name();
        let t = el
            .attribute(attr)
            .ok_or_else(|| f.err(el, format!("<{tag}> needs the attribute {attr:?}")))?;
        self.expand(f, el, t)
    }

    fn condition(&self, f: &File, el: El) -> Result<bool, LaunchError> {
        let (text, negate) = match (el.attribute("if"), el.attribute("unless")) {
            (None, None) => return Ok(true),
            (Some(_), Some(_)) => return Err(f.err(el, "\"if\" and \"unless\" exclude each other")),
            (Some(t), None) => (t, false),
            (None, Some(t)) => (t, true),
        };
        let v = self.expand(f, el, text)?;
        let b = truth(&v)
            .ok_or_else(|| f.err(el, format!("condition {v:?} is neither true/false nor 1/0")))?;
        Ok(b != negate)
    }

    fn action(&mut self, f: &File, el: El) -> Result<(), LaunchError> {
        match el.tag_name().name() {
            "arg" => self.arg(f, el),
            "let" => {
                let name = self.req(f, el, "name")?;
                let value = self.req(f, el, "value")?;
                self.configs.insert(name, value);
                Ok(())
            }
            "set_env" => {
                let name = self.req(f, el, "name")?;
                let value = self.req(f, el, "value")?;
                self.env.insert(name.clone(), value.clone());
                self.set_env.retain(|(n, _)| *n != name);
                self.set_env.push((name, value));
                Ok(())
            }
            "node" => self.node(f, el),
            "group" => {
                let scoped = match self.opt(f, el, "scoped")? {
                    None => true,
                    Some(v) => truth(&v).ok_or_else(|| {
                        f.err(el, format!("scoped={v:?}: expected true or false"))
                    })?,
                };
                let saved = scoped.then(|| {
                    (
                        self.configs.clone(),
                        self.ros_ns.clone(),
                        self.env.clone(),
                        self.set_env.clone(),
                    )
                });
                self.actions(f, el)?;
                if let Some((configs, ns, env, set_env)) = saved {
                    self.configs = configs;
                    self.ros_ns = ns;
                    self.env = env;
                    self.set_env = set_env;
                }
                Ok(())
            }
            "push-ros-namespace" | "push_ros_namespace" => {
                let ns = self.req(f, el, "namespace")?;
                let joined = join_ns(self.ros_ns.as_deref(), Some(&ns))
                    .unwrap_or_default()
                    .trim_end_matches('/')
                    .to_string();
                self.ros_ns = Some(joined);
                Ok(())
            }
            "include" => self.include_el(f, el),
            other => Err(f.err(el, format!("<{other}> is not an action"))),
        }
    }

    fn arg(&mut self, f: &File, el: El) -> Result<(), LaunchError> {
        let name = self.req(f, el, "name")?;
        self.declared.insert(name.clone());
        if !self.configs.contains_key(&name) {
            match self.opt(f, el, "default")? {
                Some(d) => {
                    self.configs.insert(name.clone(), d);
                }
                None => {
                    return Err(f.err(
                        el,
                        format!(
                            "launch argument {name:?} has no default: give it as {name}:=VALUE"
                        ),
                    ))
                }
            }
        }
        let choices = el
            .children()
            .filter(El::is_element)
            .map(|c| self.req(f, c, "value"))
            .collect::<Result<Vec<_>, _>>()?;
        let value = self.configs.get(&name).cloned().unwrap_or_default();
        if !choices.is_empty() && !choices.contains(&value) {
            return Err(f.err(
                el,
                format!(
                    "launch argument {name}:={value} is not one of: {}",
                    choices.join(", ")
                ),
            ));
        }
        Ok(())
    }

    fn include_el(&mut self, f: &File, el: El) -> Result<(), LaunchError> {
        let file = self.req(f, el, "file")?;
        // Set one by one: a later argument may use an earlier one, as SetLaunchConfiguration
        // actions in sequence would.
        for a in el.children().filter(El::is_element) {
            let name = self.req(f, a, "name")?;
            let value = self.req(f, a, "value")?;
            self.configs.insert(name, value);
        }
        if self.depth >= MAX_INCLUDE_DEPTH {
            return Err(f.err(
                el,
                format!("includes nested deeper than {MAX_INCLUDE_DEPTH}: {file} includes itself?"),
            ));
        }
        // Relative paths are relative to the working directory, as in ROS 2: launch files use
        // $(dirname) or $(find-pkg-share) to name their neighbours.
        self.include(Path::new(&file))
    }

    fn node(&mut self, f: &File, el: El) -> Result<(), LaunchError> {
        let pkg = self.req(f, el, "pkg")?;
        let exec = self.req(f, el, "exec")?;
        if pkg != PACKAGE {
            // Not evaluated further: its parameters may use substitutions only ROS 2 has.
            self.entries.push(Entry::Foreign {
                pkg,
                exec,
                origin: f.at(el),
            });
            return Ok(());
        }
        let own_ns = self.opt(f, el, "namespace")?;
        let respawn = match self.opt(f, el, "respawn")? {
            None => false,
            Some(t) => truth(&t)
                .ok_or_else(|| f.err(el, format!("respawn={t:?} is neither true nor false")))?,
        };
        let delay = match self.opt(f, el, "respawn_delay")? {
            None => 0.0,
            Some(t) => t
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|d| d.is_finite() && (0.0..=3600.0).contains(d))
                .ok_or_else(|| {
                    f.err(
                        el,
                        format!("respawn_delay={t:?} is not a number of seconds (0-3600)"),
                    )
                })?,
        };
        let mut spec = NodeSpec {
            exec,
            name: self.opt(f, el, "name")?,
            namespace: join_ns(self.ros_ns.as_deref(), own_ns.as_deref()),
            args: self
                .opt(f, el, "args")?
                .map(|a| a.split_whitespace().map(String::from).collect())
                .unwrap_or_default(),
            ros_args: self
                .opt(f, el, "ros_args")?
                .map(|a| a.split_whitespace().map(String::from).collect())
                .unwrap_or_default(),
            params_files: vec![],
            params: vec![],
            remaps: vec![],
            env: self.set_env.clone(),
            respawn: respawn.then(|| std::time::Duration::from_secs_f64(delay)),
            origin: f.at(el),
        };
        for c in el.children().filter(El::is_element) {
            match c.tag_name().name() {
                "param" => self.param(f, c, "", &mut spec)?,
                "remap" => spec
                    .remaps
                    .push((self.req(f, c, "from")?, self.req(f, c, "to")?)),
                _ => spec
                    .env
                    .push((self.req(f, c, "name")?, self.req(f, c, "value")?)),
            }
        }
        self.entries.push(Entry::Node(spec));
        Ok(())
    }

    fn param(
        &self,
        f: &File,
        el: El,
        prefix: &str,
        spec: &mut NodeSpec,
    ) -> Result<(), LaunchError> {
        if let Some(from) = self.opt(f, el, "from")? {
            if el.has_attribute("name") || el.has_attribute("value") {
                return Err(f.err(el, "<param from> takes neither name nor value"));
            }
            // Stricter than ROS 2, which warns and starts the node without the file.
            if !Path::new(&from).is_file() {
                return Err(f.err(el, format!("parameter file {from} does not exist")));
            }
            spec.params_files.push(from);
            return Ok(());
        }
        let name = format!("{prefix}{}", self.req(f, el, "name")?);
        match self.opt(f, el, "value")? {
            Some(v) => spec.params.push((name, v)),
            None => {
                let nested: Vec<_> = el.children().filter(El::is_element).collect();
                if nested.is_empty() {
                    return Err(f.err(el, format!("<param name={name:?}> needs a value")));
                }
                for n in nested {
                    self.param(f, n, &format!("{name}."), spec)?;
                }
            }
        }
        Ok(())
    }
}

/// A launch condition's truth, as launch's IfCondition reads it.
fn truth(v: &str) -> Option<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "true" | "1" => Some(true),
        "false" | "0" => Some(false),
        _ => None,
    }
}

/// A namespace under a pushed one (launch_ros's prefix_namespace), made absolute.
fn join_ns(base: Option<&str>, ns: Option<&str>) -> Option<String> {
    let joined = match (base, ns) {
        (None, None) => return None,
        (Some(b), None) => b.to_string(),
        (_, Some(n)) if n.starts_with('/') => n.to_string(),
        (None, Some(n)) => n.to_string(),
        (Some(b), Some(n)) => format!("{}/{n}", b.trim_end_matches('/')),
    };
    Some(if joined.starts_with('/') {
        joined
    } else {
        format!("/{joined}")
    })
}

/// The tests' fixtures live in tests/launch; this is for building paths to them.
#[cfg(test)]
fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/launch")
        .join(name)
}

#[cfg(test)]
mod tests;
