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

/// The simulated hardware.
#[derive(Debug)]
pub struct Sim {
    pub world: World,
    pub arm: ArmDevice,
    pub field: FieldDevice,
    pub head: HeadDevice,
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
        devices: Devices,
        geometry: Geometry,
        physics: Physics,
        faults: Faults,
        seed: u64,
    ) -> Sim {
        Sim {
            world,
            arm: devices.arm,
            field: devices.field,
            head: devices.head,
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
        self.arm.logic().io().joints()
    }

    /// What the head shows.
    pub fn head_state(&self) -> HeadState {
        let out = &self.head.logic().outputs;
        HeadState {
            eyes: out.eyes(),
            brows: (out.angle(ServoId::BrowLeft), out.angle(ServoId::BrowRight)),
            neck: (out.angle(ServoId::NeckPan), out.angle(ServoId::NeckTilt)),
            brightness: out.brightness(),
        }
    }

    /// Bytes from the host to a controller.
    pub fn receive(&mut self, which: Controller, bytes: &[u8]) {
        let now = self.micros();
        match which {
            Controller::Field => self.field.receive(bytes, now),
            Controller::Arm => self.arm.receive(bytes, now),
            Controller::Head => self.head.receive(bytes, now),
        }
    }

    /// Runs a controller's loop once; returns what it writes to the line.
    pub fn poll(&mut self, which: Controller) -> serial_link::Transmit {
        let now = self.micros();
        match which {
            Controller::Field => {
                let sensors = self.sensors();
                let inputs = &mut self.field.logic_mut().inputs;
                inputs.sensors = sensors;
                inputs.bit_flip = self.faults.sensor_bit_flip;
                self.field.poll(now);
                self.field.take_transmit()
            }
            Controller::Arm => {
                self.step();
                self.arm.take_transmit()
            }
            Controller::Head => {
                self.head.poll(now);
                self.head.take_transmit()
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
        if self.faults.lost_steps > 0 {
            let n = u32::try_from(self.faults.lost_steps).unwrap_or(u32::MAX);
            self.faults.lost_steps = 0;
            let joint = self.rng.below(3);
            self.arm.logic_mut().io_mut().lose_steps(joint, n);
            tracing::info!(
                joint = joint + 1,
                steps = n,
                "injected fault: a joint misses steps"
            );
        }
        self.cup_acts();
        let now = self.micros();
        self.arm.poll(now);
        self.cup_acts();
    }

    /// The pump on: the cup seals on a piece it touches. Off: it lets the held piece go.
    fn cup_acts(&mut self) {
        let cup = self.cup();
        if self.arm.logic().io().pump_on() {
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
    fn sensors(&self) -> u32 {
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
        self.field.logic_mut().inputs.press(Button::Confirm);
    }

    pub fn press_new_game(&mut self) {
        self.field.logic_mut().inputs.press(Button::NewGame);
    }
}
