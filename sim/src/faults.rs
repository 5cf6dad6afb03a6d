//! Fault injection: each fault is a parameter (`faults.NAME`), set at start with `-p` or a
//! params file, and changed at run time by publishing `NAME:=VALUE` on `/sim/set_fault`
//! (std_msgs/String). The sim publishes the faults in force on `/sim/faults` (latched).

use std::fmt;

/// Which controller a per-controller fault concerns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Controller {
    Field,
    Arm,
    Head,
}

impl Controller {
    pub const ALL: [Controller; 3] = [Controller::Field, Controller::Arm, Controller::Head];

    /// Its name in parameters, symlinks and logs.
    pub fn name(self) -> &'static str {
        match self {
            Controller::Field => "field",
            Controller::Arm => "arm",
            Controller::Head => "head",
        }
    }
}

/// The faults in force.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Faults {
    /// Probability that a sensor scan has one bit flipped.
    pub sensor_bit_flip: f64,
    /// Probability that a frame (either way, any controller) is corrupted, or preceded by garbage.
    pub serial_noise: f64,
    /// Probability that a frame (either way, any controller) is lost.
    pub drop_frames: f64,
    /// How many of the next picks fail: the cup does not seal, however well placed.
    pub failed_picks: i64,
    /// Step pulses a joint (drawn at random) will miss from now on: a stalled motor. The
    /// firmware cannot know; the next homing finds the switch off where it expects it.
    pub lost_steps: i64,
    /// Controllers that stop answering: they read and ignore everything and send nothing.
    pub silent: Vec<Controller>,
    /// A joint (1..3) whose limit switch reads closed wherever the joint is (a magnet stuck to
    /// it, a shorted output); 0: none.
    pub limit_stuck_closed: i64,
    /// A joint (1..3) whose limit switch never closes (a broken wire); 0: none.
    pub limit_never_closes: i64,
    /// Emulated boards only (`firmware:=emulated`), each taken once: the board's USB cable
    /// pulled for this many seconds, then plugged back (it boots again) ...
    pub control_unplug: f64,
    pub field_unplug: f64,
    /// ... its core hung for this many seconds (a watchdog longer than 0.1 s resets it) ...
    pub control_hang: f64,
    pub field_hang: f64,
    /// ... and this many bytes of malformed frames sent to its first port.
    pub control_flood: i64,
    pub field_flood: i64,
}

/// A fault setting that could not be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FaultError {
    #[error("expected NAME:=VALUE, got {0:?}")]
    Syntax(String),
    #[error("no fault named {0:?} ({names})", names = NAMES.join(", "))]
    Unknown(String),
    #[error("fault {name}: bad value {value:?}")]
    Value { name: String, value: String },
}

/// The fault names, as parameters take them (prefixed `faults.`).
pub const NAMES: [&str; 16] = [
    "sensor_bit_flip",
    "serial_noise",
    "drop_frames",
    "failed_picks",
    "lost_steps",
    "field_silent",
    "arm_silent",
    "head_silent",
    "limit_stuck_closed",
    "limit_never_closes",
    "control_unplug",
    "field_unplug",
    "control_hang",
    "field_hang",
    "control_flood",
    "field_flood",
];

/// The faults whose values are whole numbers (the others are probabilities, seconds or flags).
pub const COUNTS: [&str; 6] = [
    "failed_picks",
    "lost_steps",
    "limit_stuck_closed",
    "limit_never_closes",
    "control_flood",
    "field_flood",
];

impl Faults {
    pub fn is_silent(&self, c: Controller) -> bool {
        self.silent.contains(&c)
    }

    fn set_silent(&mut self, c: Controller, on: bool) {
        self.silent.retain(|&x| x != c);
        if on {
            self.silent.push(c);
        }
    }

    /// Applies `NAME:=VALUE` (the `faults.` prefix is optional).
    pub fn apply(&mut self, text: &str) -> Result<(), FaultError> {
        let (name, value) = text
            .split_once(":=")
            .ok_or_else(|| FaultError::Syntax(text.to_string()))?;
        let name = name.trim();
        let name = name.strip_prefix("faults.").unwrap_or(name);
        let value = value.trim();
        let bad = || FaultError::Value {
            name: name.to_string(),
            value: value.to_string(),
        };
        let probability = || {
            value
                .parse::<f64>()
                .ok()
                .filter(|p| (0.0..=1.0).contains(p))
                .ok_or_else(bad)
        };
        let flag = || value.parse::<bool>().map_err(|_| bad());
        let joint = || {
            value
                .parse::<i64>()
                .ok()
                .filter(|n| (0..=3).contains(n))
                .ok_or_else(bad)
        };
        let seconds = || {
            value
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && (0.0..=60.0).contains(s))
                .ok_or_else(bad)
        };
        let count = || {
            value
                .parse::<i64>()
                .ok()
                .filter(|n| *n >= 0)
                .ok_or_else(bad)
        };
        match name {
            "sensor_bit_flip" => self.sensor_bit_flip = probability()?,
            "serial_noise" => self.serial_noise = probability()?,
            "drop_frames" => self.drop_frames = probability()?,
            "failed_picks" => self.failed_picks = count()?,
            "lost_steps" => self.lost_steps = count()?,
            "field_silent" => self.set_silent(Controller::Field, flag()?),
            "arm_silent" => self.set_silent(Controller::Arm, flag()?),
            "head_silent" => self.set_silent(Controller::Head, flag()?),
            "limit_stuck_closed" => self.limit_stuck_closed = joint()?,
            "limit_never_closes" => self.limit_never_closes = joint()?,
            "control_unplug" => self.control_unplug = seconds()?,
            "field_unplug" => self.field_unplug = seconds()?,
            "control_hang" => self.control_hang = seconds()?,
            "field_hang" => self.field_hang = seconds()?,
            "control_flood" => self.control_flood = count()?,
            "field_flood" => self.field_flood = count()?,
            _ => return Err(FaultError::Unknown(name.to_string())),
        }
        Ok(())
    }
}

impl fmt::Display for Faults {
    /// `NAME:=VALUE` lines, the syntax `/sim/set_fault` takes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "sensor_bit_flip:={}", self.sensor_bit_flip)?;
        writeln!(f, "serial_noise:={}", self.serial_noise)?;
        writeln!(f, "drop_frames:={}", self.drop_frames)?;
        writeln!(f, "failed_picks:={}", self.failed_picks)?;
        writeln!(f, "lost_steps:={}", self.lost_steps)?;
        for c in Controller::ALL {
            writeln!(f, "{}_silent:={}", c.name(), self.is_silent(c))?;
        }
        writeln!(f, "limit_stuck_closed:={}", self.limit_stuck_closed)?;
        writeln!(f, "limit_never_closes:={}", self.limit_never_closes)?;
        writeln!(f, "control_unplug:={}", self.control_unplug)?;
        writeln!(f, "field_unplug:={}", self.field_unplug)?;
        writeln!(f, "control_hang:={}", self.control_hang)?;
        writeln!(f, "field_hang:={}", self.field_hang)?;
        writeln!(f, "control_flood:={}", self.control_flood)?;
        writeln!(f, "field_flood:={}", self.field_flood)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_apply_and_print_back() {
        let mut f = Faults::default();
        f.apply("faults.sensor_bit_flip:=0.25").expect("valid");
        f.apply("field_silent:=true").expect("valid");
        f.apply("failed_picks := 2").expect("valid");
        assert_eq!(f.sensor_bit_flip, 0.25);
        assert!(f.is_silent(Controller::Field));
        assert_eq!(f.failed_picks, 2);
        let mut again = Faults::default();
        for line in f.to_string().lines() {
            again.apply(line).expect("its own output");
        }
        assert_eq!(again, f);
        f.apply("field_silent:=false").expect("valid");
        assert!(!f.is_silent(Controller::Field));
    }

    #[test]
    fn bad_settings_are_refused() {
        let mut f = Faults::default();
        assert!(matches!(
            f.apply("drop_frames=1"),
            Err(FaultError::Syntax(_))
        ));
        assert!(matches!(
            f.apply("gremlins:=1"),
            Err(FaultError::Unknown(_))
        ));
        assert!(matches!(
            f.apply("drop_frames:=2"),
            Err(FaultError::Value { .. })
        ));
        assert!(matches!(
            f.apply("arm_silent:=yes"),
            Err(FaultError::Value { .. })
        ));
        assert_eq!(f, Faults::default());
    }
}
