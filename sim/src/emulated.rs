//! The controllers as the robot's Picos run them (`firmware:=emulated`): the Pico binaries,
//! compiled for the RP2040, run instruction by instruction in rp2040js (`pico_emulator`), and
//! their pins are wired to the sim's electronics (`crate::hardware`), the same the native
//! firmware core drives: step pulses turn the joints, the limit switches close where their
//! magnets are, pump and valve drive the cup, servo pulse widths and the MAX7219 words become
//! the head, the 74HC165 chain carries the sensors and the buttons.
//!
//! Each USB CDC port is a pseudo-terminal behind the controller's symlink, made anew each time
//! the board enumerates (after a replug or a watchdog reset), as a real `/dev/ttyACM*` comes
//! and goes; the driver nodes open it as they open hardware.

use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use firmware_core::arm::{ArmConfig, ArmIo};
use firmware_core::device::HeadOutputs;
use firmware_core::field::FieldInputs;
use firmware_core::head::HeadConfig;
use firmware_core::stepper::Direction;
use pico_emulator::wiring::{BUTTONS, ENABLE, LIMITS, PUMP, SERVOS, VENT};
use pico_emulator::{Board, BoardKind, Install, SliceInput, SliceOutput};
use serial_link::port::PtySlave;
use tokio::io::{AsyncReadExt, AsyncWriteExt, WriteHalf};
use tokio::sync::mpsc;

use crate::faults::Controller;
use crate::hardware::{SimArmIo, SimFieldInputs, SimHeadOutputs};
use crate::node::{open_port, ControllerTasks, SimError};
use crate::serve::{inbound, outbound};
use crate::settings::Settings;
use crate::state::{lock, Electronics, Shared};

/// Emulated time per slice: the host's bytes wait at most this long for the board, as they
/// wait for a USB frame.
const SLICE_US: u64 = 1_000;

/// The electronics at power-up, for the Pico firmware's own arm and head (its
/// `ArmConfig::paper_robot`: the switches are where that configuration expects them).
pub fn electronics(settings: &Settings) -> Electronics {
    Electronics {
        arm: SimArmIo::new(&ArmConfig::paper_robot(), settings.arm.rest()),
        field: SimFieldInputs::new(settings.seed ^ 2),
        head: SimHeadOutputs::new(&HeadConfig::paper_robot()),
    }
}

/// Powers both boards up; each runs until its emulator fails.
pub fn start_boards(settings: &Settings, shared: &Shared) -> Result<ControllerTasks, SimError> {
    let install = Install::locate()?;
    let mut tasks = ControllerTasks::new();
    for kind in BoardKind::ALL {
        let (install, shared) = (install.clone(), shared.clone());
        let run_dir = settings.run_dir.clone();
        tasks.spawn(async move {
            let result = run_board(kind, &install, &run_dir, &shared).await;
            (kind.name(), result)
        });
    }
    Ok(tasks)
}

/// The controllers on a board's USB ports, in interface order.
fn controllers(kind: BoardKind) -> &'static [Controller] {
    match kind {
        BoardKind::Control => &[Controller::Arm, Controller::Head],
        BoardKind::Field => &[Controller::Field],
    }
}

/// One port's pseudo-terminal while the board is enumerated.
struct OpenPort {
    writer: WriteHalf<serial_link::port::Port>,
    _slave: PtySlave,
    link: PathBuf,
    reader: tokio::task::JoinHandle<()>,
}

impl Drop for OpenPort {
    fn drop(&mut self) {
        self.reader.abort();
        let _ = std::fs::remove_file(&self.link);
    }
}

async fn run_board(
    kind: BoardKind,
    install: &Install,
    run_dir: &Path,
    shared: &Shared,
) -> io::Result<()> {
    let mut board = Board::start(kind, install)
        .await
        .map_err(io::Error::other)?;
    let names = controllers(kind);
    let (to_board, mut from_host) = mpsc::unbounded_channel::<(usize, u64, Vec<u8>)>();
    let mut ports: Vec<OpenPort> = Vec::new();
    let (mut generation, mut attached) = (0, false);
    let started = Instant::now();
    let mut input = SliceInput::default();
    pins_from_world(kind, shared, &mut input, true);
    // When an unplugged board is plugged back, emulated microseconds.
    let mut replug_at: Option<u64> = None;
    loop {
        inject(kind, shared, &mut input, board.now_us(), &mut replug_at);
        while let Ok((port, gen, bytes)) = from_host.try_recv() {
            let Some(&which) = names.get(port) else {
                continue;
            };
            if gen != generation || lock(shared).faults.is_silent(which) {
                continue;
            }
            let bytes = inbound(shared, &bytes);
            if !bytes.is_empty() {
                input.tx.push((port, bytes));
            }
        }
        input.run_us = SLICE_US;
        let out = board.slice(&input).await.map_err(io::Error::other)?;
        input = SliceInput::default();
        world_from_pins(kind, shared, &out);
        pins_from_world(kind, shared, &mut input, out.latches > 0);
        for reason in &out.reasons {
            tracing::warn!(board = kind.name(), reason, "the board restarted");
        }

        if out.gen != generation || out.attached != attached {
            ports.clear();
            generation = out.gen;
            attached = out.attached;
            if attached {
                for (i, &which) in names.iter().enumerate() {
                    ports.push(open(run_dir, which, i, generation, &to_board)?);
                }
            }
        }
        for (port, bytes) in &out.rx {
            let (Some(p), Some(&which)) = (ports.get_mut(*port), names.get(*port)) else {
                continue;
            };
            if lock(shared).faults.is_silent(which) {
                continue;
            }
            let bytes = outbound(shared, bytes);
            if !bytes.is_empty() {
                p.writer.write_all(&bytes).await?;
            }
        }
        // Never ahead of real time (the emulator is usually behind it).
        let ahead = Duration::from_micros(out.t_us).saturating_sub(started.elapsed());
        if !ahead.is_zero() {
            tokio::time::sleep(ahead).await;
        }
    }
}

/// The board faults of `/sim/set_fault`, each taken once: the cable pulled (and plugged back
/// when its time is up), the core hung, a flood of malformed frames.
fn inject(
    kind: BoardKind,
    shared: &Shared,
    input: &mut SliceInput,
    now_us: u64,
    replug_at: &mut Option<u64>,
) {
    if replug_at.is_some_and(|t| now_us >= t) {
        *replug_at = None;
        input.power = Some(true);
        tracing::info!(board = kind.name(), "the board's USB cable is plugged back");
    }
    let mut sim = lock(shared);
    let seed = sim.rng.next_u64();
    let faults = &mut sim.faults;
    let (unplug, hang, flood) = match kind {
        BoardKind::Control => (
            &mut faults.control_unplug,
            &mut faults.control_hang,
            &mut faults.control_flood,
        ),
        BoardKind::Field => (
            &mut faults.field_unplug,
            &mut faults.field_hang,
            &mut faults.field_flood,
        ),
    };
    if *unplug > 0.0 {
        tracing::info!(
            board = kind.name(),
            seconds = *unplug,
            "injected fault: the board's USB cable is pulled"
        );
        *replug_at = Some(now_us + (*unplug * 1e6) as u64);
        input.power = Some(false);
        *unplug = 0.0;
    }
    if *hang > 0.0 {
        tracing::info!(
            board = kind.name(),
            seconds = *hang,
            "injected fault: the board's core hangs"
        );
        input.hang_us = Some((*hang * 1e6) as u64);
        *hang = 0.0;
    }
    if *flood > 0 {
        let n = usize::try_from(*flood).unwrap_or(0);
        tracing::info!(
            board = kind.name(),
            bytes = n,
            "injected fault: a flood of malformed frames"
        );
        input.tx.push((0, malformed_frames(n, seed)));
        *flood = 0;
    }
}

/// `n` bytes of frames that are not the protocol's: random bytes between delimiters.
fn malformed_frames(n: usize, seed: u64) -> Vec<u8> {
    let mut rng = crate::rng::Rng::new(seed);
    (0..n)
        .map(|i| {
            if i % 37 == 0 {
                serial_link::frame::DELIMITER
            } else {
                (rng.next_u64() & 0xFF) as u8
            }
        })
        .collect()
}

/// A new pseudo-terminal for port `index`, its bytes forwarded tagged with the generation.
fn open(
    run_dir: &Path,
    which: Controller,
    index: usize,
    generation: u64,
    to_board: &mpsc::UnboundedSender<(usize, u64, Vec<u8>)>,
) -> io::Result<OpenPort> {
    let (pty, link) = open_port(run_dir, which).map_err(io::Error::other)?;
    let (mut reader, writer) = tokio::io::split(pty.master);
    let to_board = to_board.clone();
    let reader = tokio::spawn(async move {
        let mut buf = [0u8; 512];
        while let Ok(n) = reader.read(&mut buf).await {
            if n == 0
                || to_board
                    .send((index, generation, buf[..n].to_vec()))
                    .is_err()
            {
                break;
            }
        }
    });
    Ok(OpenPort {
        writer,
        _slave: pty.slave,
        link,
        reader,
    })
}

/// The control board's step pulses turn the joints: each with its DIR level, and only while
/// ENABLE is low (high, or not yet driven, leaves the motors unpowered).
pub fn turn_joints(arm: &mut SimArmIo, out: &SliceOutput) {
    if out.out.get(&ENABLE) != Some(&false) {
        return;
    }
    for (joint, &[forward, reverse]) in out.steps.iter().enumerate() {
        for _ in 0..forward {
            arm.step(joint, Direction::Forward);
        }
        for _ in 0..reverse {
            arm.step(joint, Direction::Reverse);
        }
    }
}

/// The limit switches' levels for the next slice: low where a switch is closed.
pub fn switch_levels(arm: &mut SimArmIo, next: &mut SliceInput) {
    for (joint, &pin) in LIMITS.iter().enumerate() {
        next.set.insert(pin, !arm.limit_closed(joint));
    }
}

/// What the firmware did at its pins, applied to the world.
fn world_from_pins(kind: BoardKind, shared: &Shared, out: &SliceOutput) {
    if kind != BoardKind::Control {
        return;
    }
    let mut sim = lock(shared);
    let arm = sim.arm_io_mut();
    turn_joints(arm, out);
    if let Some(&on) = out.out.get(&PUMP) {
        arm.set_pump(on);
    }
    if let Some(&open) = out.out.get(&VENT) {
        arm.set_vent(open);
    }
    let pulses = SERVOS.map(|pin| {
        out.pulses
            .get(&pin)
            .map_or(0, |&us| u16::try_from(us).unwrap_or(u16::MAX))
    });
    let head = sim.head_outputs_mut();
    if pulses.iter().any(|&us| us > 0) {
        head.servo_pulses(pulses);
    }
    for frame in &out.spi {
        if let [a0, a1, b0, b1] = frame[..] {
            head.eye_write([u16::from_be_bytes([a0, a1]), u16::from_be_bytes([b0, b1])]);
        }
    }
    // The cup acts on the pose the steps reached.
    sim.step();
}

/// The input pins' levels as the world sets them: the limit switches (low closed), and, when
/// the field has begun a scan, the sensors (low under a magnet) and buttons (low pressed).
fn pins_from_world(kind: BoardKind, shared: &Shared, input: &mut SliceInput, scanned: bool) {
    let mut sim = lock(shared);
    match kind {
        BoardKind::Control => switch_levels(sim.arm_io_mut(), input),
        BoardKind::Field if scanned => {
            let sensors = sim.sensors();
            let bit_flip = sim.faults.sensor_bit_flip;
            let field = sim.field_inputs_mut();
            field.sensors = sensors;
            field.bit_flip = bit_flip;
            field.latch();
            let raw = field.read();
            input.shift = Some(!raw.sensors);
            for (i, &pin) in BUTTONS.iter().enumerate() {
                input.set.insert(pin, raw.buttons & (1 << i) == 0);
            }
        }
        BoardKind::Field => {}
    }
}
