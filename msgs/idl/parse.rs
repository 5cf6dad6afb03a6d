//! A parser of the ROS 2 interface language (`.msg`, `.srv`, `.action`), following the rules of
//! `rosidl_adapter` so that a file colcon accepts is read the same way here.
//!
//! It is compiled twice: by `build.rs` (through `#[path]`) to generate the Rust types, and by the
//! crate's unit tests. So it depends on `std` only and knows nothing about code generation.

use std::fmt;

/// The built-in types of the interface language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Primitive {
    Bool,
    Byte,
    Char,
    Int8,
    UInt8,
    Int16,
    UInt16,
    Int32,
    UInt32,
    Int64,
    UInt64,
    Float32,
    Float64,
    String,
    WString,
}

/// Every primitive type with its name in the interface language.
pub const PRIMITIVES: [(&str, Primitive); 15] = [
    ("bool", Primitive::Bool),
    ("byte", Primitive::Byte),
    ("char", Primitive::Char),
    ("int8", Primitive::Int8),
    ("uint8", Primitive::UInt8),
    ("int16", Primitive::Int16),
    ("uint16", Primitive::UInt16),
    ("int32", Primitive::Int32),
    ("uint32", Primitive::UInt32),
    ("int64", Primitive::Int64),
    ("uint64", Primitive::UInt64),
    ("float32", Primitive::Float32),
    ("float64", Primitive::Float64),
    ("string", Primitive::String),
    ("wstring", Primitive::WString),
];

impl Primitive {
    pub fn from_name(name: &str) -> Option<Self> {
        PRIMITIVES.iter().find(|(n, _)| *n == name).map(|(_, p)| *p)
    }

    pub fn name(self) -> &'static str {
        PRIMITIVES
            .iter()
            .find(|(_, p)| *p == self)
            .map_or("?", |(n, _)| n)
    }

    /// The inclusive range of an integer type; `byte` and `char` are octets in ROS 2.
    pub fn int_range(self) -> Option<(i128, i128)> {
        Some(match self {
            Self::Byte | Self::Char | Self::UInt8 => (0, u8::MAX.into()),
            Self::Int8 => (i8::MIN.into(), i8::MAX.into()),
            Self::Int16 => (i16::MIN.into(), i16::MAX.into()),
            Self::UInt16 => (0, u16::MAX.into()),
            Self::Int32 => (i32::MIN.into(), i32::MAX.into()),
            Self::UInt32 => (0, u32::MAX.into()),
            Self::Int64 => (i64::MIN.into(), i64::MAX.into()),
            Self::UInt64 => (0, u64::MAX.into()),
            _ => return None,
        })
    }

    pub fn is_string(self) -> bool {
        matches!(self, Self::String | Self::WString)
    }
}

/// The element type of a field, without its array suffix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BaseType {
    /// `string_bound` is the `N` of `string<=N` / `wstring<=N`.
    Primitive {
        kind: Primitive,
        string_bound: Option<usize>,
    },
    /// A message type; `package` is `None` when the file names it without a package.
    Named {
        package: Option<String>,
        name: String,
    },
}

/// The array suffix of a field type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Array {
    /// No suffix: one value.
    Single,
    /// `T[]`
    Unbounded,
    /// `T[<=N]`
    Bounded(usize),
    /// `T[N]`
    Fixed(usize),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldType {
    pub base: BaseType,
    pub array: Array,
}

/// A constant's value or a field's default value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    List(Vec<Value>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub ty: FieldType,
    pub name: String,
    pub default: Option<Value>,
    /// The comment after the field on its line.
    pub comment: String,
    pub line: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Constant {
    pub ty: Primitive,
    pub name: String,
    pub value: Value,
    pub comment: String,
    pub line: usize,
}

/// One message body: a whole `.msg`, or one part of a `.srv` / `.action`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Section {
    pub constants: Vec<Constant>,
    pub fields: Vec<Field>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Msg,
    Srv,
    Action,
}

impl Kind {
    pub fn from_extension(ext: &str) -> Option<Self> {
        match ext {
            "msg" => Some(Self::Msg),
            "srv" => Some(Self::Srv),
            "action" => Some(Self::Action),
            _ => None,
        }
    }

    /// The folder (and the ROS type-name segment) of this kind: `msg`, `srv` or `action`.
    pub fn dir(self) -> &'static str {
        match self {
            Self::Msg => "msg",
            Self::Srv => "srv",
            Self::Action => "action",
        }
    }

    /// The names of the parts separated by `---`, suffixed to the interface name (`_Request`).
    pub fn parts(self) -> &'static [&'static str] {
        match self {
            Self::Msg => &[""],
            Self::Srv => &["Request", "Response"],
            Self::Action => &["Goal", "Result", "Feedback"],
        }
    }
}

/// A parsed interface file.
#[derive(Debug, Clone, PartialEq)]
pub struct Definition {
    pub kind: Kind,
    /// The comment block at the top of the file.
    pub comment: String,
    /// One per part of `kind.parts()`.
    pub sections: Vec<Section>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line in the file.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ParseError {}

const SEPARATOR: &str = "---";

/// Parses the text of an interface file of the given kind.
pub fn parse(text: &str, kind: Kind) -> Result<Definition, ParseError> {
    let text = text.replace('\t', " ");
    let lines: Vec<&str> = text.lines().collect();
    let mut sections = vec![Section::default()];
    let mut last_line = 0;
    for (index, raw) in lines.iter().enumerate() {
        let line = index + 1;
        last_line = line;
        if raw.trim_end() == SEPARATOR {
            if sections.len() == kind.parts().len() {
                return Err(err(line, separator_count_message(kind)));
            }
            sections.push(Section::default());
            continue;
        }
        let section = sections.last_mut().ok_or_else(|| err(line, "internal"))?;
        parse_line(raw, line, section)?;
    }
    if sections.len() != kind.parts().len() {
        return Err(err(last_line.max(1), separator_count_message(kind)));
    }
    Ok(Definition {
        kind,
        comment: file_comment(&lines),
        sections,
    })
}

fn separator_count_message(kind: Kind) -> String {
    let parts = kind.parts();
    format!(
        "a .{} file has {} part(s) ({}) separated by `{SEPARATOR}` lines, so exactly {} `{SEPARATOR}` line(s)",
        kind.dir(),
        parts.len(),
        parts.join(", "),
        parts.len() - 1
    )
}

/// The comment lines at the very top of the file, up to the first line that is not a comment.
fn file_comment(lines: &[&str]) -> String {
    lines
        .iter()
        .map(|l| l.trim())
        .take_while(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches('#').trim())
        .collect::<Vec<_>>()
        .join("\n")
}

fn err(line: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        line,
        message: message.into(),
    }
}

/// Parses one line into `section`. As in rosidl, `#` starts a comment anywhere on the line
/// (so string values cannot contain `#`), and `=` makes the line a constant.
fn parse_line(raw: &str, line: usize, section: &mut Section) -> Result<(), ParseError> {
    let (code, comment) = match raw.find('#') {
        Some(i) => (&raw[..i], raw[i + 1..].trim()),
        None => (raw, ""),
    };
    let code = code.trim();
    if code.is_empty() {
        return Ok(());
    }
    let (type_text, rest) = code.split_once(' ').unwrap_or((code, ""));
    let rest = rest.trim();
    if rest.is_empty() {
        return Err(err(
            line,
            format!(
                "expected `TYPE NAME`, `TYPE NAME DEFAULT` or `TYPE NAME=VALUE`, found `{code}`"
            ),
        ));
    }
    let ty = parse_type(type_text).map_err(|m| err(line, m))?;
    if let Some((name, value)) = rest.split_once('=') {
        let constant = parse_constant(ty, name.trim(), value.trim(), comment, line)?;
        if section.constants.iter().any(|c| c.name == constant.name) {
            return Err(err(
                line,
                format!("constant `{}` is defined twice", constant.name),
            ));
        }
        section.constants.push(constant);
    } else {
        let (name, default_text) = rest.split_once(' ').unwrap_or((rest, ""));
        check_field_name(name).map_err(|m| err(line, m))?;
        if section.fields.iter().any(|f| f.name == name) {
            return Err(err(line, format!("field `{name}` is defined twice")));
        }
        let default_text = default_text.trim();
        let default = if default_text.is_empty() {
            None
        } else {
            let value = parse_default(&ty, default_text)
                .map_err(|m| err(line, format!("default value of `{name}`: {m}")))?;
            Some(value)
        };
        section.fields.push(Field {
            ty,
            name: name.to_string(),
            default,
            comment: comment.to_string(),
            line,
        });
    }
    Ok(())
}

fn parse_constant(
    ty: FieldType,
    name: &str,
    value: &str,
    comment: &str,
    line: usize,
) -> Result<Constant, ParseError> {
    check_constant_name(name).map_err(|m| err(line, m))?;
    let kind = match ty {
        FieldType {
            base:
                BaseType::Primitive {
                    kind,
                    string_bound: None,
                },
            array: Array::Single,
        } => kind,
        _ => {
            return Err(err(
                line,
                format!("constant `{name}` must have a primitive, non-array, unbounded type"),
            ))
        }
    };
    let value = parse_scalar(kind, None, value)
        .map_err(|m| err(line, format!("value of constant `{name}`: {m}")))?;
    Ok(Constant {
        ty: kind,
        name: name.to_string(),
        value,
        comment: comment.to_string(),
        line,
    })
}

/// Parses a type such as `uint8`, `string<=20`, `Move[]`, `std_msgs/Header`, `uint8[<=12]`.
pub fn parse_type(text: &str) -> Result<FieldType, String> {
    let (base_text, array) = match text.find('[') {
        None => (text, Array::Single),
        Some(open) => {
            let inner = text[open + 1..]
                .strip_suffix(']')
                .ok_or_else(|| format!("array type `{text}` must end with `]`"))?;
            let array = if inner.is_empty() {
                Array::Unbounded
            } else if let Some(n) = inner.strip_prefix("<=") {
                Array::Bounded(parse_bound(n, text)?)
            } else {
                Array::Fixed(parse_bound(inner, text)?)
            };
            (&text[..open], array)
        }
    };
    Ok(FieldType {
        base: parse_base_type(base_text)?,
        array,
    })
}

fn parse_bound(text: &str, whole: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "bad size `{text}` in `{whole}`: expected a positive integer"
        )),
    }
}

fn parse_base_type(text: &str) -> Result<BaseType, String> {
    if let Some((prefix, bound)) = text.split_once("<=") {
        return match Primitive::from_name(prefix) {
            Some(kind) if kind.is_string() => Ok(BaseType::Primitive {
                kind,
                string_bound: Some(parse_bound(bound, text)?),
            }),
            _ => Err(format!(
                "`{text}`: only string and wstring take an upper bound `<=N`"
            )),
        };
    }
    if let Some(kind) = Primitive::from_name(text) {
        return Ok(BaseType::Primitive {
            kind,
            string_bound: None,
        });
    }
    let parts: Vec<&str> = text.split('/').collect();
    let (package, name) = match parts.as_slice() {
        [name] => (None, *name),
        [package, name] | [package, "msg", name] => (Some(*package), *name),
        _ => return Err(format!("unknown type `{text}`")),
    };
    if let Some(package) = package {
        check_package_name(package).map_err(|m| format!("type `{text}`: {m}"))?;
    }
    if !is_type_name(name) {
        return Err(format!(
            "unknown type `{text}`: not a primitive type, and `{name}` is not a message name (CamelCase)"
        ));
    }
    Ok(BaseType::Named {
        package: package.map(str::to_string),
        name: name.to_string(),
    })
}

/// Interface (type) names: `^[A-Z][A-Za-z0-9]*$`.
pub fn is_type_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase()) && chars.all(|c| c.is_ascii_alphanumeric())
}

/// Lower-case words joined by single underscores: field and package names.
fn is_snake_name(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !name.contains("__")
        && !name.ends_with('_')
}

pub fn check_package_name(name: &str) -> Result<(), String> {
    if is_snake_name(name) {
        Ok(())
    } else {
        Err(format!(
            "bad package name `{name}`: lower case letters, digits and single underscores"
        ))
    }
}

fn check_field_name(name: &str) -> Result<(), String> {
    if is_snake_name(name) {
        Ok(())
    } else {
        Err(format!(
            "bad field name `{name}`: a lower case letter, then lower case letters, digits and \
             single underscores, not ending in `_`"
        ))
    }
}

fn check_constant_name(name: &str) -> Result<(), String> {
    let ok = name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        && !name.contains("__")
        && !name.ends_with('_');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "bad constant name `{name}`: an upper case letter, then upper case letters, digits and \
             single underscores, not ending in `_`"
        ))
    }
}

fn parse_default(ty: &FieldType, text: &str) -> Result<Value, String> {
    let (kind, string_bound) = match &ty.base {
        BaseType::Primitive { kind, string_bound } => (*kind, *string_bound),
        BaseType::Named { .. } => {
            return Err("fields of a message type cannot have a default value".to_string())
        }
    };
    if ty.array == Array::Single {
        return parse_scalar(kind, string_bound, text);
    }
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(|| format!("an array default must be written `[a, b, ...]`, found `{text}`"))?;
    let items = split_list(inner)?
        .iter()
        .map(|item| parse_scalar(kind, string_bound, item))
        .collect::<Result<Vec<_>, _>>()?;
    match ty.array {
        Array::Fixed(n) if items.len() != n => Err(format!(
            "{} values for an array of exactly {n}",
            items.len()
        )),
        Array::Bounded(n) if items.len() > n => Err(format!(
            "{} values for an array of at most {n}",
            items.len()
        )),
        _ => Ok(Value::List(items)),
    }
}

/// Splits the inside of `[...]` at the commas that are not inside quotes.
fn split_list(inner: &str) -> Result<Vec<String>, String> {
    if inner.trim().is_empty() {
        return Ok(Vec::new());
    }
    let mut items = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in inner.chars() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
                current.push(c);
            }
            None if c == ',' => items.push(std::mem::take(&mut current).trim().to_string()),
            None => {
                if c == '"' || c == '\'' {
                    quote = Some(c);
                }
                current.push(c);
            }
        }
    }
    if quote.is_some() {
        return Err(format!("unterminated quote in `[{inner}]`"));
    }
    items.push(current.trim().to_string());
    if items.iter().any(String::is_empty) {
        return Err(format!("empty element in `[{inner}]`"));
    }
    Ok(items)
}

/// Parses one value of a primitive type, with rosidl's rules for each.
pub fn parse_scalar(
    kind: Primitive,
    string_bound: Option<usize>,
    text: &str,
) -> Result<Value, String> {
    match kind {
        Primitive::Bool => match text.to_ascii_lowercase().as_str() {
            "true" | "1" => Ok(Value::Bool(true)),
            "false" | "0" => Ok(Value::Bool(false)),
            _ => Err(format!("`{text}` is not a bool (true, false, 1, 0)")),
        },
        Primitive::Float32 | Primitive::Float64 => {
            let v: f64 = text
                .parse()
                .map_err(|_| format!("`{text}` is not a {}", kind.name()))?;
            if kind == Primitive::Float32 && v.is_finite() && v.abs() > f64::from(f32::MAX) {
                return Err(format!("`{text}` is out of the range of float32"));
            }
            Ok(Value::Float(v))
        }
        Primitive::String | Primitive::WString => {
            let s = unquote(text)?;
            let len = if kind == Primitive::String {
                s.len()
            } else {
                s.chars().count()
            };
            match string_bound {
                Some(bound) if len > bound => {
                    Err(format!("`{s}` is longer than the bound {bound}"))
                }
                _ => Ok(Value::Str(s)),
            }
        }
        _ => {
            let (lo, hi) = kind.int_range().ok_or("internal: not an integer type")?;
            let v: i128 = text
                .strip_prefix('+')
                .unwrap_or(text)
                .parse()
                .map_err(|_| format!("`{text}` is not an integer"))?;
            if v < lo || v > hi {
                return Err(format!(
                    "{v} is out of the range of {} ({lo}..={hi})",
                    kind.name()
                ));
            }
            Ok(Value::Int(v))
        }
    }
}

/// A string value may be quoted with `"` or `'` (to keep outer spaces); inside, the same quote
/// must be escaped with a backslash.
fn unquote(text: &str) -> Result<String, String> {
    for q in ['"', '\''] {
        let Some(inner) = text.strip_prefix(q).and_then(|t| t.strip_suffix(q)) else {
            continue;
        };
        let mut out = String::new();
        let mut chars = inner.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\\' && chars.peek() == Some(&q) {
                out.push(q);
                chars.next();
            } else if c == q {
                return Err(format!("unescaped {q} inside the string {text}"));
            } else {
                out.push(c);
            }
        }
        return Ok(out);
    }
    Ok(text.to_string())
}
