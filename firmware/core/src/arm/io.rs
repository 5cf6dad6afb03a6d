//! What the arm controller touches: three step/direction drivers, three Hall limit switches,
//! the pump and its vent valve. A board implements [`ArmIo`] (usually with [`HalArmIo`]), the
//! simulator with simulated joints, the tests with a recorder.

use core::convert::Infallible;

use embedded_hal::delay::DelayNs;
use embedded_hal::digital::{InputPin, OutputPin};

use crate::stepper::{Direction, StepDir};
use serial_link::arm::JOINTS;

/// The arm's hardware, as the controller logic sees it.
pub trait ArmIo {
    /// One step pulse on `joint` (0 = J1), turning it `dir`.
    fn step(&mut self, joint: usize, dir: Direction);
    /// Whether `joint`'s limit switch is closed (its magnet is at the sensor).
    fn limit_closed(&mut self, joint: usize) -> bool;
    /// Pump motor on or off.
    fn set_pump(&mut self, on: bool);
    /// Vent valve: open lets air into the cup.
    fn set_vent(&mut self, open: bool);
    /// An emergency stop input, where the board has one (the paper's does not).
    fn estop_pressed(&mut self) -> bool {
        false
    }
    /// A driver's stall signal (a TMC2209's DIAG, say). The A4988 has none; lost steps then
    /// show only at the switches (see `ArmConfig::stall_tolerance`).
    fn stalled(&mut self, joint: usize) -> bool {
        let _ = joint;
        false
    }
}

/// [`ArmIo`] over embedded-hal pins. The TLE4945L is an open-collector latch: with a pull-up,
/// its output is low while the south pole faces it, so `limit_active_low` is usually true.
#[derive(Debug)]
pub struct HalArmIo<S, D, L, P, V, De> {
    /// Step and direction inputs of the J1, J2, J3 drivers.
    pub drivers: [StepDir<S, D>; JOINTS],
    /// The limit switches of J1, J2, J3.
    pub limits: [L; JOINTS],
    /// Whether a low switch input means closed.
    pub limit_active_low: bool,
    /// The pump's L293D input.
    pub pump: P,
    /// The vent valve's driver input.
    pub vent: V,
    /// Times the step pulses.
    pub delay: De,
}

impl<S, D, L, P, V, De> ArmIo for HalArmIo<S, D, L, P, V, De>
where
    S: OutputPin<Error = Infallible>,
    D: OutputPin<Error = Infallible>,
    L: InputPin<Error = Infallible>,
    P: OutputPin<Error = Infallible>,
    V: OutputPin<Error = Infallible>,
    De: DelayNs,
{
    fn step(&mut self, joint: usize, dir: Direction) {
        if let Some(d) = self.drivers.get_mut(joint) {
            d.pulse(dir, &mut self.delay);
        }
    }

    fn limit_closed(&mut self, joint: usize) -> bool {
        self.limits.get_mut(joint).is_some_and(|pin| {
            let Ok(low) = pin.is_low();
            low == self.limit_active_low
        })
    }

    fn set_pump(&mut self, on: bool) {
        let Ok(()) = self.pump.set_state(on.into());
    }

    fn set_vent(&mut self, open: bool) {
        let Ok(()) = self.vent.set_state(open.into());
    }
}
