//! The simulated electronics under the controllers' firmware (`firmware_core`): stepper
//! drivers that turn the simulated joints a step per pulse, Hall limit switches that close
//! where their magnets are, the pump and valve, the field's Hall sensors and buttons, the
//! head's servo pulses and its two MAX7219s. The firmware is the real one; only what it
//! touches is simulated, so each fault goes in where it happens physically.

use arm_kinematics::config::Limits;
use firmware_core::arm::{ArmConfig, ArmIo, HomingConfig, JointConfig, JOINTS};
use firmware_core::device::HeadOutputs;
use firmware_core::field::{FieldInputs, RawInputs};
use firmware_core::head::max7219::{reg, Transaction};
use firmware_core::head::{HeadConfig, ServoConfig, ServoId, SERVOS};
use firmware_core::stepper::Direction;
use serial_link::head::EyeBitmap;
use serial_link::ServoAngle;

use crate::rng::Rng;

/// Microsteps per joint turn: 1.8° motors at 1/16 microstepping behind 10:1 (the paper's arm).
pub const STEPS_PER_TURN: u32 = 200 * 16 * 10;

/// How far beyond a joint's soft limit its limit switch closes, centidegrees.
const SWITCH_BEYOND_LIMIT: i32 = 300;

fn centideg(rad: f64) -> i32 {
    (rad.to_degrees() * 100.0).round() as i32
}

/// The arm controller's configuration for the arm of `config/arm.yaml`: its soft limits,
/// speeds and accelerations, the switches just beyond the lower limits, homing at
/// `homing_deg_s` (the precise approach a fifth of that) into `home` (radians).
pub fn arm_config(limits: &Limits, home: [f64; JOINTS], homing_deg_s: f64) -> ArmConfig {
    let seek = (homing_deg_s * 100.0).round().max(1.0) as u32;
    let joint = |j: usize| {
        let (min, max) = (centideg(limits.min[j]), centideg(limits.max[j]));
        // Backing off must clear the switch after braking past its edge at seek speed.
        let braking = f64::from(seek).powi(2) / (2.0 * limits.acceleration[j].to_degrees() * 100.0);
        let backoff = (braking * 1.5) as i32 + SWITCH_BEYOND_LIMIT;
        JointConfig {
            steps_per_turn: STEPS_PER_TURN,
            min,
            max,
            max_speed: centideg(limits.velocity[j]).max(1) as u32,
            max_accel: centideg(limits.acceleration[j]).max(1) as u32,
            homing: HomingConfig {
                toward: Direction::Reverse,
                switch_at: min - SWITCH_BEYOND_LIMIT,
                seek_speed: seek,
                latch_speed: (seek / 5).max(1),
                backoff,
                max_travel: max - min + 2 * backoff,
            },
        }
    };
    let joints = [joint(0), joint(1), joint(2)];
    ArmConfig {
        joints,
        elbow: Some((centideg(limits.elbow_min), centideg(limits.elbow_max))),
        default_speed: joints.iter().map(|j| j.max_speed).min().unwrap_or(1),
        home_pose: home.map(centideg),
        homing_order: [2, 1, 0],
        vent_us: 200_000,
        stall_tolerance: Some(100),
    }
}

/// Three stepper drivers turning the simulated joints, the Hall switches, pump and valve.
#[derive(Debug, Clone)]
pub struct SimArmIo {
    /// Where each joint really is, in steps from its zero angle.
    steps: [i32; JOINTS],
    /// Each switch is closed at and beyond this many steps (toward the lower limit).
    switch_at: [i32; JOINTS],
    pump: bool,
    vent: bool,
    /// Step pulses still to be lost on each joint (an injected fault).
    lose: [u32; JOINTS],
    /// A switch that reads closed (`Some(true)`) or open (`Some(false)`) wherever its joint
    /// is (an injected fault).
    switch_fault: [Option<bool>; JOINTS],
}

impl SimArmIo {
    /// The arm standing at `power_up` (radians).
    pub fn new(cfg: &ArmConfig, power_up: [f64; JOINTS]) -> SimArmIo {
        SimArmIo {
            steps: core::array::from_fn(|j| cfg.joints[j].steps(centideg(power_up[j]))),
            switch_at: core::array::from_fn(|j| {
                cfg.joints[j].steps(cfg.joints[j].homing.switch_at)
            }),
            pump: false,
            vent: false,
            lose: [0; JOINTS],
            switch_fault: [None; JOINTS],
        }
    }

    /// Joint angles, radians.
    pub fn joints(&self) -> [f64; JOINTS] {
        self.steps
            .map(|s| f64::from(s) * std::f64::consts::TAU / f64::from(STEPS_PER_TURN))
    }

    /// Whether the pump runs.
    pub fn pump_on(&self) -> bool {
        self.pump
    }

    /// The switch of joint `stuck_closed` (1..3; 0 none) reads closed, that of `never_closes`
    /// open, wherever the joints are.
    pub fn set_switch_faults(&mut self, stuck_closed: i64, never_closes: i64) {
        self.switch_fault = core::array::from_fn(|j| {
            let joint = j as i64 + 1;
            if joint == stuck_closed {
                Some(true)
            } else if joint == never_closes {
                Some(false)
            } else {
                None
            }
        });
    }

    /// The next `n` pulses to `joint` turn nothing: a stalled motor, an obstacle.
    pub fn lose_steps(&mut self, joint: usize, n: u32) {
        if let Some(l) = self.lose.get_mut(joint) {
            *l += n;
        }
    }
}

impl ArmIo for SimArmIo {
    fn step(&mut self, joint: usize, dir: Direction) {
        let Some(lose) = self.lose.get_mut(joint) else {
            return;
        };
        if *lose > 0 {
            *lose -= 1;
            return;
        }
        self.steps[joint] += dir.sign();
    }

    fn limit_closed(&mut self, joint: usize) -> bool {
        if let Some(&Some(forced)) = self.switch_fault.get(joint) {
            return forced;
        }
        self.steps
            .get(joint)
            .is_some_and(|&s| s <= self.switch_at[joint])
    }

    fn set_pump(&mut self, on: bool) {
        self.pump = on;
    }

    fn set_vent(&mut self, open: bool) {
        self.vent = open;
    }
}

/// Scans a button press lasts, and the scans it stays up after: longer than the firmware's
/// debouncing, as a finger is.
const PRESS_SCANS: u8 = 8;

/// The field's 32 Hall sensors and two buttons, as the sim's world drives them.
#[derive(Debug, Clone)]
pub struct SimFieldInputs {
    /// Sensors that see a magnet now, in wiring order (set by the world before each scan).
    pub sensors: u32,
    /// Probability per scan that a sensor misreads (a stray field, a loose wire).
    pub bit_flip: f64,
    rng: Rng,
    /// Presses still to make: confirm, new game.
    queued: [u16; 2],
    /// The button now down or just released, and for how many more scans.
    pressing: Option<(usize, u8)>,
    latched: RawInputs,
}

impl SimFieldInputs {
    pub fn new(seed: u64) -> SimFieldInputs {
        SimFieldInputs {
            sensors: 0,
            bit_flip: 0.0,
            rng: Rng::new(seed),
            queued: [0; 2],
            pressing: None,
            latched: RawInputs::default(),
        }
    }

    /// A finger on the button: pressed, held a few scans, let go.
    pub fn press(&mut self, button: serial_link::field::Button) {
        let b = usize::from(button.code());
        self.queued[b] = self.queued[b].saturating_add(1);
    }

    fn buttons(&mut self) -> u8 {
        if self.pressing.is_none() {
            if let Some(b) = (0..2).find(|&b| self.queued[b] > 0) {
                self.queued[b] -= 1;
                self.pressing = Some((b, 2 * PRESS_SCANS));
            }
        }
        let Some((b, left)) = self.pressing else {
            return 0;
        };
        self.pressing = (left > 1).then(|| (b, left - 1));
        // Down for the first half, up for the second: the next press waits for the release.
        if left > PRESS_SCANS {
            1 << b
        } else {
            0
        }
    }
}

impl FieldInputs for SimFieldInputs {
    fn latch(&mut self) {
        let mut sensors = self.sensors;
        // A glitch lasts one scan, as a stray field or a loose contact does: the firmware's
        // debouncing is what stands between it and the host.
        if self.rng.chance(self.bit_flip) {
            sensors ^= 1 << self.rng.below(32);
            tracing::debug!("injected fault: a sensor misreads for one scan");
        }
        let buttons = self.buttons();
        self.latched = RawInputs { sensors, buttons };
    }

    fn read(&mut self) -> RawInputs {
        self.latched
    }
}

/// The head of `config/arm.yaml`'s robot as its controller knows it: the paper's servos
/// with the neck's limits widened to the arm config's, LEDs unrotated.
pub fn head_config(pan_deg: (f64, f64), tilt_deg: (f64, f64)) -> HeadConfig {
    let mut cfg = HeadConfig::paper_robot();
    let limit = |(lo, hi): (f64, f64)| {
        (
            (lo * 100.0).round().clamp(-18_000.0, 0.0) as i16,
            (hi * 100.0).round().clamp(0.0, 18_000.0) as i16,
        )
    };
    let set = |s: &mut ServoConfig, (lo, hi): (i16, i16)| {
        s.min = lo;
        s.max = hi;
    };
    set(&mut cfg.servos[ServoId::NeckPan as usize], limit(pan_deg));
    set(&mut cfg.servos[ServoId::NeckTilt as usize], limit(tilt_deg));
    cfg
}

/// The head's outputs: servo pulses and what the MAX7219s were told, read back as the
/// angles and bitmaps they show.
#[derive(Debug, Clone)]
pub struct SimHeadOutputs {
    servos: [ServoConfig; SERVOS],
    pulses: [u16; SERVOS],
    /// Digit registers of the chips, counted from the microcontroller.
    rows: [[u8; 8]; 2],
    intensity: u8,
    frames: u64,
    left_first: bool,
}

impl SimHeadOutputs {
    pub fn new(cfg: &HeadConfig) -> SimHeadOutputs {
        SimHeadOutputs {
            servos: cfg.servos,
            pulses: [0; SERVOS],
            rows: [[0; 8]; 2],
            intensity: cfg.brightness,
            frames: 0,
            left_first: cfg.left_eye_first,
        }
    }

    /// The angle a servo holds for its pulse width (0 before the first pulse).
    pub fn angle(&self, id: ServoId) -> ServoAngle {
        let (s, p) = (&self.servos[id as usize], self.pulses[id as usize]);
        if p == 0 || s.us_per_90deg == 0 {
            return ServoAngle(0);
        }
        let off = i32::from(p) - i32::from(s.neutral_us);
        ServoAngle((off * 9_000 / i32::from(s.us_per_90deg)) as i16)
    }

    /// The eyes, left and right, once the firmware has drawn a frame.
    pub fn eyes(&self) -> Option<(EyeBitmap, EyeBitmap)> {
        let (a, b) = (EyeBitmap(self.rows[0]), EyeBitmap(self.rows[1]));
        (self.frames > 0).then_some(if self.left_first { (a, b) } else { (b, a) })
    }

    /// The LEDs' intensity register.
    pub fn brightness(&self) -> u8 {
        self.intensity
    }
}

impl HeadOutputs for SimHeadOutputs {
    fn servo_pulses(&mut self, us: [u16; SERVOS]) {
        self.pulses = us;
    }

    fn eye_write(&mut self, words: Transaction<2>) {
        // The first word travels farthest down the chain.
        for (i, word) in words.iter().enumerate() {
            let chip = words.len() - 1 - i;
            let [register, value] = word.to_be_bytes();
            match register {
                reg::INTENSITY => self.intensity = value,
                r @ reg::DIGIT_0..=0x08 => {
                    self.rows[chip][usize::from(r - reg::DIGIT_0)] = value;
                    if chip == 0 && r == 0x08 {
                        self.frames += 1;
                    }
                }
                _ => {}
            }
        }
    }
}
