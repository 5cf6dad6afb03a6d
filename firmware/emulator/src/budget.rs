//! Each binary's budgets (`firmware/pico/budgets.yaml`): flash, static RAM, stack.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::EmulatorError;

/// The most one binary may use, bytes.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Budget {
    pub flash: u64,
    pub static_ram: u64,
    pub stack: u64,
}

/// What a binary used: sizes from its ELF, the stack's high-water mark from the emulator.
#[derive(Debug, Clone, Copy)]
pub struct Usage {
    pub flash: u64,
    pub static_ram: u64,
    pub stack: u64,
}

/// The budgets of every binary, by name (`control`, `field`).
#[derive(Debug, Clone, Deserialize)]
pub struct Budgets(pub BTreeMap<String, Budget>);

impl Budgets {
    pub fn read(path: &Path) -> Result<Budgets, EmulatorError> {
        let bad = |why: String| EmulatorError::Budget {
            path: path.to_owned(),
            why,
        };
        let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
        serde_yaml::from_str(&text).map_err(|e| bad(e.to_string()))
    }

    /// The budgets `usage` of binary `name` exceeds, one line each.
    pub fn exceeded(&self, name: &str, usage: Usage) -> Vec<String> {
        let Some(b) = self.0.get(name) else {
            return vec![format!("{name}: no budget")];
        };
        [
            ("flash", usage.flash, b.flash),
            ("static RAM", usage.static_ram, b.static_ram),
            ("stack", usage.stack, b.stack),
        ]
        .into_iter()
        .filter(|&(_, used, most)| used > most)
        .map(|(what, used, most)| format!("{name}: {what} {used} bytes, budget {most}"))
        .collect()
    }
}
