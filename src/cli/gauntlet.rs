//! `checkers-robot arena --gauntlet`: a candidate against a fixed set of opponents
//! (`config/gauntlet.yaml`: the previous master, MCTS, alpha-beta at fixed depths) at each
//! time control, from the built-in openings with colours swapped. Prints each score with its
//! interval and writes the table to `docs/gauntlet.md`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use search::{parse_duration, Gauntlet, MatchSettings, Opening, PlannerSpec};
use serde_yaml::Value;

use super::bad_input;
use super::matches::progress;

/// What the gauntlet needs of the arguments.
pub struct GauntletArgs<'a> {
    pub candidate: PlannerSpec,
    pub file: &'a Path,
    pub table: &'a Path,
    pub time_controls: Option<Vec<Duration>>,
    pub games: usize,
    pub threads: usize,
    pub max_plies: usize,
    pub think: Option<Duration>,
}

/// Why a gauntlet file was refused.
#[derive(Debug, thiserror::Error)]
pub enum GauntletFileError {
    #[error("not YAML: {0}")]
    Yaml(#[from] serde_yaml::Error),
    #[error("expected `time_controls: [100ms, 1s]`")]
    NoTimeControls,
    #[error("a time control is a duration such as 1s")]
    TimeControlNotText,
    #[error("time control `{text}`: {why}")]
    TimeControl { text: String, why: &'static str },
    #[error("expected `opponents:`, a mapping of names to planner specs")]
    NoOpponents,
    #[error("opponent names are strings")]
    NameNotText,
    #[error("opponent `{0}`: expected a planner spec")]
    SpecNotText(String),
    #[error("opponent `{name}`: {why}")]
    Spec {
        name: String,
        why: search::SpecError,
    },
    #[error("a gauntlet needs a time control and an opponent")]
    Empty,
}

/// A gauntlet file: `time_controls: [100ms, 1s]` and `opponents:`, names to planner specs.
pub fn parse_gauntlet(text: &str) -> Result<Gauntlet, GauntletFileError> {
    use GauntletFileError as E;
    let doc: Value = serde_yaml::from_str(text)?;
    let time_controls = doc
        .get("time_controls")
        .and_then(Value::as_sequence)
        .ok_or(E::NoTimeControls)?
        .iter()
        .map(|v| {
            let text = v.as_str().ok_or(E::TimeControlNotText)?;
            parse_duration(text).map_err(|why| E::TimeControl {
                text: text.to_string(),
                why,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let opponents = doc
        .get("opponents")
        .and_then(Value::as_mapping)
        .ok_or(E::NoOpponents)?
        .iter()
        .map(|(k, v)| {
            let name = k.as_str().ok_or(E::NameNotText)?;
            let spec = v.as_str().ok_or_else(|| E::SpecNotText(name.to_string()))?;
            let spec: PlannerSpec = spec.parse().map_err(|why| E::Spec {
                name: name.to_string(),
                why,
            })?;
            Ok((name.to_string(), spec))
        })
        .collect::<Result<Vec<_>, E>>()?;
    if time_controls.is_empty() || opponents.is_empty() {
        return Err(E::Empty);
    }
    Ok(Gauntlet {
        time_controls,
        opponents,
    })
}

fn format_tc(tc: Duration) -> String {
    if tc < Duration::from_secs(1) {
        format!("{} ms", tc.as_millis())
    } else {
        format!("{} s", tc.as_secs_f64())
    }
}

/// Prints one `gauntlet:` line per time control and opponent (`gauntlet: TC vs NAME score S
/// [LOW, HIGH] (W-D-L) elo E [LOW, HIGH]`), then `table: PATH`.
pub fn run(g: GauntletArgs<'_>, openings: &[Opening]) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(g.file)
        .map_err(|e| bad_input(format!("cannot read {}: {e}", g.file.display())))?;
    let mut gauntlet =
        parse_gauntlet(&text).map_err(|e| bad_input(format!("{}: {e}", g.file.display())))?;
    if let Some(tcs) = g.time_controls {
        gauntlet.time_controls = tcs;
    }
    let settings = MatchSettings {
        games: g.games,
        threads: g.threads,
        max_plies: g.max_plies,
        think: g.think,
    };
    let total = g.games * gauntlet.time_controls.len() * gauntlet.opponents.len();
    let bar = progress(total);
    let matches = gauntlet.play(&g.candidate, openings, &settings, &|| bar.inc(1));
    bar.finish_and_clear();
    let mut table = format!(
        "# Gauntlet\n\nCandidate: `{}` (its time limit replaced by the time control), {} games \
         per opponent and time control, from the built-in openings with colours swapped (`checkers-robot arena --gauntlet`; the \
         opponents are in `{}`).\n\n| time a move | opponent | games | +W =D -L | score [95%] | Elo [95%] |\n|---|---|---|---|---|---|\n",
        g.candidate,
        g.games,
        g.file.display()
    );
    for m in &matches {
        let (tc, name) = (m.time_control, &m.opponent);
        let t = m.played.tally();
        let (lo, hi) = t.elo_interval95();
        let (slo, shi) = t.score_interval95();
        println!(
            "gauntlet: {} vs {name} score {:.3} [{slo:.3}, {shi:.3}] ({}-{}-{}) elo {:.0} [{lo:.0}, {hi:.0}]",
            format_tc(tc),
            t.score(),
            t.wins,
            t.draws,
            t.losses,
            t.elo()
        );
        let _ = writeln!(
            table,
            "| {} | {name} (`{}`) | {} | +{} ={} -{} | {:.3} [{slo:.3}, {shi:.3}] | {:+.0} [{lo:+.0}, {hi:+.0}] |",
            format_tc(tc),
            m.played.b,
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            t.score(),
            t.elo()
        );
    }
    if let Some(dir) = g.table.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    std::fs::write(g.table, table)
        .with_context(|| format!("cannot write {}", g.table.display()))?;
    println!("table: {}", g.table.display());
    Ok(ExitCode::SUCCESS)
}

/// The default table's place.
pub fn default_table() -> PathBuf {
    PathBuf::from("docs/gauntlet.md")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_gauntlet_parses() {
        let text = include_str!("../../config/gauntlet.yaml");
        let g = parse_gauntlet(text).expect("parses");
        assert_eq!(
            g.time_controls,
            [Duration::from_millis(100), Duration::from_secs(1)]
        );
        assert!(g.opponents.iter().any(|(n, _)| n == "previous-master"));
        assert!(g.opponents.len() >= 4);
    }

    #[test]
    fn bad_files_say_why() {
        assert!(parse_gauntlet("time_controls: [1s]\n").is_err());
        assert!(
            parse_gauntlet("time_controls: [fast]\nopponents:\n  a: mcts\n")
                .expect_err("bad tc")
                .to_string()
                .contains("fast")
        );
        assert!(
            parse_gauntlet("time_controls: [1s]\nopponents:\n  a: chess\n")
                .expect_err("bad spec")
                .to_string()
                .contains("chess")
        );
    }
}
