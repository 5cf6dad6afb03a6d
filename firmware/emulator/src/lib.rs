//! The robot's two Raspberry Pi Picos, emulated: the firmware ELFs that `firmware/pico/build.sh`
//! makes for the RP2040 run instruction by instruction in rp2040js (npm), with the RP2040's
//! boot ROM (`bootrom/`), one Node process per board (`js/board.mjs`). [`Board`] drives one in
//! lock step, a slice of emulated time at a time: the caller sets the input pins and sends
//! bytes to the USB CDC ports, and gets back what the firmware did at its pins (step pulses,
//! outputs, servo pulse widths, SPI frames, scans of the shift registers) and on its ports.
//!
//! What those pins mean in the world (a joint turning, a magnet over a sensor) is the sim's
//! (`sim::emulated`): this crate knows the chip and its wiring, nothing of the robot.
//!
//! ```no_run
//! # async fn demo() -> Result<(), pico_emulator::EmulatorError> {
//! use pico_emulator::{Board, BoardKind, Install, SliceInput};
//! let install = Install::locate()?;
//! let mut board = Board::start(BoardKind::Field, &install).await?;
//! let out = board.slice(&SliceInput { run_us: 1_000, ..SliceInput::default() }).await?;
//! println!("{} us emulated, USB attached: {}", out.t_us, out.attached);
//! # Ok(()) }
//! ```

pub mod bench;
mod board;
mod budget;
mod error;
mod image;
mod install;
pub mod wiring;

pub use board::{Board, SliceInput, SliceOutput};
pub use budget::{Budget, Budgets, Usage};
pub use error::EmulatorError;
pub use image::Image;
pub use install::Install;
pub use wiring::{BoardKind, Wiring};
