//! The physical world under the arm controller's commands: the cup picks a piece only when low
//! enough and over its centre, a released piece lands where the cup is (on a square, in the
//! bin), the sensors see presence only and miss an off-centre piece, a failed pick is injected.

use arm_kinematics::ik::Ik;
use arm_kinematics::joints::Joints;
use draughts::Square;
use nalgebra::Point3;
use serial_link::arm::MoveJoints;
use serial_link::{ArmCommand, CentiDeg};
use sim::settings::Settings;
use sim::state::{lock, Shared, Sim};
use sim::world::Place;

fn sim(overrides: &[(&str, ros::ParamValue)]) -> (Shared, Settings) {
    let mut params = ros::Params::with_overrides(
        overrides
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect::<Vec<_>>(),
    );
    let settings = Settings::from_params(&mut params).expect("settings");
    let shared = sim::node::build(&settings);
    lock(&shared).stop_clock();
    (shared, settings)
}

/// A command to the arm's firmware, as if from the arm node.
fn arm_command(sim: &mut Sim, cmd: ArmCommand) {
    let now = sim.micros();
    sim.native_mut()
        .expect("native firmware")
        .arm
        .command(cmd, now);
}

fn sq(name: &str) -> Square {
    name.parse().expect("a square")
}

/// Moves the arm's cup tip to `target` and waits (simulated time) until it is there.
fn move_to(shared: &Shared, ik: &Ik, target: Point3<f64>, id: u16) {
    let seed = {
        let q = lock(shared).joints();
        Joints::new(q[0], q[1], q[2])
    };
    let q = ik.solve(target, &seed).expect("reachable").joints.array();
    arm_command(
        &mut lock(shared),
        ArmCommand::MoveJoints(MoveJoints {
            move_id: id,
            target: q.map(CentiDeg::from_radians),
            speed: 9000,
        }),
    );
    for _ in 0..1000 {
        let mut sim = lock(shared);
        sim.advance(0.01);
        if sim
            .native()
            .expect("native firmware")
            .arm
            .logic()
            .status()
            .state
            == serial_link::arm::ArmState::Idle
        {
            return;
        }
    }
    panic!("the arm did not arrive");
}

fn pump(shared: &Shared, on: bool) {
    let mut sim = lock(shared);
    arm_command(&mut sim, ArmCommand::SetPump { on });
    sim.advance(0.01);
}

fn home(shared: &Shared) {
    arm_command(&mut lock(shared), ArmCommand::Home);
    for _ in 0..1000 {
        lock(shared).advance(0.01);
    }
    assert!(
        lock(shared)
            .native()
            .expect("native firmware")
            .arm
            .logic()
            .status()
            .homed
    );
}

fn held(shared: &Shared) -> Option<u32> {
    lock(shared).world.held()
}

#[test]
fn the_cup_moves_a_piece_only_from_close_enough_and_drops_it_where_it_is() {
    let (shared, settings) = sim(&[("time_scale", ros::ParamValue::Double(10.0))]);
    let ik = Ik::new(&settings.arm);
    let board = settings.board.clone();
    let h = board.pieces.height_m;
    home(&shared);
    let start_presence = lock(&shared).world.presence(0.004);
    // c3 holds a white man; d4 is empty in the start position.
    let (c3, d4) = (sq("c3"), sq("d4"));
    let top = board.square_center(c3) + nalgebra::Vector3::new(0.0, 0.0, h);

    // Pump on 5 mm above the piece: nothing.
    move_to(
        &shared,
        &ik,
        top + nalgebra::Vector3::new(0.0, 0.0, 0.005),
        1,
    );
    pump(&shared, true);
    assert_eq!(held(&shared), None, "too high to seal");
    pump(&shared, false);
    // On the piece's top but 5 mm off its centre: nothing.
    move_to(
        &shared,
        &ik,
        top + nalgebra::Vector3::new(0.005, 0.0, 0.0),
        2,
    );
    pump(&shared, true);
    assert_eq!(held(&shared), None, "too far off centre");
    pump(&shared, false);
    // On its centre: picked, and the sensor under c3 goes dark.
    move_to(&shared, &ik, top, 3);
    pump(&shared, true);
    let piece = held(&shared).expect("picked");
    move_to(
        &shared,
        &ik,
        top + nalgebra::Vector3::new(0.0, 0.0, 0.03),
        4,
    );
    let presence = lock(&shared).world.presence(0.004);
    assert_eq!(presence, start_presence & !(1 << (c3.number() - 1)));

    // Released over d4: it lands there and the sensor sees it.
    let over_d4 = board.square_center(d4) + nalgebra::Vector3::new(0.0, 0.0, h + 0.0005);
    move_to(&shared, &ik, over_d4, 5);
    pump(&shared, false);
    assert_eq!(held(&shared), None);
    let presence = lock(&shared).world.presence(0.004);
    assert_eq!(
        presence,
        (start_presence & !(1 << (c3.number() - 1))) | 1 << (d4.number() - 1)
    );
    let position = lock(&shared)
        .world
        .position(draughts::Color::White)
        .expect("readable");
    let p = position.piece_at(d4).expect("the piece on d4");
    assert_eq!(p.color, draughts::Color::White, "colour is physical");

    // Picked again and dropped over the bin: in the bin.
    move_to(
        &shared,
        &ik,
        board.square_center(d4) + nalgebra::Vector3::new(0.0, 0.0, h),
        6,
    );
    pump(&shared, true);
    assert_eq!(held(&shared), Some(piece));
    move_to(&shared, &ik, board.bin_drop_point(), 7);
    pump(&shared, false);
    assert_eq!(
        lock(&shared).world.pieces()[piece as usize].place,
        Place::Bin
    );
    assert_eq!(lock(&shared).world.in_bin(), 1);
}

#[test]
fn an_injected_failed_pick_fails_once_and_only_on_a_real_attempt() {
    let (shared, settings) = sim(&[
        ("time_scale", ros::ParamValue::Double(10.0)),
        ("faults.failed_picks", ros::ParamValue::Integer(1)),
    ]);
    let ik = Ik::new(&settings.arm);
    let h = settings.board.pieces.height_m;
    home(&shared);
    let top = settings.board.square_center(sq("a3")) + nalgebra::Vector3::new(0.0, 0.0, h);
    // Pump on while travelling high: no attempt, nothing spent.
    pump(&shared, true);
    move_to(
        &shared,
        &ik,
        top + nalgebra::Vector3::new(0.0, 0.0, 0.03),
        1,
    );
    assert_eq!(lock(&shared).faults.failed_picks, 1);
    move_to(&shared, &ik, top, 2);
    assert_eq!(held(&shared), None, "the injected failure");
    assert_eq!(lock(&shared).faults.failed_picks, 0);
    pump(&shared, false);
    pump(&shared, true);
    assert!(held(&shared).is_some(), "the next pick works");
}

#[test]
fn sensors_see_presence_within_tolerance_only_and_the_human_moves_pieces() {
    let (shared, _) = sim(&[(
        "start_fen",
        ros::ParamValue::String("W:W21,22:B9,10".into()),
    )]);
    let world = &mut lock(&shared).world;
    let all = world.presence(0.004);
    assert_eq!(all, (1 << 20) | (1 << 21) | (1 << 8) | (1 << 9));
    // A man of square 21 put down 7 mm off square 17's centre: a person sees it on 17, the
    // sensor sees nothing there.
    let (s21, s17) = (
        Square::from_number(21).expect("square"),
        Square::from_number(17).expect("square"),
    );
    let id = world.lift(s21).expect("a piece on 21");
    world.put(id, s17, 0.007, false);
    assert_eq!(world.presence(0.004) & (1 << 16), 0, "off-centre: unseen");
    assert_eq!(
        world.presence(0.010) & (1 << 16),
        1 << 16,
        "a wider tolerance sees it"
    );
    let position = world.position(draughts::Color::White).expect("readable");
    assert!(position.piece_at(s17).is_some());
}

/// At a high time scale the arm node's dwell after switching the pump on (0.3 s / time scale)
/// is shorter than the physics tick (10 ms), so the pump command and the rise that follows it
/// reach the controller between two ticks. The cup sat on the piece all along, so it must
/// seal: the pump acts on the pose the arm held when it switched, not only after the next
/// move has begun.
#[test]
fn a_pick_whose_dwell_is_shorter_than_a_tick_still_seals() {
    let time_scale = 100.0;
    let (shared, settings) = sim(&[("time_scale", ros::ParamValue::Double(time_scale))]);
    let ik = Ik::new(&settings.arm);
    let h = settings.board.pieces.height_m;
    home(&shared);
    let top = settings.board.square_center(sq("c3")) + nalgebra::Vector3::new(0.0, 0.0, h);
    move_to(&shared, &ik, top, 1);
    let seed = {
        let q = lock(&shared).joints();
        Joints::new(q[0], q[1], q[2])
    };
    let above = top + nalgebra::Vector3::new(0.0, 0.0, 0.03);
    let up = ik.solve(above, &seed).expect("reachable").joints.array();
    {
        let mut sim = lock(&shared);
        arm_command(&mut sim, ArmCommand::SetPump { on: true });
        // The arm node's joint speed at this time scale (120 deg/s real), in centidegrees/s.
        let speed = (120.0 * time_scale * 100.0) as u32;
        arm_command(
            &mut sim,
            ArmCommand::MoveJoints(MoveJoints {
                move_id: 2,
                target: up.map(CentiDeg::from_radians),
                speed,
            }),
        );
        sim.advance(0.01);
    }
    assert!(held(&shared).is_some(), "the cup sealed before it rose");
}

#[test]
fn lost_steps_leave_a_joint_off_unknown_to_the_firmware_until_homing_finds_it() {
    let (shared, _) = sim(&[]);
    home(&shared);
    lock(&shared).faults.lost_steps = 500;
    let target = [CentiDeg(3_000), CentiDeg(3_000), CentiDeg(3_000)];
    arm_command(
        &mut lock(&shared),
        ArmCommand::MoveJoints(MoveJoints {
            move_id: 4,
            target,
            speed: 0,
        }),
    );
    for _ in 0..300 {
        lock(&shared).advance(0.01);
    }
    let (believed, truth) = {
        let sim = lock(&shared);
        (
            sim.native()
                .expect("native firmware")
                .arm
                .logic()
                .status()
                .joints,
            sim.joints(),
        )
    };
    assert_eq!(believed, target, "the firmware believes it arrived");
    let off: Vec<f64> = (0..3)
        .map(|j| (believed[j].radians() - truth[j]).to_degrees())
        .collect();
    // 500 of 32,000 steps a turn: 5.625 degrees short on one joint, none on the others.
    assert_eq!(
        off.iter().filter(|d| (**d - 5.625).abs() < 0.01).count(),
        1,
        "{off:?}"
    );
    assert_eq!(off.iter().filter(|d| d.abs() < 0.01).count(), 2, "{off:?}");

    arm_command(&mut lock(&shared), ArmCommand::Home);
    for _ in 0..1000 {
        lock(&shared).advance(0.01);
    }
    let status = lock(&shared)
        .native()
        .expect("native firmware")
        .arm
        .logic()
        .status();
    assert_eq!(status.state, serial_link::arm::ArmState::Alarm);
    assert!(!status.homed);
}
