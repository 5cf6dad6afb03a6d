//! The compiled arm firmware, emulated, against the sim's joints and switches with a fault: a
//! switch stuck closed and a switch that never closes each end homing in an alarm (never in a
//! crash, a hang or a homed arm that is not), and steps lost at a motor show at the next
//! homing, where the switch is met off where the count expects it.
//!
//! Skipped where the Pico firmware is not built, unless `CHECKERS_REQUIRE_PICO` is set.

use firmware_core::arm::ArmConfig;
use pico_emulator::bench::{self, Endpoint, HostPort};
use pico_emulator::{Board, BoardKind, Install, SliceInput, SliceOutput};
use serial_link::arm::{AlarmCode, ArmState};
use serial_link::{ArmCommand, ArmReport, ControllerKind, Micros};
use sim::emulated::{switch_levels, turn_joints};
use sim::hardware::SimArmIo;

fn install() -> Option<Install> {
    bench::install_or_skip()
}

/// The arm's joints and switches at the control board's pins.
fn wire(io: &mut SimArmIo, out: &SliceOutput, next: &mut SliceInput) {
    turn_joints(io, out);
    switch_levels(io, next);
}

/// Homes with the switch faults given (joints 1..3, 0 none), and, after `lose` steps of J3
/// are lost at its motor, homes again; what the arm reported last: an alarm, or the homed
/// status.
async fn home(install: &Install, stuck_closed: i64, never_closes: i64, lose: u32) -> ArmReport {
    let io = std::cell::RefCell::new(SimArmIo::new(&ArmConfig::paper_robot(), [0.0; 3]));
    io.borrow_mut()
        .set_switch_faults(stuck_closed, never_closes);
    let homings = if lose > 0 { 2 } else { 1 };
    let mut board = Board::start(BoardKind::Control, install)
        .await
        .expect("start");
    let mut arm: HostPort<ArmCommand, ArmReport> = HostPort::new(0, ControllerKind::Arm);
    let run = async |board: &mut Board, arm: &mut HostPort<_, _>, us| {
        bench::run(
            board,
            &mut [arm as &mut dyn Endpoint],
            1_000,
            us,
            SliceInput::default(),
            |o, n| wire(&mut io.borrow_mut(), o, n),
        )
        .await
        .expect("the emulator runs")
    };
    run(&mut board, &mut arm, 300_000).await;
    for homing in 0..homings {
        if homing > 0 {
            // J3's motor misses the next pulses, as a stalled motor does.
            io.borrow_mut().lose_steps(2, lose);
            arm.received.clear();
        }
        arm.link
            .send(ArmCommand::Home, Micros(board.now_us()))
            .expect("a session");
        let mut last = None;
        for _ in 0..60 {
            run(&mut board, &mut arm, 1_000_000).await;
            last = arm.last(|r| match r {
                ArmReport::Alarm(_) => Some(*r),
                ArmReport::Status(s) if s.homed && s.state == ArmState::Idle => Some(*r),
                _ => None,
            });
            if last.is_some() {
                break;
            }
        }
        match last {
            Some(r) if homing + 1 == homings => return r,
            Some(ArmReport::Status(_)) => {}
            Some(r) => return r,
            None => panic!("homing neither finished nor raised an alarm in 60 s emulated"),
        }
    }
    unreachable!("the last homing returns")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stuck_or_dead_switch_ends_homing_in_an_alarm() {
    let Some(install) = install() else { return };
    // J3 homes first: its faults show soonest.
    let stuck = home(&install, 3, 0, 0).await;
    assert!(
        matches!(stuck, ArmReport::Alarm(a) if a.code == AlarmCode::Limit && a.joint == 2),
        "{stuck:?}"
    );
    let dead = home(&install, 0, 3, 0).await;
    assert!(
        matches!(dead, ArmReport::Alarm(a) if a.code == AlarmCode::Stall && a.joint == 2),
        "{dead:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn steps_lost_at_a_motor_show_at_the_next_homing() {
    let Some(install) = install() else { return };
    // 1,000 microsteps of J3 (11.25 degrees) lost: far beyond the 1 degree the firmware allows.
    let lost = home(&install, 0, 0, 1_000).await;
    assert!(
        matches!(lost, ArmReport::Alarm(a) if a.code == AlarmCode::Stall && a.joint == 2),
        "{lost:?}"
    );
}
