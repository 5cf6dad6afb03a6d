//! What both Pico boards share: moving bytes between a USB serial port and a controller of
//! the firmware core. Everything else a controller does is in `firmware_core`.

#![no_std]

use firmware_core::device::{Device, Logic};
use rp_pico::hal::fugit::ExtU32;
use rp_pico::hal::Watchdog;
use usb_device::bus::UsbBus;
use usbd_serial::SerialPort;

/// One controller on one USB serial interface, with the bytes the port has not yet taken.
pub struct Channel<L: Logic> {
    pub device: Device<L>,
    pending: heapless::Vec<u8, { serial_link::TRANSMIT_LEN }>,
}

impl<L: Logic> Channel<L> {
    pub fn new(device: Device<L>) -> Self {
        Channel {
            device,
            pending: heapless::Vec::new(),
        }
    }

    /// One turn of the main loop for this controller at time `now` (microseconds).
    pub fn service<B: UsbBus>(&mut self, port: &mut SerialPort<'_, B>, now: u64) {
        let mut buf = [0u8; 64];
        while let Ok(n) = port.read(&mut buf) {
            if n == 0 {
                break;
            }
            self.device.receive(&buf[..n], now);
        }
        self.device.poll(now);
        let out = self.device.take_transmit();
        if self.pending.extend_from_slice(&out).is_err() {
            // The host is not reading (no terminal open): drop the oldest bytes; the link's
            // retransmission and framing recover once it does.
            self.pending.clear();
        }
        if let Ok(n) = port.write(&self.pending) {
            let rest =
                heapless::Vec::<u8, { serial_link::TRANSMIT_LEN }>::from_slice(&self.pending[n..])
                    .unwrap_or_default();
            self.pending = rest;
        }
    }
}

/// A seed for the handshake nonces that differs between power-ups: the low bits of the
/// microsecond timer when USB enumeration finished.
pub fn seed(now: u64) -> u64 {
    now.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1
}

/// How long the main loop may stall before the watchdog resets the board. A turn of the loop
/// takes well under a millisecond (docs/firmware.md, "Figures"); a hung peripheral or a runaway
/// loop instead leaves the motors' enable and the pump as they were, which only a reset undoes.
pub const WATCHDOG_MS: u32 = 100;

/// Starts the watchdog; the main loop feeds it every turn. It pauses while a debugger halts
/// the core.
pub fn start_watchdog(watchdog: &mut Watchdog) {
    watchdog.pause_on_debug(true);
    watchdog.start(WATCHDOG_MS.millis());
}
