//! Figures of the Pico firmware measured on the emulated RP2040 at 125 MHz, for
//! docs/firmware.md: the main loop's period and its worst case, the step pulses' timing at the
//! arm's top rate, the USB round trip of a status request, flash, RAM and the stack.
//!
//! ```sh
//! firmware/pico/build.sh && cargo run --release -p sim --example pico_figures
//! ```
//!
//! The boards run against the host's own `Link` in emulated time, the arm over the sim's
//! simulated joints and switches (so homing and moves are real).

use firmware_core::arm::ArmConfig;
use pico_emulator::bench::{self, Endpoint, HostPort};
use pico_emulator::{Board, BoardKind, Install, SliceInput, SliceOutput};
use serial_link::arm::{ArmState, ArmStatus, MoveJoints};
use serial_link::{
    ArmCommand, ArmReport, CentiDeg, ControllerKind, FieldCommand, FieldReport, HeadCommand,
    HeadReport, Message, Micros,
};
use sim::emulated::{switch_levels, turn_joints};
use sim::hardware::SimArmIo;

const NS_PER_CYCLE: f64 = 8.0;

type AnyResult<T> = Result<T, Box<dyn std::error::Error>>;

fn main() -> AnyResult<()> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let install = Install::locate()?;
        control(&install).await?;
        field(&install).await
    })
}

/// The arm's switches and joints at the control board's pins.
/// The arm's joints and switches at the control board's pins.
fn wire(io: &mut SimArmIo, out: &SliceOutput, next: &mut SliceInput) {
    turn_joints(io, out);
    switch_levels(io, next);
}

fn status(arm: &HostPort<ArmCommand, ArmReport>) -> Option<ArmStatus> {
    arm.last(|r| match r {
        ArmReport::Status(s) => Some(*s),
        _ => None,
    })
}

/// Periods between successive watchdog feeds (one per main-loop turn), nanoseconds.
fn loop_periods(outs: &[SliceOutput]) -> Vec<u64> {
    let feeds: Vec<u64> = outs.iter().flat_map(|o| o.feeds.iter().copied()).collect();
    feeds.windows(2).map(|w| w[1] - w[0]).collect()
}

fn describe_loop(what: &str, periods: &[u64]) {
    let mut p = periods.to_vec();
    p.sort_unstable();
    if p.is_empty() {
        println!("{what}: no loop turns seen");
        return;
    }
    let mean = p.iter().sum::<u64>() as f64 / p.len() as f64;
    let worst = p[p.len() - 1];
    println!(
        "{what}: main loop mean {:.1} us ({:.0} cycles), median {:.1} us, worst {:.1} us ({:.0} cycles), {} turns",
        mean / 1e3,
        mean / NS_PER_CYCLE,
        p[p.len() / 2] as f64 / 1e3,
        worst as f64 / 1e3,
        worst as f64 / NS_PER_CYCLE,
        p.len()
    );
}

async fn control(install: &Install) -> AnyResult<()> {
    let cfg = ArmConfig::paper_robot();
    let mut io = SimArmIo::new(&cfg, [0.0; 3]);
    let mut board = Board::start_traced(BoardKind::Control, install, true).await?;
    let mut arm: HostPort<ArmCommand, ArmReport> = HostPort::new(0, ControllerKind::Arm);
    let mut head: HostPort<HeadCommand, HeadReport> = HostPort::new(1, ControllerKind::Head);
    let slice = 500;
    macro_rules! run {
        ($us:expr) => {
            bench::run(
                &mut board,
                &mut [&mut arm as &mut dyn Endpoint, &mut head],
                slice,
                $us,
                SliceInput::default(),
                |o, n| wire(&mut io, o, n),
            )
            .await?
        };
    }
    run!(300_000);
    let idle = run!(1_000_000);
    describe_loop("control, idle sessions", &loop_periods(&idle));

    arm.link.send(ArmCommand::Home, Micros(board.now_us()))?;
    for _ in 0..120 {
        run!(500_000);
        if status(&arm).is_some_and(|s| s.homed && s.state == ArmState::Idle) {
            break;
        }
    }
    let homed_at = board.now_us();
    println!(
        "control: homed after {:.1} s emulated",
        homed_at as f64 / 1e6
    );

    // J1 across its range at the configured top speed: the cruise is the longest there.
    let target = [CentiDeg(8_000), CentiDeg(0), CentiDeg(0)];
    let top = cfg.joints[0].max_speed;
    arm.link.send(
        ArmCommand::MoveJoints(MoveJoints {
            move_id: 1,
            target,
            speed: top,
        }),
        Micros(board.now_us()),
    )?;
    let mut moving = Vec::new();
    for _ in 0..40 {
        moving.extend(run!(250_000));
        if status(&arm).is_some_and(|s| s.move_id == 1 && s.state == ArmState::Idle) {
            break;
        }
    }
    describe_loop("control, J1 at top speed", &loop_periods(&moving));
    let edges: Vec<u64> = moving
        .iter()
        .flat_map(|o| o.edges.iter())
        .filter(|(j, _)| *j == 0)
        .map(|&(_, t)| t)
        .collect();
    let steps_per_s = f64::from(top) * f64::from(cfg.joints[0].steps_per_turn) / 36_000.0;
    let ideal = 1e9 / steps_per_s;
    let intervals: Vec<f64> = edges.windows(2).map(|w| (w[1] - w[0]) as f64).collect();
    // The cruise: the middle half of the move, well clear of the ramps.
    let cruise = &intervals[intervals.len() / 4..intervals.len() * 3 / 4];
    let mean = cruise.iter().sum::<f64>() / cruise.len().max(1) as f64;
    let mut errors: Vec<f64> = cruise.iter().map(|&i| (i - ideal).abs()).collect();
    errors.sort_by(f64::total_cmp);
    let pct = |q: usize| errors.get(errors.len() * q / 100).copied().unwrap_or(0.0) / 1e3;
    println!(
        "control: J1 {} step pulses, top rate {:.0} steps/s (interval {:.2} us); cruise {} intervals, mean {:.2} us, error from the ideal interval median {:.2} us, p99 {:.2} us, worst {:.2} us",
        edges.len(),
        steps_per_s,
        ideal / 1e3,
        cruise.len(),
        mean / 1e3,
        pct(50),
        pct(99),
        errors.last().copied().unwrap_or(0.0) / 1e3
    );
    // The longest turn comes as the move is planned; during the cruise the loop must keep up.
    let feeds: Vec<u64> = moving
        .iter()
        .flat_map(|o| o.feeds.iter().copied())
        .collect();
    let (from, to) = (edges[edges.len() / 4], edges[edges.len() * 3 / 4]);
    let turn = |w: &[u64]| w[1] - w[0];
    let worst_cruise = feeds
        .windows(2)
        .filter(|w| w[0] >= from && w[1] <= to)
        .map(turn)
        .max()
        .unwrap_or(0);
    let worst_at_start = feeds.windows(2).take(3).map(turn).max().unwrap_or(0);
    println!(
        "control: longest turn as the move is planned {:.1} us; longest in the cruise {:.1} us; headroom (step interval / longest cruise turn) {:.2}",
        worst_at_start as f64 / 1e3,
        worst_cruise as f64 / 1e3,
        ideal / (worst_cruise.max(1) as f64)
    );

    let trips = round_trips(
        &mut board,
        &mut arm,
        &mut [&mut head],
        ArmCommand::StatusRequest,
        |r| matches!(r, ArmReport::Status(_)),
        |o, n| wire(&mut io, o, n),
    )
    .await?;
    describe_trips("control: Status round trip", &trips);
    describe_image(&mut board).await?;
    Ok(())
}

async fn field(install: &Install) -> AnyResult<()> {
    let mut board = Board::start(BoardKind::Field, install).await?;
    let mut field: HostPort<FieldCommand, FieldReport> = HostPort::new(0, ControllerKind::Field);
    let first = SliceInput {
        shift: Some(!0x00FF_F0FF),
        ..SliceInput::default()
    };
    bench::run(
        &mut board,
        &mut [&mut field],
        500,
        300_000,
        first,
        |_, _| {},
    )
    .await?;
    let idle = bench::run(
        &mut board,
        &mut [&mut field],
        500,
        1_000_000,
        SliceInput::default(),
        |_, _| {},
    )
    .await?;
    describe_loop("field, idle session", &loop_periods(&idle));
    let scans: u32 = idle.iter().map(|o| o.latches).sum();
    println!("field: {scans} scans in 1 s emulated");
    let trips = round_trips(
        &mut board,
        &mut field,
        &mut [],
        FieldCommand::SnapshotRequest,
        |r| matches!(r, FieldReport::Snapshot(_)),
        |_, _| {},
    )
    .await?;
    describe_trips("field: Snapshot round trip (a fresh scan included)", &trips);
    describe_image(&mut board).await?;
    Ok(())
}

/// 20 round trips of `request` on `host` to the first reply `is_reply` accepts, emulated
/// microseconds from the host's write to its read, in slices of 50 us; `others` talk meanwhile.
async fn round_trips<Tx: Message + Clone, Rx: Message>(
    board: &mut Board,
    host: &mut HostPort<Tx, Rx>,
    others: &mut [&mut dyn Endpoint],
    request: Tx,
    is_reply: impl Fn(&Rx) -> bool,
    mut wire: impl FnMut(&SliceOutput, &mut SliceInput),
) -> AnyResult<Vec<u64>> {
    let mut trips = Vec::new();
    for _ in 0..20 {
        let sent = board.now_us();
        let before = host.received.len();
        host.link.send(request.clone(), Micros(sent))?;
        for _ in 0..400 {
            talk(board, host, others, 50, &mut wire).await?;
            if let Some((t, _)) = host.received[before..].iter().find(|(_, r)| is_reply(r)) {
                trips.push(t - sent);
                break;
            }
        }
        talk(board, host, others, 20_000, &mut wire).await?;
    }
    Ok(trips)
}

/// One slice of `us` with `host` and `others` talking.
async fn talk<Tx: Message, Rx: Message>(
    board: &mut Board,
    host: &mut HostPort<Tx, Rx>,
    others: &mut [&mut dyn Endpoint],
    us: u64,
    wire: &mut impl FnMut(&SliceOutput, &mut SliceInput),
) -> AnyResult<()> {
    let mut endpoints: Vec<&mut dyn Endpoint> = vec![host];
    endpoints.extend(others.iter_mut().map(|e| &mut **e as &mut dyn Endpoint));
    bench::run(board, &mut endpoints, us, us, SliceInput::default(), wire).await?;
    Ok(())
}

fn describe_trips(what: &str, trips: &[u64]) {
    let mut t = trips.to_vec();
    t.sort_unstable();
    println!(
        "{what} (50 us resolution): median {} us, worst {} us, {} requests",
        t.get(t.len() / 2).copied().unwrap_or(0),
        t.last().copied().unwrap_or(0),
        t.len()
    );
}

/// Flash and static RAM from the ELF, the stack's high-water mark from the emulator.
async fn describe_image(board: &mut Board) -> AnyResult<()> {
    let stack = board
        .slice(&SliceInput {
            run_us: 1,
            stack: true,
            ..SliceInput::default()
        })
        .await?
        .stack_used
        .unwrap_or(0);
    let image = board.image();
    println!(
        "{}: flash {} bytes, static RAM {} bytes, stack high-water mark {} bytes",
        board.kind().name(),
        image.flash_bytes,
        image.static_ram_bytes,
        stack
    );
    Ok(())
}
