//! Each board's pins as the emulator needs them, from docs/firmware.md's wiring tables (the
//! firmware's `firmware/pico/src/bin/*.rs` sets them up).

use serde::Serialize;

/// The two Pico boards of the robot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoardKind {
    /// The arm and head controllers, on two USB CDC ports (arm first).
    Control,
    /// The field controller: the 32 Hall sensors and the buttons, one USB CDC port.
    Field,
}

impl BoardKind {
    pub const ALL: [BoardKind; 2] = [BoardKind::Control, BoardKind::Field];

    /// The firmware binary's name (`firmware/pico/src/bin/`).
    pub fn name(self) -> &'static str {
        match self {
            BoardKind::Control => "control",
            BoardKind::Field => "field",
        }
    }
}

/// The pins of one board, in the emulator's terms.
#[derive(Debug, Clone, Serialize)]
pub struct Wiring {
    /// Step and direction pins of each stepper driver, J1 first.
    pub steps: Vec<[u8; 2]>,
    /// Output pins whose levels are reported after each slice.
    pub outputs: Vec<u8>,
    /// PWM pins whose pulse widths are measured.
    pub pwm: Vec<u8>,
    /// An SPI bus framed by a chip-select pin.
    pub spi: Option<Spi>,
    /// A chain of 74HC165 shift registers.
    pub hc165: Option<Hc165>,
    /// Input pins and their level at power-up.
    pub inputs: std::collections::BTreeMap<u8, bool>,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct Spi {
    pub bus: u8,
    pub cs: u8,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct Hc165 {
    pub load: u8,
    pub clk: u8,
    pub data: u8,
}

/// Control board: the J1..J3 A4988s' STEP/DIR.
pub const STEP_DIR: [[u8; 2]; 3] = [[2, 3], [4, 5], [6, 7]];
/// Control board: the A4988s' common ENABLE (active low).
pub const ENABLE: u8 = 8;
/// Control board: the TLE4945L limit switches of J1..J3 (open collector, pulled up: low closed).
pub const LIMITS: [u8; 3] = [9, 10, 11];
/// Control board: the MAX7219s' LOAD (SPI1's chip select).
pub const EYES_LOAD: u8 = 13;
/// Control board: brow left, brow right, neck pan, neck tilt servos (`ServoId` order).
pub const SERVOS: [u8; 4] = [16, 17, 18, 19];
/// Control board: the pump's and the vent valve's driver inputs.
pub const PUMP: u8 = 20;
pub const VENT: u8 = 21;
/// The Pico's LED (control board: a session is up).
pub const LED: u8 = 25;
/// Field board: the confirm and new-game buttons (to ground, pulled up: low pressed).
pub const BUTTONS: [u8; 2] = [5, 6];

impl Wiring {
    pub fn of(kind: BoardKind) -> Wiring {
        match kind {
            BoardKind::Control => Wiring {
                steps: STEP_DIR.to_vec(),
                outputs: vec![ENABLE, PUMP, VENT, LED],
                pwm: SERVOS.to_vec(),
                spi: Some(Spi {
                    bus: 1,
                    cs: EYES_LOAD,
                }),
                hc165: None,
                // The switches open (pulled up) until the world says otherwise.
                inputs: LIMITS.iter().map(|&p| (p, true)).collect(),
            },
            BoardKind::Field => Wiring {
                steps: Vec::new(),
                outputs: Vec::new(),
                pwm: Vec::new(),
                spi: None,
                hc165: Some(Hc165 {
                    load: 2,
                    clk: 3,
                    data: 4,
                }),
                inputs: BUTTONS.iter().map(|&p| (p, true)).collect(),
            },
        }
    }
}
