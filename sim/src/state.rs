//! Everything physical in one place, behind one lock: the world, the arm, the field's buttons
//! and sensors, the head, the faults. Controllers, the physics tick, the human and the markers
//! each take the lock briefly.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use arm_kinematics::config::Geometry;
use arm_kinematics::fk;
use arm_kinematics::joints::Joints;
use firmware_core::arm::Arm;
use firmware_core::device::{Device, FieldUnit, HeadUnit};
use firmware_core::head::ServoId;
use nalgebra::Point3;
use serial_link::field::Button;
use serial_link::head::EyeBitmap;
use serial_link::ServoAngle;

use crate::faults::{Controller, Faults};
use crate::hardware::{SimArmIo, SimFieldInputs, SimHeadOutputs};
use crate::rng::Rng;
use crate::world::World;

/// What the head shows, read back from its servo pulses and LED drivers.
#[derive(Debug, Clone, Default)]
pub struct HeadState {
    pub eyes: Option<(EyeBitmap, EyeBitmap)>,
    pub brows: (ServoAngle, ServoAngle),
    pub neck: (ServoAngle, ServoAngle),
    pub brightness: u8,
}

/// The arm controller: its firmware over the simulated arm.
pub type ArmDevice = Device<Arm<SimArmIo>>;
/// The field controller: its firmware over the simulated sensors and buttons.
pub type FieldDevice = Device<FieldUnit<SimFieldInputs>>;
/// The head controller: its firmware over the simulated servos and LEDs.
pub type HeadDevice = Device<HeadUnit<SimHeadOutputs>>;

/// How the sensors and the cup behave.
#[derive(Debug, Clone)]
pub struct Physics {
    /// A sensor sees a piece this far off its square's centre, no farther.
    pub sensor_tolerance_m: f64,
    /// The cup seals on a piece within this distance of the piece's centre.
    pub pick_tolerance_m: f64,
    /// ... and with its tip no higher than this above the piece's top.
    pub pick_reach_m: f64,
    /// Sensor i (wiring order) lies under square `sensor_map[i]` (1..32).
    pub sensor_map: [u8; 32],
}

/// The simulated electronics, by themselves: what the emulated Picos' pins drive and read.
#[derive(Debug)]
pub struct Electronics {
    pub arm: SimArmIo,
    pub field: SimFieldInputs,
    pub head: SimHeadOutputs,
}

/// What runs the firmware: our firmware core here, over the electronics, or emulated Picos
/// (crate::emulated) at the electronics' pins.
#[derive(Debug)]
pub enum Controllers {
    Native(Box<Devices>),
    Emulated(Electronics),
}

/// The simulated hardware.
#[derive(Debug)]
pub struct Sim {
    pub world: World,
    pub controllers: Controllers,
    pub faults: Faults,
    pub rng: Rng,
    pub physics: Physics,
    /// The arbiter's latest position and the robot's colour (from `/game/state`): what the
    /// human sets the board up as when asked to put it right.
    pub game: Option<(draughts::Position, draughts::Color)>,
    geometry: Geometry,
    clock: Clock,
    /// The cup failed to seal during this pump-on spell (a failed pick stays failed until the
    /// pump goes off).
    pick_failed: bool,
}

pub type Shared = Arc<Mutex<Sim>>;

/// The controllers' clock: real time from the sim's start, or one a test advances.
#[derive(Debug, Clone, Copy)]
enum Clock {
    Real(Instant),
    Manual(u64),
}

/// Locks the sim; a panic elsewhere while holding the lock leaves consistent-enough state for a
/// simulation, so a poisoned lock is taken over rather than spread.
pub fn lock(shared: &Shared) -> MutexGuard<'_, Sim> {
    shared.lock().unwrap_or_else(|p| p.into_inner())
}

/// The three controllers.
#[derive(Debug)]
pub struct Devices {
    pub arm: ArmDevice,
    pub field: FieldDevice,
    pub head: HeadDevice,
}

impl Sim {
    pub fn new(
        world: World,
        devices: Controllers,
        geometry: Geometry,
        physics: Physics,
        faults: Faults,
        seed: u64,
    ) -> Sim {
        Sim {
            world,
            controllers: devices,
            faults,
            rng: Rng::new(seed),
            physics,
            game: None,
            geometry,
            clock: Clock::Real(Instant::now()),
            pick_failed: false,
        }
    }

    /// The controllers' clock: microseconds since the sim started.
    pub fn micros(&self) -> u64 {
        match self.clock {
            Clock::Real(start) => u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX),
            Clock::Manual(t) => t,
        }
    }

    /// Stops the clock: from now on time passes only by [`Sim::advance`] (tests).
    pub fn stop_clock(&mut self) {
        self.clock = Clock::Manual(self.micros());
    }

    /// Lets `seconds` pass on a stopped clock and runs the arm (see [`Sim::step`]).
    pub fn advance(&mut self, seconds: f64) {
        if let Clock::Manual(t) = &mut self.clock {
            *t += (seconds * 1e6) as u64;
        }
        self.step();
    }

    /// The arm's joint angles, radians: where the steps put it, whatever the firmware thinks.
    pub fn joints(&self) -> [f64; 3] {
        self.arm_io().joints()
    }

    /// The firmware core's controllers, when they run here (not emulated).
    pub fn native(&self) -> Option<&Devices> {
        match &self.controllers {
            Controllers::Native(d) => Some(d),
            Controllers::Emulated(_) => None,
        }
    }

    pub fn native_mut(&mut self) -> Option<&mut Devices> {
        match &mut self.controllers {
            Controllers::Native(d) => Some(d),
            Controllers::Emulated(_) => None,
        }
    }

    /// The arm's motors, switches, pump and valve.
    pub fn arm_io(&self) -> &SimArmIo {
        match &self.controllers {
            Controllers::Native(d) => d.arm.logic().io(),
            Controllers::Emulated(e) => &e.arm,
        }
    }

    pub fn arm_io_mut(&mut self) -> &mut SimArmIo {
        match &mut self.controllers {
            Controllers::Native(d) => d.arm.logic_mut().io_mut(),
            Controllers::Emulated(e) => &mut e.arm,
        }
    }

    /// The field's sensors and buttons.
    pub fn field_inputs_mut(&mut self) -> &mut SimFieldInputs {
        match &mut self.controllers {
            Controllers::Native(d) => &mut d.field.logic_mut().inputs,
            Controllers::Emulated(e) => &mut e.field,
        }
    }

    /// The head's servos and LED drivers.
    pub fn head_outputs(&self) -> &SimHeadOutputs {
        match &self.controllers {
            Controllers::Native(d) => &d.head.logic().outputs,
            Controllers::Emulated(e) => &e.head,
        }
    }

    pub fn head_outputs_mut(&mut self) -> &mut SimHeadOutputs {
        match &mut self.controllers {
            Controllers::Native(d) => &mut d.head.logic_mut().outputs,
            Controllers::Emulated(e) => &mut e.head,
        }
    }

    /// What the head shows.
    pub fn head_state(&self) -> HeadState {
        let out = self.head_outputs();
        HeadState {
            eyes: out.eyes(),
            brows: (out.angle(ServoId::BrowLeft), out.angle(ServoId::BrowRight)),
            neck: (out.angle(ServoId::NeckPan), out.angle(ServoId::NeckTilt)),
            brightness: out.brightness(),
        }
    }

    /// Bytes from the host to a native controller.
    pub fn receive(&mut self, which: Controller, bytes: &[u8]) {
        let now = self.micros();
        let Controllers::Native(d) = &mut self.controllers else {
            return;
        };
        match which {
            Controller::Field => d.field.receive(bytes, now),
            Controller::Arm => d.arm.receive(bytes, now),
            Controller::Head => d.head.receive(bytes, now),
        }
    }

    /// Runs a native controller's loop once; returns what it writes to the line.
    pub fn poll(&mut self, which: Controller) -> serial_link::Transmit {
        let now = self.micros();
        let sensors = self.sensors();
        let bit_flip = self.faults.sensor_bit_flip;
        if which == Controller::Arm {
            self.step();
        }
        let Controllers::Native(d) = &mut self.controllers else {
            return serial_link::Transmit::new();
        };
        match which {
            Controller::Field => {
                let inputs = &mut d.field.logic_mut().inputs;
                inputs.sensors = sensors;
                inputs.bit_flip = bit_flip;
                d.field.poll(now);
                d.field.take_transmit()
            }
            Controller::Arm => d.arm.take_transmit(),
            Controller::Head => {
                // A Pico's loop comes round every 30 us and shifts one eye write a turn; this
                // loop turns every few milliseconds, so it takes them all at once.
                d.head.poll(now);
                for _ in 0..firmware_core::head::MAX_EYE_WRITES {
                    if !d.head.logic().eyes_pending() {
                        break;
                    }
                    d.head.poll(now);
                }
                d.head.take_transmit()
            }
        }
    }

    /// Where the cup's tip is.
    pub fn cup(&self) -> Point3<f64> {
        let q = self.joints();
        fk::cup_position(&self.geometry, &Joints::new(q[0], q[1], q[2]))
    }

    /// Runs the arm's firmware up to now (its steps turn the joints); the cup picks and lets
    /// go.
    ///
    /// The pump acts twice: on the pose the arm held since the last tick, then on the pose it
    /// reaches. Commands arrive between ticks, and at a high time scale the arm node's dwell
    /// after a pump switch (0.3 s / time scale) is shorter than a tick, so the next move may
    /// already be under way when the tick comes: judged only after moving, the cup would rise
    /// off a piece it sat on all along and never seal.
    pub fn step(&mut self) {
        let (stuck, never) = (
            self.faults.limit_stuck_closed,
            self.faults.limit_never_closes,
        );
        self.arm_io_mut().set_switch_faults(stuck, never);
        if self.faults.lost_steps > 0 {
            let n = u32::try_from(self.faults.lost_steps).unwrap_or(u32::MAX);
            self.faults.lost_steps = 0;
            let joint = self.rng.below(3);
            self.arm_io_mut().lose_steps(joint, n);
            tracing::info!(
                joint = joint + 1,
                steps = n,
                "injected fault: a joint misses steps"
            );
        }
        self.cup_acts();
        let now = self.micros();
        if let Controllers::Native(d) = &mut self.controllers {
            d.arm.poll(now);
        }
        self.cup_acts();
    }

    /// The pump on: the cup seals on a piece it touches. Off: it lets the held piece go.
    fn cup_acts(&mut self) {
        let cup = self.cup();
        if self.arm_io().pump_on() {
            if self.world.held().is_none() && !self.pick_failed {
                let (tol, reach) = (self.physics.pick_tolerance_m, self.physics.pick_reach_m);
                if let Some(id) = self.world.pickable(cup, tol, reach) {
                    if self.faults.failed_picks > 0 {
                        self.faults.failed_picks -= 1;
                        self.pick_failed = true;
                        tracing::info!("injected fault: the cup does not seal on the piece");
                    } else {
                        self.world.pick(id);
                        tracing::debug!(id, "the cup picked a piece");
                    }
                }
            }
        } else {
            self.pick_failed = false;
            if let Some(place) = self.world.release(cup) {
                tracing::debug!(?place, "the cup let a piece go");
            }
        }
    }

    /// The sensors that see a magnet now, in wiring order.
    pub fn sensors(&self) -> u32 {
        let squares = self.world.presence(self.physics.sensor_tolerance_m);
        let mut presence = 0u32;
        for (i, &n) in self.physics.sensor_map.iter().enumerate() {
            if (1..=32).contains(&n) && squares & (1 << (n - 1)) != 0 {
                presence |= 1 << i;
            }
        }
        presence
    }

    pub fn press_confirm(&mut self) {
        self.field_inputs_mut().press(Button::Confirm);
    }

    pub fn press_new_game(&mut self) {
        self.field_inputs_mut().press(Button::NewGame);
    }
}
