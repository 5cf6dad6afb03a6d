//! Difficulty levels: `config/difficulty/<level>.yaml`, each a ROS 2 params file for the
//! planner node naming an algorithm and its limits:
//!
//! ```yaml
//! planner:            # or /** for any node
//!   ros__parameters:
//!     algorithm: alphabeta
//!     time_budget_s: 0.5
//!     depth: 12       # any key of the algorithm by its parameter name (`search::reference`,
//!                     # the table in docs/planners.md)
//!     rank: 6         # the level's place in the ladder, 1 = easiest
//!     description: "..."
//! ```

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_yaml::Value;

use crate::{PlannerSpec, SpecError};

#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// The file's stem: `beginner`, `master`...
    pub name: String,
    /// The level's place in the ladder, 1 the easiest; 0 where the file gives none.
    pub rank: u32,
    pub spec: PlannerSpec,
    pub description: String,
}

#[derive(Debug, thiserror::Error)]
pub enum LevelError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: not YAML: {source}")]
    Yaml {
        path: PathBuf,
        source: serde_yaml::Error,
    },
    #[error("{path}: {why}")]
    Shape { path: PathBuf, why: String },
    #[error("{path}: {source}")]
    Spec { path: PathBuf, source: SpecError },
    #[error("no difficulty level `{name}` in {dir} (have: {have})")]
    Unknown {
        name: String,
        dir: PathBuf,
        have: String,
    },
}

/// What is wrong with one of a level's parameters.
#[derive(Debug, thiserror::Error)]
pub enum ParamError {
    #[error("`algorithm` must name a planner")]
    NoAlgorithm,
    #[error("`{key}` {why}")]
    Value { key: String, why: String },
    #[error("`{key}`: {source}")]
    Spec { key: String, source: SpecError },
}

impl ParamError {
    /// The parameter at fault.
    pub fn key(&self) -> &str {
        match self {
            ParamError::NoAlgorithm => "algorithm",
            ParamError::Value { key, .. } | ParamError::Spec { key, .. } => key,
        }
    }
}

/// The one reading of a level, from its parameters as (name, text) pairs: `level:NAME` reads
/// them from the file, the planner node from its ROS parameters (the same file, given with
/// `--params-file`), so a level means the same planner everywhere.
pub fn level_from_params<'a>(
    name: &str,
    params: impl IntoIterator<Item = (&'a str, String)>,
) -> Result<Level, ParamError> {
    let params: Vec<(&str, String)> = params.into_iter().collect();
    let algorithm = params
        .iter()
        .find(|(k, _)| *k == "algorithm")
        .map(|(_, v)| v.as_str())
        .ok_or(ParamError::NoAlgorithm)?;
    let spec_err = |key: &str| {
        let key = key.to_string();
        move |source| ParamError::Spec { key, source }
    };
    let mut spec = PlannerSpec::new(algorithm.parse().map_err(spec_err("algorithm"))?);
    let mut rank = 0;
    let mut description = String::new();
    for (key, text) in &params {
        let value = |why: &str| ParamError::Value {
            key: key.to_string(),
            why: why.to_string(),
        };
        match *key {
            "algorithm" => {}
            "rank" => rank = text.parse().map_err(|_| value("must be a whole number"))?,
            "description" => description = text.clone(),
            "time_budget_s" => {
                let secs: f64 = text
                    .parse()
                    .map_err(|_| value("must be a number of seconds"))?;
                // 0: no time limit (a goal's own budget, or another limit, decides).
                if secs == 0.0 {
                    continue;
                }
                if !(secs > 0.0 && secs <= 86_400.0) {
                    return Err(value(
                        "must be 0 (no time limit) or above 0 and at most a day",
                    ));
                }
                spec.set_time(Duration::from_secs_f64(secs));
            }
            other => spec.set_param(other, text).map_err(spec_err(other))?,
        }
    }
    Ok(Level {
        name: name.to_string(),
        rank,
        spec,
        description,
    })
}

/// Reads one level from the text of its params file.
pub fn parse_level(name: &str, text: &str, path: &Path) -> Result<Level, LevelError> {
    let shape = |why: &str| LevelError::Shape {
        path: path.to_path_buf(),
        why: why.to_string(),
    };
    let doc: Value = serde_yaml::from_str(text).map_err(|source| LevelError::Yaml {
        path: path.to_path_buf(),
        source,
    })?;
    let node = doc
        .get("planner")
        .or_else(|| doc.get("/**"))
        .ok_or_else(|| shape("expected a top-level key `planner` or `/**`"))?;
    let params = node
        .get("ros__parameters")
        .ok_or_else(|| shape("expected `ros__parameters` under the node key"))?;
    let Some(map) = params.as_mapping() else {
        return Err(shape("`ros__parameters` must be a mapping"));
    };
    let mut entries = Vec::new();
    for (k, v) in map {
        let Some(key) = k.as_str() else {
            return Err(shape("parameter names must be strings"));
        };
        let text = match v {
            Value::Number(n) => n.to_string(),
            Value::String(s) => s.clone(),
            Value::Bool(b) => b.to_string(),
            _ => return Err(shape(&format!("`{key}` must be a number or a string"))),
        };
        entries.push((key, text));
    }
    level_from_params(name, entries).map_err(|e| match e {
        ParamError::Spec { source, .. } => LevelError::Spec {
            path: path.to_path_buf(),
            source,
        },
        other => shape(&other.to_string()),
    })
}

pub fn load_level_file(path: &Path) -> Result<Level, LevelError> {
    let text = std::fs::read_to_string(path).map_err(|source| LevelError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("level")
        .to_string();
    parse_level(&name, &text, path)
}

/// Every `*.yaml` level in `dir`, easiest first (see [`load_each`]); the first file that
/// does not read is the error.
pub fn load_all(dir: &Path) -> Result<Vec<Level>, LevelError> {
    let (levels, mut errors) = load_each(dir);
    match errors.is_empty() {
        true => Ok(levels),
        false => Err(errors.swap_remove(0)),
    }
}

/// Every `*.yaml` level in `dir` that reads, easiest first (by `rank`, a level without one
/// last, then by name), and what was wrong with the others: a menu of levels shows the good
/// ones and says why the rest are missing.
pub fn load_each(dir: &Path) -> (Vec<Level>, Vec<LevelError>) {
    let read = |source| LevelError::Read {
        path: dir.to_path_buf(),
        source,
    };
    let (mut levels, mut errors) = (Vec::new(), Vec::new());
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => return (levels, vec![read(e)]),
    };
    let mut paths: Vec<PathBuf> = Vec::new();
    for entry in entries {
        match entry {
            Ok(e) => paths.push(e.path()),
            Err(e) => errors.push(read(e)),
        }
    }
    paths.sort();
    for path in paths {
        if path.extension().and_then(|e| e.to_str()) == Some("yaml") {
            match load_level_file(&path) {
                Ok(level) => levels.push(level),
                Err(e) => errors.push(e),
            }
        }
    }
    levels.sort_by_key(|l| (l.rank == 0, l.rank, l.name.clone()));
    (levels, errors)
}

/// The level called `name` in `dir`.
pub fn load_level(dir: &Path, name: &str) -> Result<Level, LevelError> {
    let path = dir.join(format!("{name}.yaml"));
    if path.is_file() {
        return load_level_file(&path);
    }
    let have = load_all(dir)
        .map(|l| {
            l.iter()
                .map(|l| l.name.clone())
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default();
    Err(LevelError::Unknown {
        name: name.to_string(),
        dir: dir.to_path_buf(),
        have,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Algorithm;

    fn parse(text: &str) -> Result<Level, LevelError> {
        parse_level("test", text, Path::new("test.yaml"))
    }

    #[test]
    fn reads_both_node_keys_and_the_limits() {
        let l = parse(
            "planner:\n  ros__parameters:\n    algorithm: alphabeta\n    time_budget_s: 0.5\n    depth: 12\n    rank: 6\n    description: the best\n",
        )
        .expect("valid");
        assert_eq!(l.spec.algorithm(), Algorithm::AlphaBeta);
        assert_eq!(l.spec.limits().time, Some(Duration::from_millis(500)));
        assert_eq!(l.spec.limits().depth, Some(12));
        assert_eq!(l.rank, 6);
        assert_eq!(l.description, "the best");
        let l =
            parse("/**:\n  ros__parameters:\n    algorithm: mcts\n    sims: 2000\n    seed: 4\n")
                .expect("valid");
        assert_eq!(l.spec.limits().sims, Some(2000));
        assert_eq!(l.spec.seed(), 4);
    }

    #[test]
    fn explains_bad_files() {
        let msg = |t: &str| parse(t).expect_err(t).to_string();
        assert!(msg("other:\n  x: 1\n").contains("`planner` or `/**`"));
        assert!(msg("planner:\n  algorithm: mcts\n").contains("ros__parameters"));
        assert!(msg("planner:\n  ros__parameters:\n    depth: 3\n").contains("algorithm"));
        assert!(msg("planner:\n  ros__parameters:\n    algorithm: chess\n").contains("chess"));
        assert!(
            msg("planner:\n  ros__parameters:\n    algorithm: mcts\n    depth: 3\n")
                .contains("takes no `depth`")
        );
        assert!(msg(
            "planner:\n  ros__parameters:\n    algorithm: alphabeta\n    time_budget_s: -1\n"
        )
        .contains("time_budget_s"));
        assert!(msg("planner: [").contains("not YAML"));
    }

    #[test]
    fn the_shipped_levels_load_and_form_a_ladder() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/difficulty");
        let levels = load_all(&dir).expect("shipped levels load");
        assert!(levels.len() >= 5, "{}", levels.len());
        let ranks: Vec<u32> = levels.iter().map(|l| l.rank).collect();
        assert!(ranks.windows(2).all(|w| w[0] < w[1]), "{ranks:?}");
        assert!(load_level(&dir, &levels[0].name).is_ok());
        let master = load_level(&dir, "master").expect("master");
        let PlannerSpec::AlphaBeta(ab) = master.spec else {
            panic!("master is alpha-beta: {}", master.spec);
        };
        assert_eq!(ab.endgame, 5, "master reads the endgame database");
        assert!(
            ab.patterns && ab.net,
            "master evaluates with the patterns and the network over them"
        );
        assert!(ab.ponder, "master thinks on the human's time");
        assert_eq!(
            ab.pruning.to_string(),
            "futility+log+malus",
            "master prunes boldly"
        );
        assert!(
            levels.iter().filter(|l| l.spec.ponder()).count() == 1,
            "only master ponders"
        );
        assert!(matches!(
            load_level(&dir, "no-such-level"),
            Err(LevelError::Unknown { .. })
        ));
    }
}
