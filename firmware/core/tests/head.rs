//! The head: servo rate and angle limits, pulse widths, and the MAX7219 words for the eyes.

use std::convert::Infallible;

use embedded_hal::pwm::{ErrorType as PwmErrorType, SetDutyCycle};
use embedded_hal::spi::{ErrorType as SpiErrorType, Operation, SpiDevice};
use firmware_core::head::max7219::{self, Orientation};
use firmware_core::head::{
    set_pulse, Head, HeadCommand, HeadConfig, HeadReport, ServoAngle, ServoId, SERVO_PERIOD_US,
};
use serial_link::head::EyeBitmap;

fn head() -> Head {
    Head::new(HeadConfig::paper_robot())
}

/// Ticks every `step_us` for `us`; the largest change of the pan angle in one tick.
fn run(h: &mut Head, now: &mut u64, us: u64, step_us: u64) -> i32 {
    let mut biggest = 0;
    let end = *now + us;
    while *now < end {
        let before = h.status().pan;
        *now += step_us;
        h.tick(*now);
        biggest = biggest.max((i32::from(h.status().pan.0) - i32::from(before.0)).abs());
    }
    biggest
}

#[test]
fn the_neck_turns_no_faster_than_the_speed_asked() {
    let mut h = head();
    let mut now = 0;
    h.tick(now);
    h.command(HeadCommand::SetNeck {
        pan: ServoAngle(9_000),
        tilt: ServoAngle(0),
        speed: 4_500,
    });
    let biggest = run(&mut h, &mut now, 1_000_000, 2_000);
    // 45 degrees per second: 9 centidegrees per 2 ms tick, half way after a second.
    assert!(biggest <= 9, "{biggest} in one tick");
    assert!((i32::from(h.status().pan.0) - 4_500).abs() <= 1);
    assert!(h.status().moving);
    run(&mut h, &mut now, 1_100_000, 2_000);
    assert_eq!(h.status().pan.0, 9_000);
    assert!(!h.status().moving);
}

#[test]
fn slow_speeds_still_move_at_fast_ticks() {
    let mut h = head();
    let mut now = 0;
    h.tick(now);
    h.command(HeadCommand::SetNeck {
        pan: ServoAngle(1_000),
        tilt: ServoAngle(0),
        speed: 100, // 1 degree per second: a tenth of a centidegree per millisecond
    });
    run(&mut h, &mut now, 2_000_000, 1_000);
    assert_eq!(h.status().pan.0, 200);
}

#[test]
fn speed_zero_is_the_servos_fastest_and_targets_are_clamped() {
    let mut h = head();
    let mut now = 0;
    h.tick(now);
    h.command(HeadCommand::SetNeck {
        pan: ServoAngle(-20_000),
        tilt: ServoAngle(20_000),
        speed: 0,
    });
    h.command(HeadCommand::SetBrows {
        left: ServoAngle(1_500),
        right: ServoAngle(-9_000),
    });
    run(&mut h, &mut now, 100_000, 1_000);
    // MG996R: 250 degrees per second, so 25 degrees in 100 ms.
    assert_eq!(h.status().pan.0, -2_500);
    run(&mut h, &mut now, 1_000_000, 1_000);
    let s = h.status();
    assert_eq!((s.pan.0, s.tilt.0), (-9_000, 4_500), "the neck's limits");
    assert_eq!(
        (s.brow_left.0, s.brow_right.0),
        (1_500, -3_000),
        "the brows'"
    );
    h.command(HeadCommand::StatusRequest);
    assert_eq!(h.next_report(), Some(HeadReport::Status(s)));
    assert_eq!(h.next_report(), None);
}

#[test]
fn pulse_widths_span_500_to_2500_us_over_180_degrees() {
    let mut h = head();
    let mut now = 0;
    h.tick(now);
    assert_eq!(h.pulses(), [1500; 4], "neutral");
    h.command(HeadCommand::SetNeck {
        pan: ServoAngle(9_000),
        tilt: ServoAngle(-3_000),
        speed: 0,
    });
    run(&mut h, &mut now, 1_000_000, 1_000);
    let p = h.pulses();
    assert_eq!(p[ServoId::NeckPan as usize], 2500);
    assert_eq!(p[ServoId::NeckTilt as usize], 1500 - 333);

    let mut cfg = HeadConfig::paper_robot();
    cfg.servos[ServoId::NeckPan as usize].us_per_90deg = -1000; // mounted the other way
    let mut h = Head::new(cfg);
    h.tick(0);
    h.command(HeadCommand::SetNeck {
        pan: ServoAngle(-9_000),
        tilt: ServoAngle(0),
        speed: 0,
    });
    let mut now = 0;
    run(&mut h, &mut now, 1_000_000, 10_000);
    assert_eq!(h.pulses()[ServoId::NeckPan as usize], 2500);
}

#[test]
fn a_pulse_becomes_a_duty_cycle_of_the_20_ms_period() {
    struct Pwm(u16);
    impl PwmErrorType for Pwm {
        type Error = Infallible;
    }
    impl SetDutyCycle for Pwm {
        fn max_duty_cycle(&self) -> u16 {
            40_000
        }
        fn set_duty_cycle(&mut self, duty: u16) -> Result<(), Infallible> {
            self.0 = duty;
            Ok(())
        }
    }
    let mut pwm = Pwm(0);
    set_pulse(&mut pwm, 1_500).expect("infallible");
    assert_eq!(pwm.0, 3_000);
    assert_eq!(SERVO_PERIOD_US, 20_000);
}

/// The example eyes of docs/serial-protocol.md (example 6).
const LEFT: [u8; 8] = [0x3C, 0x42, 0x81, 0x99, 0x99, 0x81, 0x42, 0x3C];
const RIGHT: [u8; 8] = [0x3C, 0x42, 0x81, 0x81, 0x99, 0x99, 0x42, 0x3C];

#[test]
fn max7219_setup_words() {
    let words = max7219::init::<2>(8);
    assert_eq!(
        words,
        [
            [0x0F00; 2], // display test off
            [0x0900; 2], // no BCD decoding
            [0x0B07; 2], // scan all eight rows
            [0x0A08; 2], // intensity 8
            [0x0C01; 2], // out of shutdown
        ]
    );
    assert_eq!(max7219::intensity::<2>(99), [0x0A0F; 2], "clamped to 15");
}

#[test]
fn max7219_frame_words_put_the_far_device_first() {
    // The left eye's driver is first in the chain: its word goes last in each transaction.
    let rows = max7219::frame(&[LEFT, RIGHT]);
    assert_eq!(rows[0], [0x013C, 0x013C]);
    assert_eq!(rows[3], [0x0481, 0x0499]);
    assert_eq!(rows[4], [0x0599, 0x0599]);
    assert_eq!(rows[7], [0x083C, 0x083C]);
}

#[test]
fn mounting_orientations() {
    let arrow = [0x80, 0x40, 0x20, 0x10, 0x08, 0x04, 0x02, 0x01]; // a diagonal
    let corner = [0xF0, 0, 0, 0, 0, 0, 0, 0]; // four LEDs top left
    let o = |transpose, mirror, flip| Orientation {
        transpose,
        mirror,
        flip,
    };
    assert_eq!(o(false, false, false).apply(corner), corner);
    assert_eq!(o(false, true, false).apply(corner)[0], 0x0F);
    assert_eq!(o(false, false, true).apply(corner)[7], 0xF0);
    assert_eq!(
        o(true, false, false).apply(corner),
        [0x80, 0x80, 0x80, 0x80, 0, 0, 0, 0]
    );
    assert_eq!(o(true, false, false).apply(arrow), arrow);
    assert_eq!(
        o(false, true, true).apply(arrow),
        arrow,
        "turned half round"
    );
}

#[derive(Default)]
struct Spi {
    frames: Vec<Vec<u8>>,
}

impl SpiErrorType for Spi {
    type Error = Infallible;
}

impl SpiDevice for Spi {
    fn transaction(&mut self, ops: &mut [Operation<'_, u8>]) -> Result<(), Infallible> {
        let mut frame = Vec::new();
        for op in ops {
            if let Operation::Write(bytes) = op {
                frame.extend_from_slice(bytes);
            }
        }
        self.frames.push(frame);
        Ok(())
    }
}

#[test]
fn eye_updates_shift_out_setup_frames_and_brightness() {
    let mut h = head();
    let mut spi = Spi::default();
    // Power-up: the whole setup and a dark frame, one chip-select frame per transaction.
    let w = h.eye_writes(0).expect("an update");
    assert_eq!(w.len(), 13);
    max7219::write(&mut spi, &w).expect("infallible");
    assert_eq!(spi.frames.len(), 13);
    assert_eq!(spi.frames[0], [0x0F, 0x00, 0x0F, 0x00]);
    assert_eq!(spi.frames[5], [0x01, 0x00, 0x01, 0x00]);
    assert!(h.eye_writes(1_000).is_none(), "nothing changed");

    h.command(HeadCommand::SetEyes {
        left: EyeBitmap(LEFT),
        right: EyeBitmap(RIGHT),
    });
    let w = h.eye_writes(2_000).expect("an update");
    assert_eq!(w.len(), 8, "just the rows");
    assert_eq!(w[3], [0x0481, 0x0499]);

    h.command(HeadCommand::SetBrightness { level: 3 });
    assert_eq!(h.eye_writes(3_000).expect("an update")[..], [[0x0A03; 2]]);

    // A second after power-up everything is written again, in case a glitch reset a driver.
    let w = h.eye_writes(1_000_000).expect("an update");
    assert_eq!(w.len(), 13);
    assert_eq!(w[3], [0x0A03; 2]);
    assert_eq!(w[5 + 3], [0x0481, 0x0499]);
}
