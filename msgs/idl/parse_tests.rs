//! Unit tests of `parse.rs`, compiled into the crate's tests (build.rs does not include them).

use crate::idl_parse::*;

fn msg(text: &str) -> Section {
    let mut def = parse(text, Kind::Msg).expect("parses");
    def.sections.remove(0)
}

fn error(text: &str, kind: Kind) -> ParseError {
    parse(text, kind).expect_err("must not parse")
}

#[test]
fn fields_constants_comments_and_blank_lines() {
    let def = parse(
        "# File comment\n# second line\n\nuint8 SIDE_WHITE=0 # white\n\n\
         std_msgs/Header header  # stamp\nMove[] moves\nuint8[<=12] path\n\
         string<=5[3] tags\nfloat64[64] cells\n",
        Kind::Msg,
    )
    .expect("parses");
    assert_eq!(def.comment, "File comment\nsecond line");
    let s = &def.sections[0];
    assert_eq!(s.constants.len(), 1);
    assert_eq!(s.constants[0].name, "SIDE_WHITE");
    assert_eq!(s.constants[0].ty, Primitive::UInt8);
    assert_eq!(s.constants[0].value, Value::Int(0));
    assert_eq!(s.constants[0].comment, "white");
    assert_eq!(s.constants[0].line, 4);
    let names: Vec<_> = s.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["header", "moves", "path", "tags", "cells"]);
    assert_eq!(
        s.fields[0].ty.base,
        BaseType::Named {
            package: Some("std_msgs".into()),
            name: "Header".into()
        }
    );
    assert_eq!(s.fields[0].comment, "stamp");
    assert_eq!(s.fields[1].ty.array, Array::Unbounded);
    assert_eq!(s.fields[2].ty.array, Array::Bounded(12));
    assert_eq!(
        s.fields[3].ty,
        FieldType {
            base: BaseType::Primitive {
                kind: Primitive::String,
                string_bound: Some(5)
            },
            array: Array::Fixed(3)
        }
    );
    assert_eq!(s.fields[4].ty.array, Array::Fixed(64));
    assert_eq!(s.fields[4].line, 10);
}

#[test]
fn every_primitive_type_is_known() {
    for (name, kind) in PRIMITIVES {
        let s = msg(&format!("{name} x\n"));
        assert_eq!(
            s.fields[0].ty.base,
            BaseType::Primitive {
                kind,
                string_bound: None
            }
        );
    }
}

#[test]
fn defaults_and_string_constants() {
    let s = msg(
        "string GREETING=  hello world  \nstring QUOTED=\"a 'b' \\\" c\"\n\
                 float64 w 1\nint32[] a [1, -2, +3]\nstring[<=3] s [\"x, y\", 'z']\n\
                 bool flag true\nstring name 'robot'\nfloat32 NAN_VALUE=nan\n",
    );
    assert_eq!(s.constants[0].value, Value::Str("hello world".into()));
    assert_eq!(s.constants[1].value, Value::Str("a 'b' \" c".into()));
    assert!(matches!(s.constants[2].value, Value::Float(v) if v.is_nan()));
    assert_eq!(s.fields[0].default, Some(Value::Float(1.0)));
    assert_eq!(
        s.fields[1].default,
        Some(Value::List(vec![
            Value::Int(1),
            Value::Int(-2),
            Value::Int(3)
        ]))
    );
    assert_eq!(
        s.fields[2].default,
        Some(Value::List(vec![
            Value::Str("x, y".into()),
            Value::Str("z".into())
        ]))
    );
    assert_eq!(s.fields[3].default, Some(Value::Bool(true)));
    assert_eq!(s.fields[4].default, Some(Value::Str("robot".into())));
}

#[test]
fn services_and_actions_split_into_parts() {
    let srv = parse("uint8 reads\n---\nbool success\n", Kind::Srv).expect("parses");
    assert_eq!(srv.sections.len(), 2);
    assert_eq!(srv.sections[1].fields[0].name, "success");
    assert_eq!(srv.sections[1].fields[0].line, 3);
    let action = parse("# Goal\nint32 a\n---\n---\n", Kind::Action).expect("parses");
    assert_eq!(action.sections.len(), 3);
    assert!(action.sections[2].fields.is_empty());
    assert_eq!(error("bool a\n", Kind::Srv).line, 1);
    assert_eq!(error("a\n---\n---\n", Kind::Srv).line, 1);
    assert_eq!(error("bool a\n---\n---\n", Kind::Srv).line, 3);
}

#[test]
fn errors_name_the_line() {
    let cases = [
        ("bool ok\nuint7 x\n", 2, "unknown type"),
        ("bool ok\n\nuint8 x 300\n", 3, "out of the range"),
        ("int32 Bad\n", 1, "bad field name"),
        ("int32 x__y\n", 1, "bad field name"),
        ("int32 bad=1\n", 1, "bad constant name"),
        ("uint8[] LIST=1\n", 1, "primitive, non-array"),
        ("uint8\n", 1, "expected `TYPE NAME`"),
        ("uint8[0] x\n", 1, "positive integer"),
        ("uint8[3 x\n", 1, "must end with"),
        ("int32<=3 x\n", 1, "only string and wstring"),
        ("Move m [1]\n", 1, "cannot have a default"),
        ("int32[2] a [1, 2, 3]\n", 1, "exactly 2"),
        ("string<=2 s \"abc\"\n", 1, "longer than the bound"),
        ("bool x\nbool x\n", 2, "defined twice"),
        ("a/b/c/D x\n", 1, "unknown type"),
        ("bool b maybe\n", 1, "not a bool"),
    ];
    for (text, line, needle) in cases {
        let e = error(text, Kind::Msg);
        assert_eq!(e.line, line, "{text:?}: {e}");
        assert!(e.message.contains(needle), "{text:?}: {e}");
    }
}

#[test]
fn nested_type_forms() {
    let s = msg("Move a\nstd_msgs/Header b\ngeometry_msgs/msg/Pose c\n");
    assert_eq!(
        s.fields[0].ty.base,
        BaseType::Named {
            package: None,
            name: "Move".into()
        }
    );
    assert_eq!(
        s.fields[2].ty.base,
        BaseType::Named {
            package: Some("geometry_msgs".into()),
            name: "Pose".into()
        }
    );
}

#[test]
fn the_project_files_parse() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut count = 0;
    for dir in ["msg", "srv", "action"] {
        for entry in std::fs::read_dir(root.join(dir)).expect("folder exists") {
            let path = entry.expect("entry").path();
            let kind = path
                .extension()
                .and_then(|e| e.to_str())
                .and_then(Kind::from_extension)
                .expect("an interface file");
            let text = std::fs::read_to_string(&path).expect("readable");
            parse(&text, kind).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            count += 1;
        }
    }
    assert_eq!(count, 17);
}
