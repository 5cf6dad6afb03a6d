//! Every controller of the firmware core, built for a target without std: the arm over a
//! stand-in for its pins, the field over stand-in inputs, the head over stand-in outputs, each
//! joined to the shared link. Nothing here runs; building it is the check.

#![no_std]
#![forbid(unsafe_code)]

use firmware_core::arm::{Arm, ArmConfig, ArmIo};
use firmware_core::device::{Device, FieldUnit, HeadOutputs, HeadUnit};
use firmware_core::field::{Field, FieldConfig, FieldInputs, RawInputs};
use firmware_core::head::max7219::Transaction;
use firmware_core::head::{Head, HeadConfig, SERVOS};
use firmware_core::stepper::Direction;
use serial_link::FirmwareId;

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}

struct Pins;

impl ArmIo for Pins {
    fn step(&mut self, _joint: usize, _dir: Direction) {}
    fn limit_closed(&mut self, _joint: usize) -> bool {
        false
    }
    fn set_pump(&mut self, _on: bool) {}
    fn set_vent(&mut self, _open: bool) {}
}

impl FieldInputs for Pins {
    fn latch(&mut self) {}
    fn read(&mut self) -> RawInputs {
        RawInputs::default()
    }
}

impl HeadOutputs for Pins {
    fn servo_pulses(&mut self, _us: [u16; SERVOS]) {}
    fn eye_write(&mut self, _words: Transaction<2>) {}
}

/// One turn of each controller's main loop on `bytes`; returns the bytes they would write.
pub fn run_once(bytes: &[u8], now: u64) -> usize {
    let id = FirmwareId::new("check");
    let mut arm = Device::new(Arm::new(ArmConfig::paper_robot(), Pins), id, 1, now);
    let field = FieldUnit {
        field: Field::new(FieldConfig::default()),
        inputs: Pins,
    };
    let mut field = Device::new(field, id, 2, now);
    let head = HeadUnit::new(Head::new(HeadConfig::paper_robot()), Pins);
    let mut head = Device::new(head, id, 3, now);
    arm.receive(bytes, now);
    field.receive(bytes, now);
    head.receive(bytes, now);
    arm.poll(now);
    field.poll(now);
    head.poll(now);
    arm.take_transmit().len() + field.take_transmit().len() + head.take_transmit().len()
}
