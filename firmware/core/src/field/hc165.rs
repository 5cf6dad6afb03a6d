//! Reading the 32 Hall sensors through four 74HC165 parallel-in/serial-out shift registers,
//! daisy-chained (each one's QH into the next one's SER), CLK INH tied low.
//!
//! A scan is a load pulse on SH/LD (low copies all 32 inputs into the registers at one
//! instant), then 32 clocks, reading the serial data pin (the first register's QH) before each
//! rising edge. The field PCB wires the squares so that the bits come out in the board's
//! numbering: U1's inputs H..A carry squares 1..8, U2's 9..16, U3's 17..24, U4's 25..32, and
//! U1's QH goes to the microcontroller. So the n-th bit read is square n, and the occupancy
//! word has square s at bit s - 1 (the protocol's sensor s - 1).
//!
//! The confirm and new-game buttons are plain inputs, read at the load pulse so that a scan
//! is one instant for everything.

use core::convert::Infallible;

use embedded_hal::delay::DelayNs;
use embedded_hal::digital::{InputPin, OutputPin};

use super::{FieldInputs, RawInputs};

/// The 74HC165 chain and the two buttons.
#[derive(Debug)]
pub struct Hc165Field<LD, CLK, DATA, BTN, DL> {
    load: LD,
    clock: CLK,
    data: DATA,
    /// Confirm, new game.
    buttons: [BTN; 2],
    delay: DL,
    /// Hall switches with open-collector outputs and pull-ups read low with a magnet present.
    sensors_active_low: bool,
    /// Buttons to ground with pull-ups read low when pressed.
    buttons_active_low: bool,
    latched_buttons: u8,
}

/// Half a clock period. The 74HC165 at 3.3 V wants about 50 ns per phase; a fast
/// microcontroller toggles pins quicker than that, and the 32 clocks still take only ~32 us.
const HALF_PERIOD_NS: u32 = 500;

impl<LD, CLK, DATA, BTN, DL> Hc165Field<LD, CLK, DATA, BTN, DL>
where
    LD: OutputPin<Error = Infallible>,
    CLK: OutputPin<Error = Infallible>,
    DATA: InputPin<Error = Infallible>,
    BTN: InputPin<Error = Infallible>,
    DL: DelayNs,
{
    /// The pins; SH/LD and CLK are driven idle (high, low).
    pub fn new(
        mut load: LD,
        mut clock: CLK,
        data: DATA,
        buttons: [BTN; 2],
        delay: DL,
        sensors_active_low: bool,
        buttons_active_low: bool,
    ) -> Self {
        let Ok(()) = load.set_high();
        let Ok(()) = clock.set_low();
        Hc165Field {
            load,
            clock,
            data,
            buttons,
            delay,
            sensors_active_low,
            buttons_active_low,
            latched_buttons: 0,
        }
    }
}

impl<LD, CLK, DATA, BTN, DL> FieldInputs for Hc165Field<LD, CLK, DATA, BTN, DL>
where
    LD: OutputPin<Error = Infallible>,
    CLK: OutputPin<Error = Infallible>,
    DATA: InputPin<Error = Infallible>,
    BTN: InputPin<Error = Infallible>,
    DL: DelayNs,
{
    fn latch(&mut self) {
        let Ok(()) = self.load.set_low();
        self.delay.delay_ns(HALF_PERIOD_NS);
        let Ok(()) = self.load.set_high();
        let mut held = 0u8;
        for (i, b) in self.buttons.iter_mut().enumerate() {
            let Ok(low) = b.is_low();
            if low == self.buttons_active_low {
                held |= 1 << i;
            }
        }
        self.latched_buttons = held;
        self.delay.delay_ns(HALF_PERIOD_NS);
    }

    fn read(&mut self) -> RawInputs {
        let mut high_bits = 0u32;
        for bit in 0..32 {
            let Ok(high) = self.data.is_high();
            high_bits |= u32::from(high) << bit;
            let Ok(()) = self.clock.set_high();
            self.delay.delay_ns(HALF_PERIOD_NS);
            let Ok(()) = self.clock.set_low();
            self.delay.delay_ns(HALF_PERIOD_NS);
        }
        RawInputs {
            sensors: if self.sensors_active_low {
                !high_bits
            } else {
                high_bits
            },
            buttons: self.latched_buttons,
        }
    }
}
