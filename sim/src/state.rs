//! Everything physical in one place, behind one lock: the world, the arm, the field's buttons
//! and sensors, the head, the faults. Controllers, the physics tick, the human and the markers
//! each take the lock briefly.

use std::sync::{Arc, Mutex, MutexGuard};

use arm_kinematics::config::Geometry;
use arm_kinematics::fk;
use arm_kinematics::joints::Joints;
use nalgebra::Point3;
use serial_link::field::Snapshot;
use serial_link::head::EyeBitmap;
use serial_link::ServoAngle;

use crate::arm_model::SimArm;
use crate::faults::Faults;
use crate::rng::Rng;
use crate::world::World;

/// The field controller's buttons and scan counter.
#[derive(Debug, Clone, Default)]
pub struct FieldState {
    pub scan: u16,
    pub confirm_presses: u16,
    pub new_game_presses: u16,
}

/// What the head shows: the last of each command.
#[derive(Debug, Clone, Default)]
pub struct HeadState {
    pub eyes: Option<(EyeBitmap, EyeBitmap)>,
    pub brows: (ServoAngle, ServoAngle),
    pub neck: (ServoAngle, ServoAngle),
    pub brightness: u8,
    /// Commands obeyed, for tests and the UI.
    pub commands: u64,
}

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
    pub arm: SimArm,
    pub field: FieldState,
    pub head: HeadState,
    pub faults: Faults,
    pub rng: Rng,
    pub physics: Physics,
    /// The arbiter's latest position and the robot's colour (from `/game/state`): what the
    /// human sets the board up as when asked to put it right.
    pub game: Option<(draughts::Position, draughts::Color)>,
    geometry: Geometry,
    /// The cup failed to seal during this pump-on spell (a failed pick stays failed until the
    /// pump goes off).
    pick_failed: bool,
}

pub type Shared = Arc<Mutex<Sim>>;

/// Locks the sim; a panic elsewhere while holding the lock leaves consistent-enough state for a
/// simulation, so a poisoned lock is taken over rather than spread.
pub fn lock(shared: &Shared) -> MutexGuard<'_, Sim> {
    shared.lock().unwrap_or_else(|p| p.into_inner())
}

impl Sim {
    pub fn new(
        world: World,
        arm: SimArm,
        geometry: Geometry,
        physics: Physics,
        faults: Faults,
        seed: u64,
    ) -> Sim {
        Sim {
            world,
            arm,
            field: FieldState::default(),
            head: HeadState::default(),
            faults,
            rng: Rng::new(seed),
            physics,
            game: None,
            geometry,
            pick_failed: false,
        }
    }

    /// Where the cup's tip is.
    pub fn cup(&self) -> Point3<f64> {
        let q = self.arm.joints();
        fk::cup_position(&self.geometry, &Joints::new(q[0], q[1], q[2]))
    }

    /// Advances the arm by `dt` seconds of real time; the cup picks and lets go.
    ///
    /// The pump acts twice: on the pose the arm held since the last tick, then on the pose it
    /// reaches. Commands arrive between ticks, and at a high time scale the arm node's dwell
    /// after a pump switch (0.3 s / time scale) is shorter than a tick, so the next move may
    /// already be under way when the tick comes: judged only after moving, the cup would rise
    /// off a piece it sat on all along and never seal.
    pub fn step(&mut self, dt: f64) {
        self.cup_acts();
        self.arm.step(dt);
        self.cup_acts();
    }

    /// The pump on: the cup seals on a piece it touches. Off: it lets the held piece go.
    fn cup_acts(&mut self) {
        let cup = self.cup();
        if self.arm.pump_on() {
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

    /// One scan of the 32 sensors, in wiring order; a fault may flip one bit.
    pub fn snapshot(&mut self) -> Snapshot {
        self.field.scan = self.field.scan.wrapping_add(1);
        let squares = self.world.presence(self.physics.sensor_tolerance_m);
        let mut presence = 0u32;
        for (i, &n) in self.physics.sensor_map.iter().enumerate() {
            if (1..=32).contains(&n) && squares & (1 << (n - 1)) != 0 {
                presence |= 1 << i;
            }
        }
        if self.rng.chance(self.faults.sensor_bit_flip) {
            let bit = self.rng.below(32);
            presence ^= 1 << bit;
            tracing::debug!(bit, "injected fault: a sensor bit flipped");
        }
        Snapshot {
            scan: self.field.scan,
            presence,
            buttons_held: 0,
            confirm_presses: self.field.confirm_presses,
            new_game_presses: self.field.new_game_presses,
        }
    }

    pub fn press_confirm(&mut self) {
        self.field.confirm_presses = self.field.confirm_presses.wrapping_add(1);
    }

    pub fn press_new_game(&mut self) {
        self.field.new_game_presses = self.field.new_game_presses.wrapping_add(1);
    }
}
