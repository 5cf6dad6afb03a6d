//! A whole controller: the shared protocol endpoint (`serial_link`'s [`Link`], the very code the
//! host runs) joined to one controller's logic. A board's main loop is three calls: bytes from
//! the USB serial port into [`Device::receive`], [`Device::poll`] with the time, and
//! [`Device::take_transmit`] back out to the port. The simulator runs the same loop over a
//! pseudo-terminal.
//!
//! The link runs on the board's clock. The logic runs on the same clock times
//! [`Device::set_speedup`], which is 1 on hardware; the simulator speeds its world up with it,
//! and the device turns what the host says in its own time (speeds, report periods) into the
//! logic's.

use serial_link::time::Micros as LinkTime;
use serial_link::{
    ControllerKind, Event, FirmwareId, Link, LinkConfig, Message, Transmit, MAX_QUEUE,
};

use crate::arm::{Arm, ArmCommand, ArmIo, ArmReport, MoveJoints};
use crate::field::{Field, FieldInputs, FieldReport};
use crate::head::{max7219::Transaction, EyeWrites, Head, HeadCommand, HeadReport, SERVOS};
use crate::Micros;

/// Reliable reports the device lets wait in the link before it stops taking more from the
/// logic: the rest wait in the logic, where nothing is dropped and a status stays current.
const REPORTS_IN_LINK: usize = MAX_QUEUE / 4;

/// One controller's logic, as a [`Device`] drives it.
pub trait Logic {
    /// What it sends.
    type Report: Message;
    /// What it obeys.
    type Command: Message;
    /// Its kind in the handshake.
    const KIND: ControllerKind;

    /// A command from the host, at logic time `now`.
    fn command(&mut self, cmd: Self::Command, now: Micros);
    /// Advances to logic time `now`.
    fn tick(&mut self, now: Micros);
    /// A session started.
    fn session_started(&mut self, now: Micros);
    /// The session ended.
    fn session_ended(&mut self, now: Micros);
    /// The next report and whether it must be delivered (else it is sent once).
    fn next_report(&mut self, now: Micros) -> Option<(Self::Report, bool)>;
    /// `cmd` with its durations and speeds turned from host time into logic time, for a logic
    /// clock `speedup` times faster than the link's.
    fn to_logic_time(cmd: Self::Command, speedup: f64) -> Self::Command {
        let _ = speedup;
        cmd
    }
}

/// A controller: link and logic.
#[derive(Debug)]
pub struct Device<L: Logic> {
    link: Link<L::Report, L::Command, LinkTime>,
    logic: L,
    speedup: f64,
    /// `speedup != 1.0`, kept apart: a float comparison is a library call on the M0+, and the
    /// main loop would make it every turn.
    sped_up: bool,
}

impl<L: Logic> Device<L> {
    /// A controller that waits for the host's `Hello`. `seed` should differ between power-ups
    /// (a timer read at the first byte, say): the handshake's nonces come from it.
    pub fn new(logic: L, firmware: FirmwareId, seed: u64, now: Micros) -> Device<L> {
        let config = LinkConfig {
            nonce_seed: Some(seed),
            ..LinkConfig::default()
        };
        Device {
            link: Link::controller(L::KIND, firmware, config, LinkTime(now)),
            logic,
            speedup: 1.0,
            sped_up: false,
        }
    }

    /// Runs the logic's clock `speedup` times faster than the link's (simulation only).
    pub fn set_speedup(&mut self, speedup: f64) {
        if speedup.is_finite() && speedup > 0.0 {
            self.speedup = speedup;
            self.sped_up = speedup != 1.0;
        }
    }

    fn logic_time(&self, now: Micros) -> Micros {
        if !self.sped_up {
            now
        } else {
            (now as f64 * self.speedup) as Micros
        }
    }

    /// The logic.
    pub fn logic(&self) -> &L {
        &self.logic
    }

    /// The logic, mutably (the simulator reaches its hardware through it).
    pub fn logic_mut(&mut self) -> &mut L {
        &mut self.logic
    }

    /// Obeys `cmd` as if it had come over the link at `now` (tests, the simulator).
    pub fn command(&mut self, cmd: L::Command, now: Micros) {
        let cmd = L::to_logic_time(cmd, self.speedup);
        let t = self.logic_time(now);
        self.logic.command(cmd, t);
    }

    /// Whether a host session is up.
    pub fn connected(&self) -> bool {
        self.link.is_connected()
    }

    /// The link's counters.
    pub fn stats(&self) -> &serial_link::Stats {
        self.link.stats()
    }

    /// Bytes read from the port.
    pub fn receive(&mut self, bytes: &[u8], now: Micros) {
        self.link.receive(bytes, LinkTime(now));
        self.dispatch(now);
    }

    /// Lets time pass: the link's timers, the logic, and its reports.
    pub fn poll(&mut self, now: Micros) {
        self.link.handle_timeout(LinkTime(now));
        self.dispatch(now);
        let t = self.logic_time(now);
        self.logic.tick(t);
        if !self.link.is_connected() {
            return;
        }
        while self.link.unacknowledged() < REPORTS_IN_LINK {
            let Some((report, reliable)) = self.logic.next_report(t) else {
                break;
            };
            // Not connected or too long cannot happen here; a report is dropped rather than
            // stall the loop if it ever did.
            let _ = if reliable {
                self.link.send(report, LinkTime(now)).map(|_| ())
            } else {
                self.link.send_unreliable(report, LinkTime(now))
            };
        }
    }

    fn dispatch(&mut self, now: Micros) {
        let t = self.logic_time(now);
        while let Some(event) = self.link.poll_event() {
            match event {
                Event::Connected(_) => self.logic.session_started(t),
                Event::Disconnected { .. } => self.logic.session_ended(t),
                Event::Received(cmd) => {
                    let cmd = L::to_logic_time(cmd, self.speedup);
                    self.logic.command(cmd, t);
                }
                Event::HandshakeFailed(_) | Event::Delivered(_) | Event::Rejected { .. } => {}
            }
        }
    }

    /// The bytes to write to the port now.
    pub fn take_transmit(&mut self) -> Transmit {
        self.link.take_transmit()
    }
}

/// The arm controller's logic steps its joints in [`Logic::tick`], one step at a time up to
/// `now`: a board whose loop comes round every few microseconds gets its pulses on time, and
/// the simulator, polling every few milliseconds, gets every step.
impl<IO: ArmIo> Logic for Arm<IO> {
    type Report = ArmReport;
    type Command = ArmCommand;
    const KIND: ControllerKind = ControllerKind::Arm;

    fn command(&mut self, cmd: ArmCommand, now: Micros) {
        Arm::command(self, cmd, now);
    }

    fn tick(&mut self, now: Micros) {
        while let Some(t) = self.next_step_at().filter(|&t| t < now) {
            Arm::tick(self, t);
        }
        Arm::tick(self, now);
    }

    fn session_started(&mut self, _now: Micros) {
        Arm::session_started(self);
    }

    fn session_ended(&mut self, now: Micros) {
        Arm::session_ended(self, now);
    }

    fn next_report(&mut self, now: Micros) -> Option<(ArmReport, bool)> {
        Arm::next_report(self, now).map(|r| {
            let reliable = !matches!(r, ArmReport::Position { .. });
            (r, reliable)
        })
    }

    fn to_logic_time(cmd: ArmCommand, speedup: f64) -> ArmCommand {
        match cmd {
            ArmCommand::MoveJoints(m) if m.speed > 0 => ArmCommand::MoveJoints(MoveJoints {
                speed: ((f64::from(m.speed) / speedup) as u32).max(1),
                ..m
            }),
            ArmCommand::SetReportPeriod { period_ms } => ArmCommand::SetReportPeriod {
                period_ms: (f64::from(period_ms) * speedup).min(f64::from(u16::MAX)) as u16,
            },
            cmd => cmd,
        }
    }
}

/// The field controller's logic with its inputs.
#[derive(Debug)]
pub struct FieldUnit<I> {
    /// The scanning and the counters.
    pub field: Field,
    /// The sensors and buttons.
    pub inputs: I,
}

impl<I: FieldInputs> Logic for FieldUnit<I> {
    type Report = FieldReport;
    type Command = serial_link::FieldCommand;
    const KIND: ControllerKind = ControllerKind::Field;

    fn command(&mut self, cmd: serial_link::FieldCommand, _now: Micros) {
        match cmd {
            serial_link::FieldCommand::SnapshotRequest => self.field.request_snapshot(),
        }
    }

    fn tick(&mut self, now: Micros) {
        self.field.tick(now, &mut self.inputs);
    }

    fn session_started(&mut self, now: Micros) {
        self.field.session_started(now);
    }

    fn session_ended(&mut self, _now: Micros) {}

    fn next_report(&mut self, _now: Micros) -> Option<(FieldReport, bool)> {
        self.field.next_report().map(|r| (r, true))
    }
}

/// What the head controller drives: four servo pulse widths and the eyes' MAX7219 chain.
pub trait HeadOutputs {
    /// Pulse widths, microseconds, indexed by [`crate::head::ServoId`].
    fn servo_pulses(&mut self, us: [u16; SERVOS]);
    /// One write to the chain of two MAX7219s (first word to the first chip).
    fn eye_write(&mut self, words: Transaction<2>);
}

/// The head controller's logic with its outputs.
#[derive(Debug)]
pub struct HeadUnit<O> {
    /// Servos and eyes.
    pub head: Head,
    /// The servos' PWM and the eyes' SPI.
    pub outputs: O,
    /// Writes to the eyes not yet shifted out, and how many of them have been.
    pending: EyeWrites,
    written: usize,
}

impl<O> HeadUnit<O> {
    /// The head and its outputs; the eyes are written at the first turn.
    pub fn new(head: Head, outputs: O) -> Self {
        HeadUnit {
            head,
            outputs,
            pending: EyeWrites::new(),
            written: 0,
        }
    }

    /// Whether writes to the eyes wait for the next turns.
    pub fn eyes_pending(&self) -> bool {
        self.written < self.pending.len()
    }
}

impl<O: HeadOutputs> Logic for HeadUnit<O> {
    type Report = HeadReport;
    type Command = HeadCommand;
    const KIND: ControllerKind = ControllerKind::Head;

    fn command(&mut self, cmd: HeadCommand, _now: Micros) {
        self.head.command(cmd);
    }

    fn tick(&mut self, now: Micros) {
        if self.head.tick(now) {
            self.outputs.servo_pulses(self.head.pulses());
        }
        // One write to the eyes per turn: a whole refresh (13 writes of 32 bits at 1 MHz) took
        // the control board's loop to 345 us, and the arm's steps, which leave from the same
        // loop, are due every 94 us at the top rate (docs/firmware.md, "Figures").
        if self.written == self.pending.len() {
            self.pending = self.head.eye_writes(now).unwrap_or_default();
            self.written = 0;
        }
        if let Some(&w) = self.pending.get(self.written) {
            self.outputs.eye_write(w);
            self.written += 1;
        }
    }

    fn session_started(&mut self, _now: Micros) {}

    fn session_ended(&mut self, _now: Micros) {}

    fn next_report(&mut self, _now: Micros) -> Option<(HeadReport, bool)> {
        self.head.next_report().map(|r| (r, true))
    }

    fn to_logic_time(cmd: HeadCommand, speedup: f64) -> HeadCommand {
        match cmd {
            HeadCommand::SetNeck { pan, tilt, speed } if speed > 0 => HeadCommand::SetNeck {
                pan,
                tilt,
                speed: ((f64::from(speed) / speedup) as u16).max(1),
            },
            cmd => cmd,
        }
    }
}
