//! Substitutions in launch XML attribute values, parsed as ROS 2's frontend parses them:
//! `text $(name arg 'quoted arg' $(nested)) text`. Arguments are separated by whitespace and may
//! be single- or double-quoted; substitutions nest anywhere, quotes included.

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SubstError {
    #[error("unclosed substitution in {0:?}: missing ')'")]
    Unclosed(String),
    #[error("unclosed quote in {0:?}")]
    UnclosedQuote(String),
    #[error("empty substitution name in {0:?}")]
    NoName(String),
    #[error("$({name}) takes {expected} argument(s), got {got}")]
    Arity {
        name: String,
        expected: &'static str,
        got: usize,
    },
    #[error("launch argument {0:?} is not set (no <arg>, <let> or name:=value gave it)")]
    UndefinedVar(String),
    #[error("environment variable {0:?} is not set and $(env) was given no default")]
    UndefinedEnv(String),
    #[error("package {0:?} cannot be found without ROS 2: only checkers_robot is known")]
    UnknownPackage(String),
    #[error("substitution $({0}) is not supported by this runner (only var, env, optenv, find-pkg-share, dirname, filename)")]
    Unsupported(String),
}

/// A parsed attribute value: literal text and substitutions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    Text(String),
    Sub { name: String, args: Vec<Vec<Part>> },
}

/// What substitutions read: launch configurations, the environment, where files are.
pub trait Scope {
    fn var(&self, name: &str) -> Option<String>;
    fn env(&self, name: &str) -> Option<String>;
    /// `checkers_robot`'s share directory (the repository root for this runner).
    fn share(&self) -> String;
    /// The directory and file name of the launch file being read.
    fn current_file(&self) -> (String, String);
}

/// Parses a whole attribute value.
pub fn parse(text: &str) -> Result<Vec<Part>, SubstError> {
    let chars: Vec<char> = text.chars().collect();
    let mut pos = 0;
    let parts = parse_template(&chars, &mut pos, text)?;
    Ok(parts)
}

/// Parses and evaluates an attribute value.
pub fn expand(text: &str, scope: &dyn Scope) -> Result<String, SubstError> {
    eval(&parse(text)?, scope)
}

fn parse_template(c: &[char], pos: &mut usize, src: &str) -> Result<Vec<Part>, SubstError> {
    let mut parts = Vec::new();
    let mut text = String::new();
    while *pos < c.len() {
        if c[*pos] == '$' && c.get(*pos + 1) == Some(&'(') {
            flush(&mut text, &mut parts);
            parts.push(parse_sub(c, pos, src)?);
        } else {
            text.push(c[*pos]);
            *pos += 1;
        }
    }
    flush(&mut text, &mut parts);
    Ok(parts)
}

fn flush(text: &mut String, parts: &mut Vec<Part>) {
    if !text.is_empty() {
        parts.push(Part::Text(std::mem::take(text)));
    }
}

/// At `$(`: reads up to the matching `)`.
fn parse_sub(c: &[char], pos: &mut usize, src: &str) -> Result<Part, SubstError> {
    *pos += 2;
    let start = *pos;
    while *pos < c.len() && !c[*pos].is_whitespace() && c[*pos] != ')' {
        *pos += 1;
    }
    let name: String = c[start..*pos].iter().collect();
    if name.is_empty() {
        return Err(SubstError::NoName(src.to_string()));
    }
    let mut args = Vec::new();
    loop {
        while *pos < c.len() && c[*pos].is_whitespace() {
            *pos += 1;
        }
        match c.get(*pos) {
            None => return Err(SubstError::Unclosed(src.to_string())),
            Some(')') => {
                *pos += 1;
                return Ok(Part::Sub { name, args });
            }
            Some(_) => args.push(parse_arg(c, pos, src)?),
        }
    }
}

/// One argument: unquoted runs, quoted strings and nested substitutions, up to whitespace or
/// the closing `)`.
fn parse_arg(c: &[char], pos: &mut usize, src: &str) -> Result<Vec<Part>, SubstError> {
    let mut parts = Vec::new();
    let mut text = String::new();
    while let Some(&ch) = c.get(*pos) {
        if ch.is_whitespace() || ch == ')' {
            break;
        }
        if ch == '$' && c.get(*pos + 1) == Some(&'(') {
            flush(&mut text, &mut parts);
            parts.push(parse_sub(c, pos, src)?);
        } else if ch == '\'' || ch == '"' {
            *pos += 1;
            loop {
                match c.get(*pos) {
                    None => return Err(SubstError::UnclosedQuote(src.to_string())),
                    Some(&q) if q == ch => {
                        *pos += 1;
                        break;
                    }
                    Some('$') if c.get(*pos + 1) == Some(&'(') => {
                        flush(&mut text, &mut parts);
                        parts.push(parse_sub(c, pos, src)?);
                    }
                    Some(&other) => {
                        text.push(other);
                        *pos += 1;
                    }
                }
            }
        } else {
            text.push(ch);
            *pos += 1;
        }
    }
    flush(&mut text, &mut parts);
    Ok(parts)
}

/// Evaluates parsed parts to a string.
pub fn eval(parts: &[Part], scope: &dyn Scope) -> Result<String, SubstError> {
    let mut out = String::new();
    for p in parts {
        match p {
            Part::Text(t) => out.push_str(t),
            Part::Sub { name, args } => {
                let args = args
                    .iter()
                    .map(|a| eval(a, scope))
                    .collect::<Result<Vec<_>, _>>()?;
                out.push_str(&call(name, &args, scope)?);
            }
        }
    }
    Ok(out)
}

fn arity(name: &str, args: &[String], ok: bool, expected: &'static str) -> Result<(), SubstError> {
    if ok {
        Ok(())
    } else {
        Err(SubstError::Arity {
            name: name.to_string(),
            expected,
            got: args.len(),
        })
    }
}

fn call(name: &str, args: &[String], scope: &dyn Scope) -> Result<String, SubstError> {
    match name {
        "var" => {
            arity(name, args, args.len() == 1, "1")?;
            scope
                .var(&args[0])
                .ok_or_else(|| SubstError::UndefinedVar(args[0].clone()))
        }
        "env" | "optenv" => {
            arity(name, args, (1..=2).contains(&args.len()), "1 or 2")?;
            match (scope.env(&args[0]), args.get(1)) {
                (Some(v), _) => Ok(v),
                (None, Some(default)) => Ok(default.clone()),
                (None, None) if name == "optenv" => Ok(String::new()),
                (None, None) => Err(SubstError::UndefinedEnv(args[0].clone())),
            }
        }
        "find-pkg-share" => {
            arity(name, args, args.len() == 1, "1")?;
            if args[0] == super::PACKAGE {
                Ok(scope.share())
            } else {
                Err(SubstError::UnknownPackage(args[0].clone()))
            }
        }
        "dirname" => {
            arity(name, args, args.is_empty(), "0")?;
            Ok(scope.current_file().0)
        }
        "filename" => {
            arity(name, args, args.is_empty(), "0")?;
            Ok(scope.current_file().1)
        }
        other => Err(SubstError::Unsupported(other.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct S(HashMap<&'static str, &'static str>);
    impl Scope for S {
        fn var(&self, name: &str) -> Option<String> {
            self.0.get(name).map(|s| s.to_string())
        }
        fn env(&self, name: &str) -> Option<String> {
            (name == "HOME").then(|| "/home/me".to_string())
        }
        fn share(&self) -> String {
            "/repo".into()
        }
        fn current_file(&self) -> (String, String) {
            ("/repo/launch".into(), "sim.launch.xml".into())
        }
    }

    fn scope() -> S {
        S(HashMap::from([("level", "hard"), ("which", "level")]))
    }

    #[test]
    fn text_and_vars_concatenate() {
        let s = scope();
        assert_eq!(
            expand(
                "$(find-pkg-share checkers_robot)/config/difficulty/$(var level).yaml",
                &s
            ),
            Ok("/repo/config/difficulty/hard.yaml".into())
        );
        assert_eq!(expand("plain", &s), Ok("plain".into()));
        assert_eq!(expand("", &s), Ok("".into()));
    }

    #[test]
    fn substitutions_nest_and_quotes_group_words() {
        let s = scope();
        assert_eq!(expand("$(var $(var which))", &s), Ok("hard".into()));
        assert_eq!(expand("$(env NOPE 'a b')", &s), Ok("a b".into()));
        assert_eq!(
            expand("$(env NOPE '$(var level)!')", &s),
            Ok("hard!".into())
        );
        assert_eq!(expand("$(env HOME /tmp)", &s), Ok("/home/me".into()));
        assert_eq!(expand("$(optenv NOPE)", &s), Ok("".into()));
        assert_eq!(expand("$(dirname)/x", &s), Ok("/repo/launch/x".into()));
    }

    #[test]
    fn errors_name_the_problem() {
        let s = scope();
        assert_eq!(
            expand("$(var nope)", &s),
            Err(SubstError::UndefinedVar("nope".into()))
        );
        assert_eq!(
            expand("$(env NOPE)", &s),
            Err(SubstError::UndefinedEnv("NOPE".into()))
        );
        assert_eq!(
            expand("$(find-pkg-share rviz2)", &s),
            Err(SubstError::UnknownPackage("rviz2".into()))
        );
        assert_eq!(
            expand("$(command 'cat x')", &s),
            Err(SubstError::Unsupported("command".into()))
        );
        assert!(matches!(
            expand("$(var x", &s),
            Err(SubstError::Unclosed(_))
        ));
        assert!(matches!(
            expand("$(env 'x)", &s),
            Err(SubstError::UnclosedQuote(_))
        ));
        assert!(matches!(
            expand("$(var a b)", &s),
            Err(SubstError::Arity { got: 2, .. })
        ));
    }
}
