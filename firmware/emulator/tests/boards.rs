//! Both Pico binaries, compiled for the RP2040, run in the emulator against the host's end of
//! the serial protocol (the very `Link` the driver nodes use), timed in emulated time: the
//! handshake on every USB port, the field's scans and buttons, the head's servos and eyes, a
//! flood of malformed frames, a hung core reset by the watchdog, an unplugged cable, and each
//! binary's flash, RAM and stack against its budget.
//!
//! Skipped (with a line saying so) where the firmware has not been built, unless
//! `CHECKERS_REQUIRE_PICO` is set, as CI sets it.

use std::path::Path;

use pico_emulator::bench::{self, Endpoint, HostPort};
use pico_emulator::{Board, BoardKind, Budgets, Install, SliceInput, SliceOutput, Usage};
use serial_link::field::Button;
use serial_link::head::EyeBitmap;
use serial_link::{
    ControllerKind, FieldCommand, FieldReport, FirmwareId, HeadCommand, HeadReport, Micros,
};

/// The emulator's slice: the host side runs between slices, as a USB host polls each frame.
const SLICE_US: u64 = 500;

fn install() -> Option<Install> {
    bench::install_or_skip()
}

type Host<Tx, Rx> = HostPort<Tx, Rx>;

/// Runs the board for `us` with the hosts talking to it; `input` goes with the first slice.
async fn run(
    board: &mut Board,
    hosts: &mut [&mut dyn Endpoint],
    us: u64,
    input: SliceInput,
) -> Vec<SliceOutput> {
    bench::run(board, hosts, SLICE_US, us, input, |_, _| {})
        .await
        .expect("the emulator runs")
}

fn budgets() -> Budgets {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../pico/budgets.yaml");
    Budgets::read(&path).expect("budgets.yaml")
}

fn check_budget(board: &Board, stack: u64) {
    let image = board.image();
    let usage = Usage {
        flash: image.flash_bytes,
        static_ram: image.static_ram_bytes,
        stack,
    };
    eprintln!(
        "{}: flash {} bytes, static RAM {} bytes, stack high-water mark {} bytes",
        board.kind().name(),
        usage.flash,
        usage.static_ram,
        usage.stack
    );
    let over = budgets().exceeded(board.kind().name(), usage);
    assert!(over.is_empty(), "over budget: {over:?}");
}

#[tokio::test]
async fn the_field_board_scans_its_sensors_and_counts_a_press() {
    let Some(install) = install() else { return };
    let mut board = Board::start(BoardKind::Field, &install)
        .await
        .expect("start");
    let mut field: Host<FieldCommand, FieldReport> = Host::new(0, ControllerKind::Field);
    // Pieces over sensors 0, 5 and 31: their Hall outputs pull the inputs low.
    let presence: u32 = 1 | 1 << 5 | 1 << 31;
    let outs = run(
        &mut board,
        &mut [&mut field],
        400_000,
        SliceInput {
            shift: Some(!presence),
            ..SliceInput::default()
        },
    )
    .await;
    assert!(
        outs.iter().any(|o| o.attached),
        "the board never enumerated"
    );
    assert!(field.link.is_connected(), "no session on the field port");
    assert_eq!(
        field.link.peer().map(|p| p.firmware),
        Some(FirmwareId::new("pico-field 0.1.0"))
    );
    assert!(outs.iter().map(|o| o.latches).sum::<u32>() > 10, "no scans");

    field
        .link
        .send(
            FieldCommand::SnapshotRequest,
            Micros(outs[outs.len() - 1].t_us),
        )
        .expect("send");
    run(&mut board, &mut [&mut field], 50_000, SliceInput::default()).await;
    let snapshot = field.last(|r| match r {
        FieldReport::Snapshot(s) => Some(*s),
        _ => None,
    });
    assert_eq!(snapshot.map(|s| s.presence), Some(presence));

    // A finger on confirm (to ground) for 60 ms.
    let mut down = SliceInput::default();
    down.set.insert(pico_emulator::wiring::BUTTONS[0], false);
    run(&mut board, &mut [&mut field], 60_000, down).await;
    let mut up = SliceInput::default();
    up.set.insert(pico_emulator::wiring::BUTTONS[0], true);
    up.stack = true;
    let outs = run(&mut board, &mut [&mut field], 60_000, up).await;
    assert!(
        field.received.iter().any(|(_, r)| matches!(
            r,
            FieldReport::ButtonPressed {
                button: Button::Confirm,
                presses: 1
            }
        )),
        "{:?}",
        field.received
    );
    check_budget(&board, outs[0].stack_used.unwrap_or(u64::MAX));
}

#[tokio::test]
async fn the_control_board_serves_arm_and_head_and_drives_servos_and_eyes() {
    let Some(install) = install() else { return };
    let mut board = Board::start(BoardKind::Control, &install)
        .await
        .expect("start");
    let mut arm: Host<serial_link::ArmCommand, serial_link::ArmReport> =
        Host::new(0, ControllerKind::Arm);
    let mut head: Host<HeadCommand, HeadReport> = Host::new(1, ControllerKind::Head);
    run(
        &mut board,
        &mut [&mut arm, &mut head],
        400_000,
        SliceInput::default(),
    )
    .await;
    assert_eq!(
        arm.link.peer().map(|p| p.firmware),
        Some(FirmwareId::new("pico-arm 0.1.0"))
    );
    assert_eq!(
        head.link.peer().map(|p| p.firmware),
        Some(FirmwareId::new("pico-head 0.1.0"))
    );

    let eye = EyeBitmap([0x3c, 0x42, 0x81, 0x81, 0x81, 0x81, 0x42, 0x3c]);
    let t = Micros(board.now_us());
    head.link
        .send(
            HeadCommand::SetEyes {
                left: eye,
                right: eye,
            },
            t,
        )
        .expect("send");
    let outs = run(
        &mut board,
        &mut [&mut arm, &mut head],
        200_000,
        SliceInput {
            stack: false,
            ..SliceInput::default()
        },
    )
    .await;
    // Each SPI frame is one word to each of the two chained MAX7219s: register, value.
    let rows: Vec<(u8, u8)> = outs
        .iter()
        .flat_map(|o| o.spi.iter())
        .filter(|f| f.len() == 4 && (1..=8).contains(&f[0]))
        .map(|f| (f[0], f[1]))
        .collect();
    for (i, &row) in eye.0.iter().enumerate() {
        assert!(
            rows.contains(&(i as u8 + 1, row)),
            "row {} never written: {rows:?}",
            i + 1
        );
    }
    // The servos hold their neutral 1.5 ms at 50 Hz.
    let last = outs.last().expect("slices");
    for pin in pico_emulator::wiring::SERVOS {
        let width = last.pulses.get(&pin).copied().unwrap_or(0);
        assert!((1_000..=2_000).contains(&width), "GP{pin}: {width} us");
    }
    let outs = run(
        &mut board,
        &mut [&mut arm, &mut head],
        SLICE_US,
        SliceInput {
            stack: true,
            ..SliceInput::default()
        },
    )
    .await;
    check_budget(&board, outs[0].stack_used.unwrap_or(u64::MAX));
}

#[tokio::test]
async fn malformed_frames_a_hung_core_and_a_pulled_cable_each_end_in_a_new_session() {
    let Some(install) = install() else { return };
    let mut board = Board::start(BoardKind::Field, &install)
        .await
        .expect("start");
    let mut field: Host<FieldCommand, FieldReport> = Host::new(0, ControllerKind::Field);
    run(
        &mut board,
        &mut [&mut field],
        300_000,
        SliceInput::default(),
    )
    .await;
    assert_eq!(field.connects, 1);

    // 16 KiB of noise, delimiters and all: the session survives it, the chip is not reset.
    let noise: Vec<u8> = (0..16_384u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let outs = run(
        &mut board,
        &mut [&mut field],
        200_000,
        SliceInput {
            tx: vec![(0, noise)],
            ..SliceInput::default()
        },
    )
    .await;
    assert!(outs.iter().all(|o| o.gen == 1), "the noise reset the board");
    let t = Micros(outs[outs.len() - 1].t_us);
    field.received.clear();
    field
        .link
        .send(FieldCommand::SnapshotRequest, t)
        .expect("send");
    run(
        &mut board,
        &mut [&mut field],
        100_000,
        SliceInput::default(),
    )
    .await;
    assert!(
        field
            .received
            .iter()
            .any(|(_, r)| matches!(r, FieldReport::Snapshot(_))),
        "no snapshot after the noise"
    );

    // The core stops for 300 ms: the watchdog resets the chip, it enumerates again, and the
    // host's link, finding its peer silent, starts a new session.
    let outs = run(
        &mut board,
        &mut [&mut field],
        3_000_000,
        SliceInput {
            hang_us: Some(300_000),
            ..SliceInput::default()
        },
    )
    .await;
    assert!(
        outs.iter()
            .any(|o| o.reasons.iter().any(|r| r == "watchdog")),
        "the watchdog never fired"
    );
    assert_eq!(outs.last().map(|o| o.gen), Some(2));
    assert!(field.link.is_connected() && field.connects == 2);

    // Unplugged for a second and plugged back: the board boots again and a session follows.
    run(
        &mut board,
        &mut [&mut field],
        1_000_000,
        SliceInput {
            power: Some(false),
            ..SliceInput::default()
        },
    )
    .await;
    let outs = run(
        &mut board,
        &mut [&mut field],
        2_000_000,
        SliceInput {
            power: Some(true),
            ..SliceInput::default()
        },
    )
    .await;
    assert_eq!(outs.last().map(|o| o.gen), Some(3));
    assert!(field.link.is_connected() && field.connects == 3);
}
