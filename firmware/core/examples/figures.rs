//! Figures of the firmware core, for docs/firmware.md: the static RAM of each controller, step
//! timing when a main loop polls the arm, and the work of one loop turn.
//!
//! ```sh
//! cargo run --release -p firmware_core --example figures            # all figures
//! # Instructions per loop turn, counted by callgrind: the difference of two runs.
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/figures --polls 0 --busy
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/figures --polls 100000 --busy       # and without --busy
//! ```

use std::time::Instant;

use firmware_core::arm::{Arm, ArmCommand, ArmConfig, ArmIo, ArmState, MoveJoints};
use firmware_core::device::{Device, FieldUnit, HeadOutputs, HeadUnit};
use firmware_core::field::{FieldInputs, RawInputs};
use firmware_core::head::max7219::Transaction;
use firmware_core::head::SERVOS;
use firmware_core::stepper::Direction;
use serial_link::{CentiDeg, FirmwareId, Link, Micros, Transmit, TRANSMIT_LEN};

/// The arm's pins: joints that turn a step per pulse, switches where the configuration says,
/// and a record of when each joint stepped.
#[derive(Default)]
struct Recorder {
    now: u64,
    position: [i32; 3],
    switch_at: [i32; 3],
    steps: [Vec<u64>; 3],
    record: bool,
}

impl ArmIo for Recorder {
    fn step(&mut self, joint: usize, dir: Direction) {
        self.position[joint] += dir.sign();
        if self.record {
            self.steps[joint].push(self.now);
        }
    }
    fn limit_closed(&mut self, joint: usize) -> bool {
        self.position[joint] <= self.switch_at[joint]
    }
    fn set_pump(&mut self, _on: bool) {}
    fn set_vent(&mut self, _open: bool) {}
}

struct Null;

impl FieldInputs for Null {
    fn latch(&mut self) {}
    fn read(&mut self) -> RawInputs {
        RawInputs::default()
    }
}

impl HeadOutputs for Null {
    fn servo_pulses(&mut self, _us: [u16; SERVOS]) {}
    fn eye_write(&mut self, _words: Transaction<2>) {}
}

/// An arm homed against its switches, at rest in its home pose, its record empty; and the
/// time homing ended.
fn homed_arm() -> (Arm<Recorder>, u64) {
    let cfg = ArmConfig::paper_robot();
    let io = Recorder {
        switch_at: std::array::from_fn(|j| cfg.joints[j].steps(cfg.joints[j].homing.switch_at)),
        ..Recorder::default()
    };
    let mut arm = Arm::new(cfg, io);
    arm.command(ArmCommand::Home, 0);
    let mut now = 0;
    while !arm.homed() || arm.next_step_at().is_some() {
        now = arm.next_step_at().unwrap_or(now + 1_000);
        arm.tick(now);
        assert!(now < 120_000_000, "homing did not finish");
    }
    arm.io_mut().record = true;
    (arm, now)
}

/// The long move: every joint from home to near its far limit at full speed (or back).
fn long_move() -> ArmCommand {
    move_to([8_000, 8_000, 7_000])
}

fn move_to(target: [i32; 3]) -> ArmCommand {
    ArmCommand::MoveJoints(MoveJoints {
        move_id: 1,
        target: target.map(CentiDeg),
        speed: 0,
    })
}

fn ram() {
    type ArmDevice = Device<Arm<Recorder>>;
    let arm = std::mem::size_of::<ArmDevice>() - std::mem::size_of::<Recorder>();
    let field = std::mem::size_of::<Device<FieldUnit<Null>>>();
    let head = std::mem::size_of::<Device<HeadUnit<Null>>>();
    let link = std::mem::size_of::<Link<serial_link::ArmReport, serial_link::ArmCommand, Micros>>();
    // The board crate keeps one transmit buffer per USB port for what the port has not taken.
    let pending = TRANSMIT_LEN;
    println!("static RAM, bytes (x86-64 layout; the RP2040's 32-bit one is no larger):");
    println!("  arm controller   {arm:>6} (of which its link {link})");
    println!("  head controller  {head:>6}");
    println!("  field controller {field:>6}");
    println!("  per USB port     {pending:>6} (bytes the port has not taken yet)");
    println!(
        "  transmit buffer  {:>6} (returned by value each loop turn)",
        std::mem::size_of::<Transmit>()
    );
    println!(
        "  control board    {:>6} (arm + head + two ports), field board {:>6}, of 264 KB",
        arm + head + 2 * pending,
        field + pending
    );
}

/// Runs the long move with the loop coming round every `period` µs; the lateness of each step
/// against the plan (what an exact timer interrupt would give).
fn timing(period: u64) -> (usize, f64, u64, f64) {
    // The plan: the same move ticked at every step's own time.
    let (mut exact, t0) = homed_arm();
    exact.command(long_move(), t0);
    while let Some(t) = exact.next_step_at() {
        exact.io_mut().now = t;
        exact.tick(t);
    }
    let (mut polled, _) = homed_arm();
    polled.command(long_move(), t0);
    let mut now = t0;
    while polled.next_step_at().is_some() {
        now += period;
        // One loop turn: every step due by now, each at the loop's time.
        while let Some(t) = polled.next_step_at().filter(|&t| t <= now) {
            let _ = t;
            polled.io_mut().now = now;
            polled.tick(now);
        }
    }
    let (mut n, mut sum, mut worst) = (0usize, 0u64, 0u64);
    for j in 0..3 {
        for (a, b) in polled.io().steps[j].iter().zip(&exact.io().steps[j]) {
            let late = a - b;
            n += 1;
            sum += late;
            worst = worst.max(late);
        }
    }
    let top_rate = (0..3)
        .map(|j| {
            exact.io().steps[j]
                .windows(2)
                .map(|w| 1e6 / (w[1] - w[0]).max(1) as f64)
                .fold(0.0, f64::max)
        })
        .fold(0.0, f64::max);
    (n, sum as f64 / n.max(1) as f64, worst, top_rate)
}

/// `polls` turns of the arm controller's loop, 10 µs apart; if `busy`, the arm makes the long
/// move there and back all the while.
fn polls(polls: u64, busy: bool) -> f64 {
    let (arm, t0) = homed_arm();
    let mut dev = Device::new(arm, FirmwareId::new("figures"), 1, t0);
    let mut out = true;
    let start = Instant::now();
    for i in 0..polls {
        let now = t0 + i * 10;
        if busy && dev.logic().state() == ArmState::Idle {
            let target = if out {
                [8_000, 8_000, 7_000]
            } else {
                [0, 0, 0]
            };
            dev.command(move_to(target), now);
            out = !out;
        }
        dev.poll(now);
        std::hint::black_box(dev.take_transmit());
    }
    start.elapsed().as_nanos() as f64 / polls.max(1) as f64
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--polls") {
        let n = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(0);
        polls(n, args.iter().any(|a| a == "--busy"));
        return;
    }
    ram();
    println!();
    println!("step timing of the long move (J1 80°, J2 80°, J3 70°, full speed), polled loop:");
    for period in [5, 10, 20, 50, 100] {
        let (n, mean, worst, top) = timing(period);
        println!(
            "  loop every {period:>3} us: {n} steps, late by {mean:>5.1} us on average, {worst:>3} us at worst; top rate {top:.0} steps/s"
        );
    }
    println!();
    println!(
        "one loop turn on this host: {:.0} ns idle, {:.0} ns during the long move",
        polls(1_000_000, false),
        polls(1_000_000, true)
    );
}
