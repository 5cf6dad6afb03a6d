//! The Rust spelling of interface types, values and names, and the indented text writer that
//! `generate.rs` emits through. Used by `build.rs` only.

use std::fmt;

use crate::parse::{Array, BaseType, FieldType, Primitive, Value};

/// Serde derives cover arrays up to this length; longer ones go through `serde_big_array`.
const SERDE_ARRAY_LIMIT: usize = 32;

pub fn is_big_array(ty: &FieldType) -> bool {
    matches!(ty.array, Array::Fixed(n) if n > SERDE_ARRAY_LIMIT)
}

pub fn rust_type(
    ty: &FieldType,
    target: Option<&(String, String)>,
    own_package: &str,
) -> Result<String, String> {
    let element = match (&ty.base, target) {
        (BaseType::Primitive { kind, .. }, _) => primitive_type(*kind)?.to_string(),
        (BaseType::Named { .. }, Some((package, name))) if package == own_package => {
            format!("crate::msg::{name}")
        }
        (BaseType::Named { .. }, Some((package, name))) => format!("crate::{package}::msg::{name}"),
        (BaseType::Named { name, .. }, None) => return Err(format!("unresolved type `{name}`")),
    };
    Ok(match ty.array {
        Array::Single => element,
        Array::Unbounded | Array::Bounded(_) => format!("::std::vec::Vec<{element}>"),
        Array::Fixed(n) => format!("[{element}; {n}]"),
    })
}

pub fn primitive_type(kind: Primitive) -> Result<&'static str, String> {
    Ok(match kind {
        Primitive::Bool => "bool",
        Primitive::Byte | Primitive::Char | Primitive::UInt8 => "u8",
        Primitive::Int8 => "i8",
        Primitive::Int16 => "i16",
        Primitive::UInt16 => "u16",
        Primitive::Int32 => "i32",
        Primitive::UInt32 => "u32",
        Primitive::Int64 => "i64",
        Primitive::UInt64 => "u64",
        Primitive::Float32 => "f32",
        Primitive::Float64 => "f64",
        Primitive::String => "::std::string::String",
        Primitive::WString => {
            return Err(
                "wstring fields are not supported by the Rust mirror: the ROS 2 middlewares \
                 do not agree on its CDR form (Fast DDS writes 4-byte characters); use \
                 string (UTF-8)"
                    .to_string(),
            )
        }
    })
}

pub fn const_type(kind: Primitive) -> &'static str {
    match kind {
        Primitive::String | Primitive::WString => "&'static str",
        other => primitive_type(other).unwrap_or("()"),
    }
}

pub fn default_literal(value: &Value, ty: &FieldType) -> String {
    let (kind, items) = match (&ty.base, value) {
        (BaseType::Primitive { kind, .. }, Value::List(items)) => (*kind, items),
        (BaseType::Primitive { kind, .. }, scalar) => return scalar_literal(scalar, *kind, true),
        (BaseType::Named { .. }, _) => return "::core::default::Default::default()".to_string(),
    };
    let items: Vec<String> = items
        .iter()
        .map(|item| scalar_literal(item, kind, true))
        .collect();
    match ty.array {
        Array::Fixed(_) => format!("[{}]", items.join(", ")),
        _ => format!("::std::vec![{}]", items.join(", ")),
    }
}

/// A Rust literal for a value; `owned` makes strings `String` rather than `&str`.
pub fn scalar_literal(value: &Value, kind: Primitive, owned: bool) -> String {
    match value {
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) if kind == Primitive::Float32 => float_literal(*f as f32, "f32"),
        Value::Float(f) => float_literal(*f, "f64"),
        Value::Str(s) if owned => format!("::std::string::String::from({s:?})"),
        Value::Str(s) => format!("{s:?}"),
        Value::List(_) => "::core::default::Default::default()".to_string(),
    }
}

/// `{:?}` prints the shortest text that reads back as the same float, so it never trips
/// clippy's excessive-precision lint, whatever precision the file wrote.
fn float_literal<F: Into<f64> + fmt::Debug + Copy>(value: F, ty: &str) -> String {
    let wide: f64 = value.into();
    if wide.is_nan() {
        format!("{ty}::NAN")
    } else if wide.is_infinite() && wide > 0.0 {
        format!("{ty}::INFINITY")
    } else if wide.is_infinite() {
        format!("{ty}::NEG_INFINITY")
    } else {
        format!("{value:?}")
    }
}

/// Field names are snake_case, so only Rust keywords need care: raw identifiers, and a trailing
/// `_` for the keywords that cannot be raw (no ROS field name ends in `_`, so it cannot clash).
pub fn rust_ident(name: &str) -> String {
    const KEYWORDS: [&str; 48] = [
        "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do",
        "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in",
        "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
        "return", "static", "struct", "trait", "true", "try", "type", "typeof", "unsafe",
        "unsized", "use", "virtual", "where", "while", "yield",
    ];
    if matches!(name, "self" | "super" | "crate") {
        format!("{name}_")
    } else if KEYWORDS.contains(&name) {
        format!("r#{name}")
    } else {
        name.to_string()
    }
}

/// The output text, indented by nesting.
#[derive(Default)]
pub struct Code {
    pub text: String,
    depth: usize,
}

impl Code {
    pub fn line(&mut self, line: &str) {
        for _ in 0..self.depth {
            self.text.push_str("    ");
        }
        self.text.push_str(line);
        self.text.push('\n');
    }

    pub fn open(&mut self, line: &str) {
        self.line(line);
        self.depth += 1;
    }

    pub fn close(&mut self, line: &str) {
        self.depth = self.depth.saturating_sub(1);
        self.line(line);
    }

    /// `#[doc]` attributes (not `///`) so any text is escaped by `{:?}`.
    pub fn doc(&mut self, text: &str) {
        for line in text.lines() {
            let line = if line.is_empty() {
                String::new()
            } else {
                format!(" {line}")
            };
            self.line(&format!("#[doc = {line:?}]"));
        }
    }
}
