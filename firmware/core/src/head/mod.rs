//! The head controller of docs/serial-protocol.md section 5.4: two brow servos and the neck's
//! pan and tilt servos with angle and rate limits, and two 8x8 LED eyes on a chain of two
//! MAX7219s.
//!
//! Commands and reports are `serial_link`'s own types. Usage: feed commands to
//! [`Head::command`], call [`Head::tick`] every few milliseconds and put [`Head::pulses`] on the
//! servo PWM channels (see [`set_pulse`]), shift out what [`Head::eye_writes`] returns, and send
//! what [`Head::next_report`] yields.

pub mod max7219;
mod servo;

pub use servo::{Servo, ServoConfig};

use embedded_hal::pwm::SetDutyCycle;
use heapless::Vec;
pub use serial_link::head::HeadStatus;
pub use serial_link::{HeadCommand, HeadReport, ServoAngle};

use crate::Micros;
use max7219::{Orientation, Transaction};

/// The servos, in the order of [`Head::pulses`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServoId {
    /// Left brow (the robot's left).
    BrowLeft = 0,
    /// Right brow.
    BrowRight = 1,
    /// Neck pan, positive to the head's left.
    NeckPan = 2,
    /// Neck tilt, positive up.
    NeckTilt = 3,
}

/// Number of servos.
pub const SERVOS: usize = 4;

/// Servo pulses repeat every 20 ms (50 Hz), as hobby servos expect.
pub const SERVO_PERIOD_US: u16 = 20_000;

/// The head controller's configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeadConfig {
    /// Indexed by [`ServoId`].
    pub servos: [ServoConfig; SERVOS],
    /// The left eye's MAX7219 is the first in the chain (its DIN wired to the
    /// microcontroller); otherwise the right eye's is.
    pub left_eye_first: bool,
    /// How each eye's module is mounted: left, right.
    pub orientation: [Orientation; 2],
    /// Brightness at power-up, 0..15.
    pub brightness: u8,
    /// Rewrite the drivers' whole setup and frame this often, microseconds (0: never). Servo
    /// current spikes on a shared supply can glitch a MAX7219 into shutdown or test mode, and
    /// nothing else would ever repair it.
    pub refresh_us: u32,
}

impl HeadConfig {
    /// The paper's head: SG90 brows (+-30 degrees), MG996R neck, limits as in
    /// `config/arm.yaml` (pan +-90, tilt -30..45 degrees); speeds are the servos' rated ones.
    pub const fn paper_robot() -> HeadConfig {
        const fn servo(min: i16, max: i16, max_speed: u16) -> ServoConfig {
            ServoConfig {
                min,
                max,
                neutral_us: 1500,
                us_per_90deg: 1000,
                max_speed,
            }
        }
        HeadConfig {
            servos: [
                servo(-3_000, 3_000, 30_000),
                servo(-3_000, 3_000, 30_000),
                servo(-9_000, 9_000, 25_000),
                servo(-3_000, 4_500, 25_000),
            ],
            left_eye_first: true,
            orientation: [Orientation {
                transpose: false,
                mirror: false,
                flip: false,
            }; 2],
            brightness: 8,
            refresh_us: 1_000_000,
        }
    }
}

/// The most transactions one update takes: the setup and a whole frame.
pub const MAX_EYE_WRITES: usize = 13;

/// Transactions for the two-device chain of the eyes.
pub type EyeWrites = Vec<Transaction<2>, MAX_EYE_WRITES>;

/// The head controller.
#[derive(Debug)]
pub struct Head {
    cfg: HeadConfig,
    servos: [Servo; SERVOS],
    /// Left, right.
    eyes: [[u8; 8]; 2],
    brightness: u8,
    frame_dirty: bool,
    brightness_dirty: bool,
    /// When the next full rewrite is due; `None`: at the first chance (power-up).
    next_refresh: Option<Micros>,
    status_asked: bool,
    /// When the servos last ramped; `None`: not yet.
    servos_ticked: Option<Micros>,
}

/// How often the servos ramp and their pulses are rewritten. They take a new pulse every
/// 20 ms; a millisecond keeps the ramps smooth, where every main-loop turn spent a dozen 64-bit
/// divisions (library calls on the M0+) for nothing.
pub const SERVO_TICK_US: Micros = 1_000;

impl Head {
    /// Servos at neutral, eyes dark.
    pub fn new(cfg: HeadConfig) -> Head {
        Head {
            servos: cfg.servos.map(Servo::new),
            eyes: [[0; 8]; 2],
            brightness: cfg.brightness.min(max7219::MAX_INTENSITY),
            frame_dirty: true,
            brightness_dirty: true,
            next_refresh: None,
            status_asked: false,
            servos_ticked: None,
            cfg,
        }
    }

    /// One servo.
    pub fn servo(&self, id: ServoId) -> &Servo {
        &self.servos[id as usize]
    }

    /// Obeys a command.
    pub fn command(&mut self, cmd: HeadCommand) {
        match cmd {
            HeadCommand::SetEyes { left, right } => {
                self.eyes = [left.0, right.0];
                self.frame_dirty = true;
            }
            HeadCommand::SetBrows { left, right } => {
                self.servos[ServoId::BrowLeft as usize].set_target(left.0, 0);
                self.servos[ServoId::BrowRight as usize].set_target(right.0, 0);
            }
            HeadCommand::SetNeck { pan, tilt, speed } => {
                self.servos[ServoId::NeckPan as usize].set_target(pan.0, speed);
                self.servos[ServoId::NeckTilt as usize].set_target(tilt.0, speed);
            }
            HeadCommand::SetBrightness { level } => {
                self.brightness = level.min(max7219::MAX_INTENSITY);
                self.brightness_dirty = true;
            }
            HeadCommand::StatusRequest => self.status_asked = true,
        }
    }

    /// Ramps the servos to `now`, at most every [`SERVO_TICK_US`]; whether it did (and so
    /// whether the pulses may have changed).
    pub fn tick(&mut self, now: Micros) -> bool {
        if self
            .servos_ticked
            .is_some_and(|t| now.saturating_sub(t) < SERVO_TICK_US)
        {
            return false;
        }
        self.servos_ticked = Some(now);
        for s in &mut self.servos {
            s.tick(now);
        }
        true
    }

    /// Pulse widths now, microseconds, indexed by [`ServoId`].
    pub fn pulses(&self) -> [u16; SERVOS] {
        self.servos.map(|s| s.pulse_us())
    }

    /// Where the servos are.
    pub fn status(&self) -> HeadStatus {
        let a = |id: ServoId| ServoAngle(self.servos[id as usize].angle());
        HeadStatus {
            pan: a(ServoId::NeckPan),
            tilt: a(ServoId::NeckTilt),
            brow_left: a(ServoId::BrowLeft),
            brow_right: a(ServoId::BrowRight),
            moving: self.servos.iter().any(Servo::moving),
        }
    }

    /// The next report to send (while a session is up).
    pub fn next_report(&mut self) -> Option<HeadReport> {
        if !self.status_asked {
            return None;
        }
        self.status_asked = false;
        Some(HeadReport::Status(self.status()))
    }

    /// What to shift into the eyes' MAX7219 chain now, if anything: the whole setup and frame
    /// at power-up and every `refresh_us`, else a changed frame and brightness.
    pub fn eye_writes(&mut self, now: Micros) -> Option<EyeWrites> {
        let refresh = self.next_refresh.is_none_or(|t| now >= t);
        if !(refresh || self.frame_dirty || self.brightness_dirty) {
            return None;
        }
        let mut out = EyeWrites::new();
        // Capacities: 5 + 8 = MAX_EYE_WRITES, so no push below can fail.
        if refresh {
            let _ = out.extend_from_slice(&max7219::init::<2>(self.brightness));
            self.next_refresh = Some(match self.cfg.refresh_us {
                0 => Micros::MAX,
                period => now + Micros::from(period),
            });
        } else if self.brightness_dirty {
            let _ = out.push(max7219::intensity::<2>(self.brightness));
        }
        if refresh || self.frame_dirty {
            let _ = out.extend_from_slice(&max7219::frame(&self.chain_digits()));
        }
        self.frame_dirty = false;
        self.brightness_dirty = false;
        Some(out)
    }

    /// The digit bytes of each device, counted from the microcontroller.
    fn chain_digits(&self) -> [[u8; 8]; 2] {
        let [left, right] = self.eyes;
        let [lo, ro] = self.cfg.orientation;
        let (l, r) = (lo.apply(left), ro.apply(right));
        if self.cfg.left_eye_first {
            [l, r]
        } else {
            [r, l]
        }
    }
}

/// Puts a servo pulse of `pulse_us` on a PWM channel whose period is [`SERVO_PERIOD_US`].
pub fn set_pulse<P: SetDutyCycle>(pwm: &mut P, pulse_us: u16) -> Result<(), P::Error> {
    pwm.set_duty_cycle_fraction(pulse_us.min(SERVO_PERIOD_US), SERVO_PERIOD_US)
}
