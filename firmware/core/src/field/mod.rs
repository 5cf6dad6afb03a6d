//! The field controller of docs/serial-protocol.md section 5.2: the 32 Hall sensors under the
//! dark squares, scanned periodically and debounced, the confirm and new-game buttons with
//! their press counters, and snapshots that always come from a scan started after the request.
//!
//! Reports are `serial_link`'s own types. Usage: call
//! [`Field::request_snapshot`] when a `SnapshotRequest` arrives, [`Field::tick`] often, and
//! while a session is up send what [`Field::next_report`] yields.

mod debounce;
mod hc165;

pub use debounce::Debouncer;
pub use hc165::Hc165Field;
pub use serial_link::field::{Button, Snapshot};
pub use serial_link::FieldReport;

use crate::Micros;

/// Squares with a sensor.
pub const SQUARES: u8 = 32;

/// Whether square `square` (1..=32) is occupied in an occupancy word.
pub fn occupied(presence: u32, square: u8) -> bool {
    (1..=SQUARES).contains(&square) && presence & (1 << (square - 1)) != 0
}

/// The buttons, in the order of their bits and counters.
const BUTTONS: [Button; 2] = [Button::Confirm, Button::NewGame];

fn slot(b: Button) -> usize {
    usize::from(b.code())
}

/// One scan's raw reading, polarity already applied: a set bit is a magnet present or a
/// button down.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RawInputs {
    /// Bit s - 1: square s.
    pub sensors: u32,
    /// Bit 0 confirm, bit 1 new game.
    pub buttons: u8,
}

/// The field's inputs as the controller logic sees them.
pub trait FieldInputs {
    /// Freezes every input at this instant (the 74HC165s' parallel load): the scan starts.
    fn latch(&mut self);
    /// Reads out what was latched.
    fn read(&mut self) -> RawInputs;
}

/// The field controller's configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldConfig {
    /// Time between scan starts, microseconds.
    pub scan_period_us: u32,
    /// Scans a sensor change must persist.
    pub sensor_debounce: u8,
    /// Scans a button change must persist; with the period, at least the protocol's 30 ms.
    pub button_debounce: u8,
}

impl Default for FieldConfig {
    fn default() -> Self {
        FieldConfig {
            scan_period_us: 5_000,
            sensor_debounce: 3,
            button_debounce: 6,
        }
    }
}

/// The field controller.
#[derive(Debug)]
pub struct Field {
    cfg: FieldConfig,
    sensors: Debouncer,
    buttons: Debouncer,
    /// Scans begun, and of them the index of one in progress.
    started: u32,
    in_progress: Option<u32>,
    completed: u32,
    /// The first scan index that may answer the outstanding request.
    request_from: Option<u32>,
    answer: Option<Snapshot>,
    presses: [u16; 2],
    /// A press not yet reported; two presses before it goes out report the later counter, and
    /// the counter tells the host about the one in between.
    press_pending: [bool; 2],
    /// When each button was last pressed (the time of the scan that saw it go down).
    pressed_at: [Micros; 2],
    /// The time of the scan in progress, as [`Field::tick`] was given it.
    scan_at: Micros,
    next_scan: Micros,
}

/// How old a press made while no host listened may be and still be reported to the next
/// session: long enough for a host's driver to restart, short enough that a press the person
/// has long given up on is not acted on.
pub const PRESS_KEPT_US: Micros = 60_000_000;

impl Field {
    /// Nothing scanned yet; the first scan is due at once.
    pub fn new(cfg: FieldConfig) -> Field {
        Field {
            cfg,
            sensors: Debouncer::new(cfg.sensor_debounce),
            buttons: Debouncer::new(cfg.button_debounce),
            started: 0,
            in_progress: None,
            completed: 0,
            request_from: None,
            answer: None,
            presses: [0; 2],
            press_pending: [false; 2],
            pressed_at: [0; 2],
            scan_at: 0,
            next_scan: 0,
        }
    }

    /// A `SnapshotRequest` arrived: it is answered by the first scan that starts from now on,
    /// not by one already under way, so two requests give two independent readings.
    pub fn request_snapshot(&mut self) {
        self.request_from = Some(self.started);
    }

    /// A scan starts (the inputs are latched now); returns its index.
    pub fn begin_scan(&mut self) -> u32 {
        let index = self.started;
        self.started = self.started.wrapping_add(1);
        self.in_progress = Some(index);
        index
    }

    /// The scan in progress delivered its reading.
    pub fn end_scan(&mut self, raw: RawInputs) {
        let Some(index) = self.in_progress.take() else {
            return;
        };
        self.completed = self.completed.wrapping_add(1);
        self.sensors.update(raw.sensors);
        let went = self.buttons.update(u32::from(raw.buttons));
        for b in BUTTONS {
            let bit = 1u32 << b.code();
            if went & bit != 0 && self.buttons.state() & bit != 0 {
                let n = &mut self.presses[slot(b)];
                *n = n.wrapping_add(1);
                self.press_pending[slot(b)] = true;
                self.pressed_at[slot(b)] = self.scan_at;
            }
        }
        // Wrapping-safe "index >= request_from".
        if let Some(from) = self.request_from {
            if index.wrapping_sub(from) < u32::MAX / 2 {
                self.request_from = None;
                self.answer = Some(self.snapshot());
            }
        }
    }

    /// Scans when one is due: latch, read out, debounce.
    pub fn tick<I: FieldInputs>(&mut self, now: Micros, inputs: &mut I) {
        if now < self.next_scan {
            return;
        }
        // Keep the cadence, but never scan twice for one late tick.
        self.next_scan = (self.next_scan + Micros::from(self.cfg.scan_period_us)).max(now + 1);
        self.scan_at = now;
        self.begin_scan();
        inputs.latch();
        let raw = inputs.read();
        self.end_scan(raw);
    }

    /// Debounced occupancy, bit s - 1 for square s.
    pub fn presence(&self) -> u32 {
        self.sensors.state()
    }

    /// Debounced buttons down.
    pub fn buttons_held(&self) -> u8 {
        (self.buttons.state() & 0b11) as u8
    }

    /// A button's presses since power-up.
    pub fn presses(&self, button: Button) -> u16 {
        self.presses[slot(button)]
    }

    /// Completed scans.
    pub fn scans(&self) -> u32 {
        self.completed
    }

    /// The current debounced reading.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            scan: self.completed as u16,
            presence: self.presence(),
            buttons_held: self.buttons_held(),
            confirm_presses: self.presses[0],
            new_game_presses: self.presses[1],
        }
    }

    /// A new session at `now`: requests of the old one are not answered. A press not yet
    /// reported is, if it is at most [`PRESS_KEPT_US`] old: a person who pressed confirm while
    /// the host's driver restarted expects the press to count. Older presses show only in the
    /// counters of the next snapshot.
    pub fn session_started(&mut self, now: Micros) {
        self.request_from = None;
        self.answer = None;
        for (pending, &at) in self.press_pending.iter_mut().zip(&self.pressed_at) {
            *pending &= now.saturating_sub(at) <= PRESS_KEPT_US;
        }
    }

    /// The next report to send, if any (while a session is up).
    pub fn next_report(&mut self) -> Option<FieldReport> {
        if let Some(s) = self.answer.take() {
            return Some(FieldReport::Snapshot(s));
        }
        let b = BUTTONS.into_iter().find(|&b| self.press_pending[slot(b)])?;
        self.press_pending[slot(b)] = false;
        Some(FieldReport::ButtonPressed {
            button: b,
            presses: self.presses[slot(b)],
        })
    }
}
