//! What a launch file asks for, after evaluation: the processes to start, each with the command
//! line `ros2 launch` would give it.

/// One `<node>` of this package, its substitutions done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeSpec {
    pub exec: String,
    pub name: Option<String>,
    /// Absolute, the pushed namespaces applied; None when neither the node nor a group set one.
    pub namespace: Option<String>,
    /// The node's own arguments (`args`), before `--ros-args`.
    pub args: Vec<String>,
    /// `ros_args` (such as `--enclave /checkers/arbiter`), right after `--ros-args`.
    pub ros_args: Vec<String>,
    /// `<param from=...>` files, in document order.
    pub params_files: Vec<String>,
    /// `<param name value>` pairs (nested names joined with '.'), in document order.
    pub params: Vec<(String, String)>,
    pub remaps: Vec<(String, String)>,
    pub env: Vec<(String, String)>,
    /// `respawn="true"`: started again this long (`respawn_delay`) after it exits; `None`: its
    /// exit ends the launch.
    pub respawn: Option<std::time::Duration>,
    /// `file:line` of the `<node>` element, for messages.
    pub origin: String,
}

impl NodeSpec {
    /// What its output lines are prefixed with and what messages call it.
    pub fn label(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.exec)
    }

    /// The arguments after the executable, in launch_ros's order: the node's own arguments,
    /// `--ros-args`, the name and namespace remaps, the params files, then the single
    /// parameters (launch_ros puts every `<param from>` before the `<param name value>`
    /// dictionary), then the remaps.
    pub fn argv(&self) -> Vec<String> {
        let mut v = self.args.clone();
        v.push("--ros-args".into());
        v.extend(self.ros_args.iter().cloned());
        if let Some(name) = &self.name {
            v.extend(["-r".into(), format!("__node:={name}")]);
        }
        if let Some(ns) = &self.namespace {
            v.extend(["-r".into(), format!("__ns:={ns}")]);
        }
        for f in &self.params_files {
            v.extend(["--params-file".into(), f.clone()]);
        }
        for (k, val) in &self.params {
            // rcl refuses `-p name:=` with nothing after it (an r2r node then does not start);
            // YAML's `''` is the empty string to rcl and to our own parameters alike.
            let val = if val.is_empty() { "''" } else { val.as_str() };
            v.extend(["-p".into(), format!("{k}:={val}")]);
        }
        for (from, to) in &self.remaps {
            v.extend(["-r".into(), format!("{from}:={to}")]);
        }
        v
    }
}

/// An entry of the launch, in document order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    Node(NodeSpec),
    /// A node of another package (robot_state_publisher, rviz2): only ROS 2 can run it.
    Foreign {
        pkg: String,
        exec: String,
        origin: String,
    },
}

/// Quotes an argument for a POSIX shell when it needs it, so dry-run lines can be pasted.
pub fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:=,+@%".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> NodeSpec {
        NodeSpec {
            exec: "planner_node".into(),
            name: None,
            namespace: None,
            args: vec![],
            ros_args: vec![],
            params_files: vec![],
            params: vec![],
            remaps: vec![],
            env: vec![],
            respawn: None,
            origin: "x:1".into(),
        }
    }

    #[test]
    fn bare_node_gets_only_ros_args_marker() {
        assert_eq!(spec().argv(), ["--ros-args"]);
        assert_eq!(spec().label(), "planner_node");
    }

    #[test]
    fn argv_follows_launch_ros_order() {
        let s = NodeSpec {
            name: Some("planner".into()),
            namespace: Some("/robot".into()),
            args: vec!["calibrate".into()],
            ros_args: vec!["--enclave".into(), "/checkers/planner".into()],
            params_files: vec!["/c/a.yaml".into(), "/c/b.yaml".into()],
            params: vec![("seed".into(), "3".into()), ("voice".into(), String::new())],
            remaps: vec![("/a".into(), "/b".into())],
            ..spec()
        };
        assert_eq!(
            s.argv(),
            [
                "calibrate",
                "--ros-args",
                "--enclave",
                "/checkers/planner",
                "-r",
                "__node:=planner",
                "-r",
                "__ns:=/robot",
                "--params-file",
                "/c/a.yaml",
                "--params-file",
                "/c/b.yaml",
                "-p",
                "seed:=3",
                "-p",
                "voice:=''",
                "-r",
                "/a:=/b"
            ]
        );
        assert_eq!(s.label(), "planner");
    }

    #[test]
    fn quoting_only_when_needed() {
        assert_eq!(shell_quote("-p"), "-p");
        assert_eq!(shell_quote("x:=a b"), "'x:=a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }
}
