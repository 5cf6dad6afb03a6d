//! The arm controller of docs/serial-protocol.md section 5.3: three joint steppers moved
//! together, homing against Hall limit switches, soft limits, limit/stall/e-stop alarms, the
//! pump and its vent valve, `Stop`, and what happens when the host goes silent.
//!
//! Commands and reports are `serial_link`'s own types: the core and the host share one codec.
//!
//! Usage: feed decoded commands to [`Arm::command`], call [`Arm::tick`] often (at the latest
//! at [`Arm::next_step_at`]), and while a session is up send what [`Arm::next_report`] yields.
//! Reports wait while there is no session: that is how a `HostLost` alarm raised when the
//! host went silent gets reported after the next handshake.

mod config;
mod homing;
pub use homing::RELEASE_BACKOFFS;
mod io;

pub use config::{ArmConfig, HomingConfig, JointConfig};
pub use io::{ArmIo, HalArmIo};
pub use serial_link::arm::{Alarm, AlarmCode, ArmState, ArmStatus, MoveJoints, JOINTS, NO_JOINT};
pub use serial_link::{ArmCommand, ArmReport};

use heapless::Deque;
use serial_link::CentiDeg;

use crate::profile::{Demand, Profile};
use crate::stepper::Stepper;
use crate::Micros;
use homing::Homing;

/// Alarms not yet reported. A few suffice: the link sends one reliable frame at a time and
/// the glue drains this every loop; when full, the oldest goes.
const ALARM_QUEUE: usize = 4;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct StatusKey {
    state: ArmState,
    homed: bool,
    pump_on: bool,
    move_id: u16,
}

#[derive(Debug)]
struct Outbox {
    alarms: Deque<Alarm, ALARM_QUEUE>,
    status_asked: bool,
    last_status: Option<StatusKey>,
    period_us: Micros,
    next_position: Micros,
}

/// How a fault halts the joints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Halt {
    /// At the move's deceleration: no steps lost, the count stays good.
    Brake,
    /// At once: at speed the rotors may overrun, so the count is no longer trusted.
    Now,
}

/// The arm controller.
#[derive(Debug)]
pub struct Arm<IO> {
    cfg: ArmConfig,
    io: IO,
    joints: [Stepper; JOINTS],
    state: ArmState,
    homed: bool,
    pump_on: bool,
    move_id: u16,
    /// A move that replaced one in progress, waiting for it to brake to a standstill: a new
    /// profile is planned from rest, never spliced onto a running one.
    queued: Option<([i32; JOINTS], u32)>,
    homing: Option<Homing>,
    /// The alarm that holds the arm in the Alarm state.
    active: Option<Alarm>,
    vent_until: Option<Micros>,
    out: Outbox,
}

impl<IO: ArmIo> Arm<IO> {
    /// Powers up: pump off, not homed, the count at zero.
    pub fn new(cfg: ArmConfig, mut io: IO) -> Arm<IO> {
        io.set_pump(false);
        io.set_vent(false);
        Arm {
            cfg,
            io,
            joints: [Stepper::new(), Stepper::new(), Stepper::new()],
            state: ArmState::Idle,
            homed: false,
            pump_on: false,
            move_id: 0,
            queued: None,
            homing: None,
            active: None,
            vent_until: None,
            out: Outbox {
                alarms: Deque::new(),
                status_asked: false,
                last_status: None,
                period_us: 0,
                next_position: 0,
            },
        }
    }

    /// The configuration.
    pub fn config(&self) -> &ArmConfig {
        &self.cfg
    }

    /// The hardware.
    pub fn io(&self) -> &IO {
        &self.io
    }

    /// The hardware, mutably (the simulator moves its magnets through it).
    pub fn io_mut(&mut self) -> &mut IO {
        &mut self.io
    }

    /// What the arm is doing.
    pub fn state(&self) -> ArmState {
        self.state
    }

    /// Whether the arm is homed.
    pub fn homed(&self) -> bool {
        self.homed
    }

    /// A joint's step generator.
    pub fn joint(&self, j: usize) -> &Stepper {
        &self.joints[j]
    }

    /// Joint angles now, centidegrees.
    pub fn angles(&self) -> [i32; JOINTS] {
        core::array::from_fn(|j| self.cfg.joints[j].centideg(self.joints[j].position()))
    }

    /// The state as `Status` reports it.
    pub fn status(&self) -> ArmStatus {
        ArmStatus {
            state: self.state,
            homed: self.homed,
            pump_on: self.pump_on,
            move_id: self.move_id,
            joints: self.angles().map(CentiDeg),
        }
    }

    /// When the next step of any joint is due: call [`Arm::tick`] then at the latest.
    pub fn next_step_at(&self) -> Option<Micros> {
        self.joints.iter().filter_map(Stepper::next_step_at).min()
    }

    fn at_rest(&self) -> bool {
        self.joints.iter().all(|j| !j.is_moving())
    }

    /// Obeys a command from the host.
    pub fn command(&mut self, cmd: ArmCommand, now: Micros) {
        match cmd {
            ArmCommand::StatusRequest => self.out.status_asked = true,
            ArmCommand::SetReportPeriod { period_ms } => {
                self.out.period_us = Micros::from(period_ms) * 1000;
                self.out.next_position = now;
            }
            ArmCommand::SetPump { on } => self.set_pump(on, now),
            ArmCommand::ClearAlarm => self.clear_alarm(),
            _ if self.state == ArmState::Alarm => {}
            ArmCommand::MoveJoints(MoveJoints {
                move_id,
                target,
                speed,
            }) => self.move_joints(move_id, target.map(|c| c.0), speed, now),
            ArmCommand::Home => {
                self.brake(now);
                self.queued = None;
                self.homing = Some(Homing::new(self.homed));
                self.homed = false;
                self.state = ArmState::Homing;
            }
            ArmCommand::Stop => {
                self.brake(now);
                self.queued = None;
                self.homing = None;
                self.state = if self.at_rest() {
                    ArmState::Idle
                } else {
                    ArmState::Moving
                };
            }
        }
    }

    fn move_joints(&mut self, move_id: u16, target: [i32; JOINTS], speed: u32, now: Micros) {
        if !self.homed {
            self.refuse(AlarmCode::NotHomed, NO_JOINT, 0);
            return;
        }
        if let Some(j) = self.out_of_range(&target) {
            self.refuse(AlarmCode::OutOfRange, j as u8, target[j]);
            return;
        }
        let speed = if speed == 0 {
            self.cfg.default_speed
        } else {
            speed
        };
        self.move_id = move_id;
        self.state = ArmState::Moving;
        if self.at_rest() {
            if let Err(j) = self.start_move(target, speed, now) {
                self.refuse(AlarmCode::OutOfRange, j as u8, target[j]);
                self.state = ArmState::Idle;
            }
        } else {
            self.brake(now);
            self.queued = Some((target, speed));
        }
    }

    /// The first joint whose target is outside its limits (the elbow counts as J3).
    fn out_of_range(&self, target: &[i32; JOINTS]) -> Option<usize> {
        let joint = (0..JOINTS).find(|&j| {
            let c = &self.cfg.joints[j];
            !(c.min..=c.max).contains(&target[j])
        });
        let elbow_bad = self
            .cfg
            .elbow
            .is_some_and(|(lo, hi)| !(lo..=hi).contains(&(target[2] - target[1])));
        joint.or(elbow_bad.then_some(2))
    }

    /// Starts a coordinated move from rest; the joints' soft limits have the last word.
    fn start_move(&mut self, target: [i32; JOINTS], speed: u32, now: Micros) -> Result<(), usize> {
        let steps: [i32; JOINTS] = core::array::from_fn(|j| self.cfg.joints[j].steps(target[j]));
        let demands: [Demand; JOINTS] = core::array::from_fn(|j| {
            let c = &self.cfg.joints[j];
            Demand {
                steps: steps[j].abs_diff(self.joints[j].position()),
                // The fastest joint at `speed`: capping every joint's angular speed at it
                // binds only the one that travels farthest.
                max_rate: c.rate(c.max_speed.min(speed)),
                max_accel: c.rate(c.max_accel),
            }
        });
        if let Some(j) = (0..JOINTS).find(|&j| !self.joints[j].allows(steps[j])) {
            return Err(j);
        }
        let profile = Profile::plan(&demands);
        for (j, stepper) in self.joints.iter_mut().enumerate() {
            // Checked just above.
            stepper.follow(profile, steps[j], now).map_err(|_| j)?;
        }
        Ok(())
    }

    fn set_pump(&mut self, on: bool, now: Micros) {
        self.pump_on = on;
        self.io.set_pump(on);
        // Venting after the pump stops lets the piece go at once instead of when the cup
        // leaks; with the pump on the valve must be shut.
        self.io.set_vent(!on);
        self.vent_until = (!on).then(|| now + Micros::from(self.cfg.vent_us));
    }

    fn clear_alarm(&mut self) {
        if self.state != ArmState::Alarm {
            return;
        }
        let Some(alarm) = self.active else {
            self.state = ArmState::Idle;
            return;
        };
        let persists = !self.at_rest()
            || match alarm.code {
                AlarmCode::EStop => self.io.estop_pressed(),
                AlarmCode::Stall if usize::from(alarm.joint) < JOINTS => {
                    self.io.stalled(usize::from(alarm.joint))
                }
                _ => false,
            };
        if persists {
            self.push_alarm(alarm);
        } else {
            self.active = None;
            self.state = ArmState::Idle;
        }
    }

    fn brake(&mut self, now: Micros) {
        for j in &mut self.joints {
            j.stop(now);
        }
    }

    /// A refusal: reported, nothing else changes.
    fn refuse(&mut self, code: AlarmCode, joint: u8, detail: i32) {
        self.push_alarm(Alarm {
            code,
            joint,
            detail,
        });
    }

    /// An alarm that stops the arm and holds it in the Alarm state.
    fn fault(&mut self, code: AlarmCode, joint: u8, detail: i32, halt: Halt, now: Micros) {
        match halt {
            Halt::Brake => self.brake(now),
            Halt::Now => {
                for j in &mut self.joints {
                    j.emergency_stop();
                }
                self.unhome();
            }
        }
        if self.homing.take().is_some() {
            // An interrupted homing leaves the limits lifted and the count unknown.
            self.unhome();
        }
        self.queued = None;
        self.state = ArmState::Alarm;
        let alarm = Alarm {
            code,
            joint,
            detail,
        };
        self.active = Some(alarm);
        self.push_alarm(alarm);
    }

    fn unhome(&mut self) {
        self.homed = false;
        for j in &mut self.joints {
            j.set_limits(None);
        }
    }

    fn push_alarm(&mut self, alarm: Alarm) {
        if self.out.alarms.is_full() {
            self.out.alarms.pop_front();
        }
        // Room was made just above.
        let _ = self.out.alarms.push_back(alarm);
    }

    /// Advances everything to `now`: due steps, switches, homing, the vent valve.
    pub fn tick(&mut self, now: Micros) {
        let estop_active = self.active.is_some_and(|a| a.code == AlarmCode::EStop);
        if !estop_active && self.io.estop_pressed() {
            self.fault(AlarmCode::EStop, NO_JOINT, 0, Halt::Now, now);
        }
        for (j, stepper) in self.joints.iter_mut().enumerate() {
            if let Some(dir) = stepper.poll(now) {
                self.io.step(j, dir);
            }
        }
        self.check_switches(now);
        match self.state {
            ArmState::Homing => self.homing_tick(now),
            ArmState::Moving if self.at_rest() => match self.queued.take() {
                Some((target, speed)) => {
                    if let Err(j) = self.start_move(target, speed, now) {
                        self.refuse(AlarmCode::OutOfRange, j as u8, target[j]);
                        self.state = ArmState::Idle;
                    }
                }
                None => self.state = ArmState::Idle,
            },
            _ => {}
        }
        if self.vent_until.is_some_and(|t| now >= t) {
            self.vent_until = None;
            self.io.set_vent(false);
        }
    }

    fn check_switches(&mut self, now: Micros) {
        if self.state == ArmState::Alarm {
            return;
        }
        // Outside homing a homed arm's switches stay open: soft limits keep the joints off
        // them. A closed one means a collision or lost steps. Before homing the count means
        // nothing, and an arm may well rest on a switch at power-up.
        if self.homed {
            if let Some(j) = (0..JOINTS).find(|&j| self.io.limit_closed(j)) {
                let at = self.angles()[j];
                self.fault(AlarmCode::Limit, j as u8, at, Halt::Now, now);
                return;
            }
        }
        if !self.at_rest() {
            if let Some(j) = (0..JOINTS).find(|&j| self.io.stalled(j)) {
                let at = self.angles()[j];
                self.fault(AlarmCode::Stall, j as u8, at, Halt::Now, now);
            }
        }
    }

    /// The session ended (the host went silent, or a new `Hello`): a moving arm brakes to a
    /// standstill and holds, the pump stays as it is (a piece in the cup must not fall), and
    /// the `HostLost` alarm waits for the next session. Position reports stop.
    pub fn session_ended(&mut self, now: Micros) {
        self.out.period_us = 0;
        self.out.status_asked = false;
        if matches!(self.state, ArmState::Moving | ArmState::Homing) {
            self.fault(AlarmCode::HostLost, NO_JOINT, 0, Halt::Brake, now);
        }
    }

    /// A session started: reporting is off until the host asks for it (protocol 5.3). Alarms
    /// and status changes not yet reported are reported now.
    pub fn session_started(&mut self) {
        self.out.period_us = 0;
    }

    /// The next report to send, if any: alarms first, then a changed (or requested) status,
    /// then a due position. Call only while a session is up.
    pub fn next_report(&mut self, now: Micros) -> Option<ArmReport> {
        if let Some(alarm) = self.out.alarms.pop_front() {
            return Some(ArmReport::Alarm(alarm));
        }
        let key = StatusKey {
            state: self.state,
            homed: self.homed,
            pump_on: self.pump_on,
            move_id: self.move_id,
        };
        if self.out.status_asked || self.out.last_status != Some(key) {
            self.out.status_asked = false;
            self.out.last_status = Some(key);
            return Some(ArmReport::Status(self.status()));
        }
        let period = self.out.period_us;
        if period > 0 && now >= self.out.next_position {
            self.out.next_position += period;
            if self.out.next_position <= now {
                self.out.next_position = now + period;
            }
            return Some(ArmReport::Position {
                joints: self.angles().map(CentiDeg),
            });
        }
        None
    }
}
