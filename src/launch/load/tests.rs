//! Tests of launch file evaluation: arguments and their overrides, includes, groups and
//! namespaces, conditions, and errors that name the file and line.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::{fixture, LaunchError, Loader};
use crate::launch::spec::{Entry, NodeSpec};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn load(file: &Path, args: &[&str]) -> Result<Vec<Entry>, LaunchError> {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    Loader::new(repo(), &args, HashMap::new())?.load(file)
}

fn nodes(entries: &[Entry]) -> Vec<&NodeSpec> {
    entries
        .iter()
        .filter_map(|e| match e {
            Entry::Node(n) => Some(n),
            Entry::Foreign { .. } => None,
        })
        .collect()
}

/// Writes launch files into a fresh directory; returns it (removed when dropped) and the first
/// file's path.
fn files(list: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, text) in list {
        std::fs::write(dir.path().join(name), text).expect("write fixture");
    }
    let first = dir.path().join(list[0].0);
    (dir, first)
}

fn err(text: &str, args: &[&str]) -> String {
    let (_dir, f) = files(&[("t.launch.xml", text)]);
    match load(&f, args) {
        Ok(e) => panic!("expected an error, got {e:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn defaults_groups_includes_and_foreign_nodes() {
    let entries = load(&fixture("graph.launch.xml"), &[]).expect("loads");
    let n = nodes(&entries);
    assert_eq!(n.len(), 2, "{n:?}");
    let planner = n[0];
    assert_eq!(planner.exec, "planner_node");
    assert_eq!(planner.name.as_deref(), Some("planner"));
    assert_eq!(planner.namespace.as_deref(), Some("/robot"));
    assert_eq!(
        planner.params_files,
        [format!("{}/config/difficulty/easy.yaml", repo().display())]
    );
    assert_eq!(planner.params, [("time_budget_s".into(), "2.5".into())]);
    assert_eq!(
        planner.remaps,
        [("/planner/evaluation".into(), "/eval".into())]
    );

    let face = n[1];
    assert_eq!(face.name.as_deref(), Some("expr_easy"));
    assert_eq!(
        face.namespace.as_deref(),
        Some("/face"),
        "the group's namespace ended with it"
    );
    assert_eq!(face.args, ["--flag", "value"]);
    assert_eq!(face.params, [("speak".into(), "false".into())]);
    assert_eq!(face.env, [("CHECKERS_TEST".into(), "1".into())]);

    assert!(matches!(
        entries.last(),
        Some(Entry::Foreign { pkg, exec, .. }) if pkg == "rviz2" && exec == "rviz2"
    ));
}

#[test]
fn command_line_arguments_override_defaults_and_flip_conditions() {
    let entries = load(
        &fixture("graph.launch.xml"),
        &["level:=hard", "extra:=True"],
    )
    .expect("loads");
    let n = nodes(&entries);
    assert_eq!(n.len(), 3);
    assert!(n[0].params_files[0].ends_with("/config/difficulty/hard.yaml"));
    let judge = n[1];
    assert_eq!(judge.name.as_deref(), Some("judge"));
    assert_eq!(judge.namespace.as_deref(), Some("/robot/inner"));
    assert_eq!(judge.params, [("limits.scan_s".into(), "3".into())]);
    assert_eq!(n[2].name.as_deref(), Some("expr_hard"));
    assert!(
        !entries.iter().any(|e| matches!(e, Entry::Foreign { .. })),
        "rviz is `unless extra`"
    );
}

#[test]
fn argument_values_are_checked() {
    let e = load(&fixture("graph.launch.xml"), &["level:=impossible"]).expect_err("bad choice");
    let msg = e.to_string();
    assert!(msg.contains("graph.launch.xml:4:"), "{msg}");
    assert!(
        msg.contains("level:=impossible is not one of: easy, hard"),
        "{msg}"
    );

    let e = load(&fixture("graph.launch.xml"), &["levle:=hard"]).expect_err("typo");
    assert!(
        matches!(&e, LaunchError::Undeclared { given, .. } if given == "levle"),
        "{e}"
    );

    let e = load(&fixture("graph.launch.xml"), &["level=hard"]).expect_err("syntax");
    assert!(matches!(e, LaunchError::BadArgument(_)));

    let e = load(&fixture("child.launch.xml"), &[]).expect_err("required");
    let msg = e.to_string();
    assert!(msg.contains("child.launch.xml:3:"), "{msg}");
    assert!(msg.contains("\"who\" has no default"), "{msg}");
    assert_eq!(
        nodes(&load(&fixture("child.launch.xml"), &["who:=x"]).expect("given"))[0]
            .name
            .as_deref(),
        Some("x")
    );
}

#[test]
fn groups_scope_settings_but_includes_do_not() {
    let inc = r#"<launch><let name="from_include" value="yes"/></launch>"#;
    let top = r#"<launch>
  <let name="a" value="outer"/>
  <group><let name="a" value="inner"/><push-ros-namespace namespace="g"/></group>
  <node pkg="checkers_robot" exec="n1" name="$(var a)"/>
  <group scoped="false"><let name="a" value="leaked"/><push-ros-namespace namespace="/g2"/></group>
  <node pkg="checkers_robot" exec="n2" name="$(var a)"/>
  <include file="$(dirname)/inc.launch.xml"/>
  <node pkg="checkers_robot" exec="n3" name="$(var from_include)" namespace="sub"/>
</launch>"#;
    let (_dir, f) = files(&[("top.launch.xml", top), ("inc.launch.xml", inc)]);
    let entries = load(&f, &[]).expect("loads");
    let n = nodes(&entries);
    assert_eq!(
        n.iter()
            .map(|n| (n.name.as_deref(), n.namespace.as_deref()))
            .collect::<Vec<_>>(),
        [
            (Some("outer"), None),
            (Some("leaked"), Some("/g2")),
            (Some("yes"), Some("/g2/sub"))
        ]
    );
}

#[test]
fn set_env_reaches_later_nodes_of_its_scope_and_ros_args_follow_ros_args() {
    let top = r#"<launch>
  <arg name="secure" default="false"/>
  <set_env name="A" value="1"/>
  <group>
    <set_env name="B" value="$(env A)2"/>
    <set_env name="C" value="3" if="$(var secure)"/>
    <node pkg="checkers_robot" exec="n1" ros_args="--enclave /checkers/n1">
      <env name="D" value="4"/>
    </node>
  </group>
  <node pkg="checkers_robot" exec="n2"/>
</launch>"#;
    let (_dir, f) = files(&[("top.launch.xml", top)]);
    let entries = load(&f, &[]).expect("loads");
    let n = nodes(&entries);
    let env = |i: usize| {
        n[i].env
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
    };
    assert_eq!(env(0), ["A=1", "B=12", "D=4"]);
    assert_eq!(env(1), ["A=1"]);
    assert_eq!(
        n[0].argv()[..3],
        ["--ros-args", "--enclave", "/checkers/n1"]
    );
}

#[test]
fn include_arguments_reach_the_included_file() {
    let inc = r#"<launch><arg name="x" default="dflt"/>
  <node pkg="checkers_robot" exec="n" name="$(var x)_$(var y)"/></launch>"#;
    let top = r#"<launch>
  <include file="$(dirname)/inc.launch.xml"><arg name="y" value="1"/><arg name="x" value="$(var y)$(var y)"/></include>
</launch>"#;
    let (_dir, f) = files(&[("top.launch.xml", top), ("inc.launch.xml", inc)]);
    let entries = load(&f, &[]).expect("loads");
    assert_eq!(nodes(&entries)[0].name.as_deref(), Some("11_1"));
}

#[test]
fn structure_errors_name_file_and_line() {
    let msg = err("<launch>\n  <nodee pkg=\"x\"/>\n</launch>", &[]);
    assert!(
        msg.contains("t.launch.xml:2: unknown tag <nodee> in <launch>"),
        "{msg}"
    );

    // Checked even where a condition turns the node off.
    let msg = err(
        "<launch>\n<group if=\"false\">\n<node pkg=\"checkers_robot\" exec=\"n\" nmae=\"x\"/>\n</group>\n</launch>",
        &[],
    );
    assert!(
        msg.contains("t.launch.xml:3: unknown attribute \"nmae\" of <node>"),
        "{msg}"
    );

    let msg = err("<launch>\n<node pkg=\"checkers_robot\"/></launch>", &[]);
    assert!(
        msg.contains(":2: <node> needs the attribute \"exec\""),
        "{msg}"
    );

    let msg = err("<launch><node pkg=\"checkers_robot\" exec=\"n\"><remap from=\"a\" to=\"b\"><x/></remap></node></launch>", &[]);
    assert!(msg.contains("<x> is not allowed in <remap>"), "{msg}");

    let msg = err("<launch><arg name=\"a\" default=\"yes\"/><node pkg=\"checkers_robot\" exec=\"n\" if=\"$(var a)\"/></launch>", &[]);
    assert!(msg.contains("condition \"yes\" is neither"), "{msg}");

    let msg = err("<launch><node pkg=\"checkers_robot\" exec=\"n\"><param from=\"/no/such/file.yaml\"/></node></launch>", &[]);
    assert!(
        msg.contains("parameter file /no/such/file.yaml does not exist"),
        "{msg}"
    );

    let msg = err(
        "<launch><node pkg=\"checkers_robot\" exec=\"$(var nope)\"/></launch>",
        &[],
    );
    assert!(
        msg.contains("t.launch.xml:1: launch argument \"nope\" is not set"),
        "{msg}"
    );

    let msg = err("<launch><node pkg=\"checkers_robot\"", &[]);
    assert!(msg.contains("t.launch.xml: not well-formed XML"), "{msg}");

    let msg = err("<robot/>", &[]);
    assert!(msg.contains("expected <launch>, found <robot>"), "{msg}");
}

#[test]
fn a_file_including_itself_is_stopped() {
    let (_dir, f) = files(&[(
        "loop.launch.xml",
        r#"<launch><include file="$(dirname)/$(filename)"/></launch>"#,
    )]);
    let msg = load(&f, &[]).expect_err("recursion").to_string();
    assert!(msg.contains("includes itself?"), "{msg}");
}

#[test]
fn the_project_launch_files_load() {
    for (file, args) in [
        ("launch/sim.launch.xml", vec![]),
        (
            "launch/sim.launch.xml",
            vec!["difficulty:=hard", "use_rviz:=false"],
        ),
        ("launch/robot.launch.xml", vec![]),
    ] {
        let entries = load(&repo().join(file), &args).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(nodes(&entries).len() >= 5, "{file}: {entries:?}");
    }
    // What the ROS-only nodes are given, which this runner does not evaluate.
    for f in ["launch/checkers_robot.rviz", "urdf/checkers_robot.urdf"] {
        assert!(repo().join(f).is_file(), "{f}");
    }
}

#[test]
fn every_difficulty_level_is_a_choice_of_the_launch_argument() {
    let launch =
        std::fs::read_to_string(repo().join("launch/nodes.launch.xml")).expect("launch file");
    let mut choices: Vec<String> = launch
        .split("<choice value=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next().map(str::to_string))
        .collect();
    let mut levels: Vec<String> = std::fs::read_dir(repo().join("config/difficulty"))
        .expect("levels")
        .filter_map(|e| {
            let path = e.ok()?.path();
            (path.extension()? == "yaml").then(|| path.file_stem()?.to_str().map(str::to_string))?
        })
        .collect();
    choices.sort();
    levels.sort();
    assert_eq!(choices, levels);
}
