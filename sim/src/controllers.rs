//! The three controllers' firmware, simulated: what each does with the host's messages and what
//! it reports unprompted (docs/serial-protocol.md section 5).

use std::time::{Duration, Instant};

use serial_link::arm::ArmState;
use serial_link::field::Button;
use serial_link::head::HeadStatus;
use serial_link::{
    ArmCommand, ArmReport, CentiDeg, FieldCommand, FieldReport, HeadCommand, HeadReport, Link,
};

use crate::serve::{send, Logic};
use crate::state::{lock, Shared};

/// The field controller: a snapshot per request, a report per button press.
#[derive(Debug)]
pub struct FieldLogic {
    shared: Shared,
    connected: bool,
    /// Presses already reported (or that happened without a session: the counters in the
    /// snapshots tell the host about those).
    reported: (u16, u16),
}

impl FieldLogic {
    pub fn new(shared: Shared) -> FieldLogic {
        FieldLogic {
            shared,
            connected: false,
            reported: (0, 0),
        }
    }

    fn presses(&self) -> (u16, u16) {
        let sim = lock(&self.shared);
        (sim.field.confirm_presses, sim.field.new_game_presses)
    }
}

impl Logic<FieldReport, FieldCommand> for FieldLogic {
    fn on_connected(&mut self, _link: &mut Link<FieldReport, FieldCommand>, _now: Instant) {
        self.connected = true;
        self.reported = self.presses();
    }

    fn on_disconnected(&mut self) {
        self.connected = false;
    }

    fn on_received(
        &mut self,
        msg: FieldCommand,
        link: &mut Link<FieldReport, FieldCommand>,
        now: Instant,
    ) {
        match msg {
            FieldCommand::SnapshotRequest => {
                let snapshot = lock(&self.shared).snapshot();
                send(link, FieldReport::Snapshot(snapshot), now);
            }
        }
    }

    fn tick(&mut self, link: &mut Link<FieldReport, FieldCommand>, now: Instant) {
        let (confirm, new_game) = self.presses();
        if !self.connected {
            self.reported = (confirm, new_game);
            return;
        }
        // One report per press, so a double press reaches the host as two.
        while self.reported.0 != confirm {
            self.reported.0 = self.reported.0.wrapping_add(1);
            let presses = self.reported.0;
            send(
                link,
                FieldReport::ButtonPressed {
                    button: Button::Confirm,
                    presses,
                },
                now,
            );
        }
        while self.reported.1 != new_game {
            self.reported.1 = self.reported.1.wrapping_add(1);
            let presses = self.reported.1;
            send(
                link,
                FieldReport::ButtonPressed {
                    button: Button::NewGame,
                    presses,
                },
                now,
            );
        }
    }
}

/// The arm controller: commands to the mechanics, `Status` on every change, `Alarm`s, periodic
/// `Position` reports.
#[derive(Debug)]
pub struct ArmLogic {
    shared: Shared,
    connected: bool,
    report_period: Option<Duration>,
    next_report: Option<Instant>,
    /// (state, homed, pump, move_id) last reported.
    reported: Option<(ArmState, bool, bool, u16)>,
}

impl ArmLogic {
    pub fn new(shared: Shared) -> ArmLogic {
        ArmLogic {
            shared,
            connected: false,
            report_period: None,
            next_report: None,
            reported: None,
        }
    }

    /// Alarms first, then the status if it changed (or `force`).
    fn report(&mut self, link: &mut Link<ArmReport, ArmCommand>, now: Instant, force: bool) {
        let (alarms, status) = {
            let mut sim = lock(&self.shared);
            (sim.arm.take_alarms(), sim.arm.status())
        };
        for alarm in alarms {
            tracing::info!(?alarm, "arm controller alarm");
            send(link, ArmReport::Alarm(alarm), now);
        }
        let key = (status.state, status.homed, status.pump_on, status.move_id);
        if force || self.reported != Some(key) {
            self.reported = Some(key);
            send(link, ArmReport::Status(status), now);
        }
    }
}

impl Logic<ArmReport, ArmCommand> for ArmLogic {
    fn on_connected(&mut self, link: &mut Link<ArmReport, ArmCommand>, now: Instant) {
        self.connected = true;
        // Reporting is off at the start of a session.
        self.report_period = None;
        self.next_report = None;
        self.report(link, now, true);
    }

    fn on_disconnected(&mut self) {
        self.connected = false;
        self.report_period = None;
        lock(&self.shared).arm.host_lost();
    }

    fn on_received(
        &mut self,
        msg: ArmCommand,
        link: &mut Link<ArmReport, ArmCommand>,
        now: Instant,
    ) {
        match msg {
            ArmCommand::StatusRequest => self.report(link, now, true),
            ArmCommand::SetReportPeriod { period_ms } => {
                self.report_period =
                    (period_ms > 0).then(|| Duration::from_millis(u64::from(period_ms)));
                self.next_report = self.report_period.map(|_| now);
            }
            cmd => {
                lock(&self.shared).arm.command(cmd);
                self.report(link, now, false);
            }
        }
    }

    fn tick(&mut self, link: &mut Link<ArmReport, ArmCommand>, now: Instant) {
        if !self.connected {
            return;
        }
        self.report(link, now, false);
        if let (Some(period), Some(due)) = (self.report_period, self.next_report) {
            if now >= due {
                let joints = lock(&self.shared).arm.joints().map(CentiDeg::from_radians);
                if let Err(e) = link.send_unreliable(ArmReport::Position { joints }, now) {
                    tracing::debug!("position report not sent: {e}");
                }
                self.next_report = Some(due + period)
                    .filter(|t| *t > now)
                    .or(Some(now + period));
            }
        }
    }
}

/// The head controller: it shows what it is told and says where its servos are.
#[derive(Debug)]
pub struct HeadLogic {
    shared: Shared,
}

impl HeadLogic {
    pub fn new(shared: Shared) -> HeadLogic {
        HeadLogic { shared }
    }
}

impl Logic<HeadReport, HeadCommand> for HeadLogic {
    fn on_connected(&mut self, _link: &mut Link<HeadReport, HeadCommand>, _now: Instant) {}

    fn on_disconnected(&mut self) {}

    fn on_received(
        &mut self,
        msg: HeadCommand,
        link: &mut Link<HeadReport, HeadCommand>,
        now: Instant,
    ) {
        let mut sim = lock(&self.shared);
        let head = &mut sim.head;
        head.commands += 1;
        match msg {
            HeadCommand::SetEyes { left, right } => head.eyes = Some((left, right)),
            HeadCommand::SetBrows { left, right } => head.brows = (left, right),
            // The servos are fast next to the tick; the sim shows them there at once.
            HeadCommand::SetNeck { pan, tilt, .. } => head.neck = (pan, tilt),
            HeadCommand::SetBrightness { level } => head.brightness = level,
            HeadCommand::StatusRequest => {
                let status = HeadStatus {
                    pan: head.neck.0,
                    tilt: head.neck.1,
                    brow_left: head.brows.0,
                    brow_right: head.brows.1,
                    moving: false,
                };
                drop(sim);
                send(link, HeadReport::Status(status), now);
            }
        }
    }

    fn tick(&mut self, _link: &mut Link<HeadReport, HeadCommand>, _now: Instant) {}
}
