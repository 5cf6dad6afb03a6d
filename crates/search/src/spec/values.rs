//! Reading and writing the values of spec keys: counts, switches, decimals, durations.

use std::time::Duration;

/// Why a value is refused, shown after "bad value `V` for `KEY`: ".
pub type Why = &'static str;

/// A whole number; `_` may group digits (`4_000_000`).
pub fn count(v: &str) -> Result<u64, Why> {
    v.replace('_', "")
        .parse::<u64>()
        .map_err(|_| "expected a whole number")
}

/// A whole number from `lo` to `hi`, `why` when outside.
pub fn count_in(v: &str, lo: u64, hi: u64, why: Why) -> Result<u64, Why> {
    let n = count(v)?;
    if (lo..=hi).contains(&n) {
        Ok(n)
    } else {
        Err(why)
    }
}

pub fn depth(v: &str) -> Result<u32, Why> {
    count_in(v, 1, 100, "depth must be 1 to 100 plies").map(|d| d as u32)
}

pub fn threads(v: &str) -> Result<usize, Why> {
    count_in(v, 1, 64, "threads must be 1 to 64").map(|n| n as usize)
}

pub fn endgame(v: &str) -> Result<u32, Why> {
    let max = u64::from(crate::endgame::MAX_PIECES);
    count_in(v, 0, max, "endgame must be 0 (none) to 5 pieces").map(|n| n as u32)
}

/// `1`, `true`, `on`, `yes` or `0`, `false`, `off`, `no`.
pub fn switch(v: &str) -> Result<bool, Why> {
    match v.to_ascii_lowercase().as_str() {
        "1" | "true" | "on" | "yes" => Ok(true),
        "0" | "false" | "off" | "no" => Ok(false),
        _ => Err("expected 1 (on) or 0 (off)"),
    }
}

/// A switch as a spec shows it: only when on.
pub fn shown_switch(on: bool) -> Option<String> {
    on.then(|| "1".to_string())
}

/// A decimal such as `1.5` as a whole number of hundredths, from `lo` to `hi` of them.
/// Hundredths keep a spec `Eq` and its string exact.
pub fn hundredths(v: &str, lo: u16, hi: u16, why: Why) -> Result<u16, Why> {
    let h = (v.parse::<f64>().map_err(|_| why)? * 100.0).round();
    if h.is_finite() && h >= f64::from(lo) && h <= f64::from(hi) {
        Ok(h as u16)
    } else {
        Err(why)
    }
}

pub fn shown_hundredths(h: Option<u16>) -> Option<String> {
    h.map(|h| (f64::from(h) / 100.0).to_string())
}

/// `1s`, `500ms`, `0.25s`, `2m`, `1.5` (seconds).
pub fn parse_duration(text: &str) -> Result<Duration, Why> {
    let t = text.trim();
    let (num, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else {
        (t, 1.0)
    };
    let v: f64 = num
        .trim()
        .parse()
        .map_err(|_| "expected a duration such as 500ms, 1s or 0.5")?;
    if !v.is_finite() || v <= 0.0 || v * scale > 86_400.0 {
        return Err("a duration must be above zero and at most a day");
    }
    Ok(Duration::from_secs_f64(v * scale))
}

pub fn format_duration(d: Duration) -> String {
    if d < Duration::from_secs(1) && d.subsec_nanos().is_multiple_of(1_000_000) {
        format!("{}ms", d.as_millis())
    } else {
        format!("{}s", d.as_secs_f64())
    }
}
