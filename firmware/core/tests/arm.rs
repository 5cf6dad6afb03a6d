//! The arm controller over simulated joints: homing, coordinated moves, limits and alarms, the
//! pump, `Stop`, and the host-lost rule.

use firmware_core::arm::{
    Alarm, AlarmCode, Arm, ArmCommand, ArmConfig, ArmIo, ArmReport, ArmState, MoveJoints, NO_JOINT,
};
use firmware_core::stepper::Direction;
use serial_link::CentiDeg;

/// Joints that turn by the pulses they get, with a Hall switch where the configuration says.
#[derive(Debug, Default)]
struct SimIo {
    now: u64,
    /// True positions, steps from the true zero.
    phys: [i32; 3],
    switch_at: [i32; 3],
    toward: [Option<Direction>; 3],
    dead_switch: [bool; 3],
    forced_closed: [bool; 3],
    /// Pulses each joint will miss (a lost step per pulse).
    lose: [u32; 3],
    stalled: [bool; 3],
    estop: bool,
    pump: bool,
    vent: bool,
    /// (time, joint, direction) of every pulse.
    pulses: Vec<(u64, usize, Direction)>,
}

impl ArmIo for SimIo {
    fn step(&mut self, joint: usize, dir: Direction) {
        self.pulses.push((self.now, joint, dir));
        if self.lose[joint] > 0 {
            self.lose[joint] -= 1;
        } else {
            self.phys[joint] += dir.sign();
        }
    }

    fn limit_closed(&mut self, j: usize) -> bool {
        let at_switch = match self.toward[j] {
            Some(Direction::Reverse) => self.phys[j] <= self.switch_at[j],
            Some(Direction::Forward) => self.phys[j] >= self.switch_at[j],
            None => false,
        };
        self.forced_closed[j] || (at_switch && !self.dead_switch[j])
    }

    fn set_pump(&mut self, on: bool) {
        self.pump = on;
    }

    fn set_vent(&mut self, open: bool) {
        self.vent = open;
    }

    fn estop_pressed(&mut self) -> bool {
        self.estop
    }

    fn stalled(&mut self, joint: usize) -> bool {
        self.stalled[joint]
    }
}

struct Rig {
    arm: Arm<SimIo>,
    now: u64,
}

impl Rig {
    /// The paper's arm, powered up at `angles` (centidegrees).
    fn new(angles: [i32; 3]) -> Rig {
        let cfg = ArmConfig::paper_robot();
        let mut io = SimIo::default();
        for (j, (c, angle)) in cfg.joints.iter().zip(angles).enumerate() {
            io.phys[j] = c.steps(angle);
            io.switch_at[j] = c.steps(c.homing.switch_at);
            io.toward[j] = Some(c.homing.toward);
        }
        Rig {
            arm: Arm::new(cfg, io),
            now: 0,
        }
    }

    fn homed() -> Rig {
        let mut r = Rig::new([1_000, 2_000, 3_000]);
        r.cmd(ArmCommand::Home);
        r.run_until_idle(60_000_000);
        assert!(r.arm.homed());
        r.reports();
        r.arm.io_mut().pulses.clear();
        r
    }

    fn cmd(&mut self, c: ArmCommand) {
        self.arm.command(c, self.now);
    }

    /// Ticks every millisecond and at every step.
    fn run_for(&mut self, us: u64) {
        let end = self.now + us;
        loop {
            let tick = (self.now / 1000 + 1) * 1000;
            let t = self
                .arm
                .next_step_at()
                .map_or(tick, |s| s.clamp(self.now, tick));
            if t > end {
                break;
            }
            self.now = t;
            self.arm.io_mut().now = t;
            self.arm.tick(t);
        }
        self.now = end;
    }

    fn run_until_idle(&mut self, limit_us: u64) {
        let end = self.now + limit_us;
        while self.now < end {
            self.run_for(1_000);
            if matches!(self.arm.state(), ArmState::Idle | ArmState::Alarm)
                && self.arm.next_step_at().is_none()
            {
                return;
            }
        }
        panic!("not idle after {limit_us} us: {:?}", self.arm.state());
    }

    fn reports(&mut self) -> Vec<ArmReport> {
        std::iter::from_fn(|| self.arm.next_report(self.now)).collect()
    }

    fn alarms(&mut self) -> Vec<Alarm> {
        self.reports()
            .into_iter()
            .filter_map(|r| match r {
                ArmReport::Alarm(a) => Some(a),
                _ => None,
            })
            .collect()
    }

    fn steps_of(&self, joint: usize) -> Vec<u64> {
        let p = &self.arm.io().pulses;
        p.iter().filter(|x| x.1 == joint).map(|x| x.0).collect()
    }
}

fn move_to(target: [i32; 3], speed: u32, move_id: u16) -> ArmCommand {
    ArmCommand::MoveJoints(MoveJoints {
        move_id,
        target: target.map(CentiDeg),
        speed,
    })
}

#[test]
fn homing_finds_every_switch_and_parks_at_the_home_pose() {
    let mut r = Rig::new([1_000, 2_000, 3_000]);
    r.cmd(ArmCommand::Home);
    r.run_for(1_000);
    assert_eq!(r.arm.state(), ArmState::Homing);
    r.run_until_idle(60_000_000);
    assert_eq!(r.arm.state(), ArmState::Idle);
    assert!(r.arm.homed());
    // The count now agrees with the true positions, and the arm stands at its home pose.
    for j in 0..3 {
        assert_eq!(r.arm.joint(j).position(), r.arm.io().phys[j], "joint {j}");
    }
    assert_eq!(r.arm.angles(), [0, 0, 0]);
    let states: Vec<_> = r
        .reports()
        .into_iter()
        .map(|x| match x {
            ArmReport::Status(s) => (s.state, s.homed),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(states, [(ArmState::Idle, true)], "the status as it is now");
}

#[test]
fn homing_starting_on_a_switch_backs_off_first() {
    let mut r = Rig::new([-9_800, 2_000, 3_000]);
    assert!(r.arm.io_mut().limit_closed(0));
    r.cmd(ArmCommand::Home);
    r.run_until_idle(60_000_000);
    assert!(r.arm.homed());
    assert_eq!(r.arm.joint(0).position(), r.arm.io().phys[0]);
}

#[test]
fn a_switch_stuck_closed_is_a_limit_alarm_after_a_short_creep() {
    let mut r = Rig::new([0, 2_000, 3_000]);
    r.arm.io_mut().forced_closed[2] = true;
    r.cmd(ArmCommand::Home);
    r.run_until_idle(60_000_000);
    assert_eq!(r.arm.state(), ArmState::Alarm);
    assert!(!r.arm.homed());
    let release = firmware_core::arm::RELEASE_BACKOFFS * 300;
    assert_eq!(
        r.alarms(),
        [Alarm {
            code: AlarmCode::Limit,
            joint: 2,
            detail: release
        }]
    );
    // It crept off the switch by that much, away from it, no farther.
    let moved = r.arm.io().phys[2] - ArmConfig::paper_robot().joints[2].steps(3_000);
    assert_eq!(moved, ArmConfig::paper_robot().joints[2].steps(release));
}

#[test]
fn a_switch_never_found_is_a_stall_alarm() {
    let mut r = Rig::new([0, 2_000, 3_000]);
    r.arm.io_mut().dead_switch[2] = true;
    r.cmd(ArmCommand::Home);
    r.run_until_idle(60_000_000);
    assert_eq!(r.arm.state(), ArmState::Alarm);
    assert!(!r.arm.homed());
    let alarms = r.alarms();
    assert_eq!(
        alarms,
        [Alarm {
            code: AlarmCode::Stall,
            joint: 2,
            detail: 27_000
        }]
    );
    // It looked as far as allowed, no farther.
    let travelled = r.arm.io().phys[2] - ArmConfig::paper_robot().joints[2].steps(3_000);
    assert_eq!(travelled, -24_000);
    // Only ClearAlarm is obeyed now.
    r.cmd(ArmCommand::Home);
    assert_eq!(r.arm.state(), ArmState::Alarm);
    r.cmd(ArmCommand::ClearAlarm);
    assert_eq!(r.arm.state(), ArmState::Idle);
}

#[test]
fn moves_are_refused_before_homing_and_outside_the_limits() {
    let mut r = Rig::new([0, 0, 0]);
    r.cmd(move_to([0, 1_000, 2_000], 0, 1));
    assert_eq!(r.alarms()[0].code, AlarmCode::NotHomed);
    assert_eq!(r.arm.state(), ArmState::Idle);

    let mut r = Rig::homed();
    r.cmd(move_to([0, 9_900, 0], 0, 2));
    r.cmd(move_to([0, 0, 8_500], 0, 3)); // J3 fine, but J3 - J2 beyond the elbow's 80 degrees
    let alarms = r.alarms();
    let got: Vec<_> = alarms.iter().map(|a| (a.code, a.joint, a.detail)).collect();
    assert_eq!(
        got,
        [
            (AlarmCode::OutOfRange, 1, 9_900),
            (AlarmCode::OutOfRange, 2, 8_500)
        ]
    );
    assert_eq!(r.arm.state(), ArmState::Idle, "refusals change nothing");
    assert_eq!(r.arm.status().move_id, 0);
    assert!(r.arm.next_step_at().is_none());
}

#[test]
fn joints_arrive_together_and_the_fastest_runs_at_the_speed_asked() {
    let mut r = Rig::homed();
    let target = [3_000, 2_000, 4_000];
    r.cmd(move_to(target, 6_000, 7));
    r.run_until_idle(10_000_000);
    let s = r.arm.status();
    assert_eq!((s.state, s.move_id), (ArmState::Idle, 7));
    for (got, want) in s.joints.iter().zip(target) {
        // 1.125 centidegrees per step: the angle reported is the step's.
        assert!((got.0 - want).abs() <= 1, "{:?}", s.joints);
    }

    let steps: Vec<Vec<u64>> = (0..3).map(|j| r.steps_of(j)).collect();
    let last: Vec<u64> = steps
        .iter()
        .map(|s| *s.last().expect("steps taken"))
        .collect();
    let final_interval = |s: &Vec<u64>| s[s.len() - 1] - s[s.len() - 2];
    let shortest = steps.iter().map(final_interval).min().expect("steps taken");
    let spread = last.iter().max().expect("steps taken") - last.iter().min().expect("steps taken");
    assert!(spread <= shortest, "last steps {last:?}");
    assert_eq!(spread, 0, "on one profile they end on the same microsecond");

    // Along the way every joint covers the same fraction of its travel, to a step.
    let n: Vec<usize> = steps.iter().map(Vec::len).collect();
    let start = steps.iter().map(|s| s[0]).min().expect("steps taken");
    for t in (start..last[0]).step_by(10_000) {
        let done: Vec<usize> = steps
            .iter()
            .map(|s| s.iter().take_while(|&&x| x <= t).count())
            .collect();
        let lead = done[2] as f64 / n[2] as f64;
        for (&d, &n) in done.iter().zip(&n) {
            assert!((d as f64 - lead * n as f64).abs() <= 1.0, "t {t}: {done:?}");
        }
    }

    // J3 travels farthest: its top speed is the 60 degrees per second asked, not more.
    let spt = ArmConfig::paper_robot().joints[2].steps_per_turn as f64;
    let t = &steps[2];
    let (a, b) = (t.len() * 2 / 5, t.len() * 3 / 5); // mid-cruise
    let top = (b - a) as f64 / (t[b] - t[a]) as f64 * 1e6 * 36_000.0 / spt;
    assert!((top - 6_000.0).abs() < 1.0, "top speed {top} cdeg/s");
    // Single intervals are whole microseconds: 187.5 us comes out as 187s and 188s.
    let fastest = t
        .windows(2)
        .map(|w| w[1] - w[0])
        .min()
        .expect("steps taken");
    assert_eq!(fastest, 187);
}

#[test]
fn a_limit_switch_closing_outside_homing_stops_the_arm_at_once() {
    let mut r = Rig::homed();
    r.cmd(move_to([6_000, 3_000, 3_000], 0, 4));
    r.run_for(300_000);
    let before = r.arm.io().pulses.len();
    r.arm.io_mut().forced_closed[1] = true;
    r.run_for(2_000);
    assert_eq!(r.arm.state(), ArmState::Alarm);
    assert!(r.arm.next_step_at().is_none(), "no braking: stopped dead");
    assert!(r.arm.io().pulses.len() <= before + 3 * 20);
    let a = r.alarms();
    assert_eq!((a[0].code, a[0].joint), (AlarmCode::Limit, 1));
    assert_eq!(a[0].detail, r.arm.angles()[1], "where it closed");
    assert!(!r.arm.homed(), "the count is no longer trusted");
    // Cleared, but a move needs a new homing.
    r.cmd(ArmCommand::ClearAlarm);
    assert_eq!(r.arm.state(), ArmState::Idle);
    r.cmd(move_to([0, 0, 0], 0, 5));
    assert_eq!(r.alarms()[0].code, AlarmCode::NotHomed);
}

#[test]
fn a_lost_host_brakes_a_moving_arm_keeps_the_pump_and_waits_in_alarm() {
    let mut r = Rig::homed();
    r.cmd(ArmCommand::SetPump { on: true });
    r.cmd(move_to([8_000, 0, 0], 6_000, 9));
    r.run_for(500_000); // cruising at 60 deg/s
    let cruising = r.steps_of(0);
    let cruise_interval = cruising[cruising.len() - 1] - cruising[cruising.len() - 2];
    r.arm.session_ended(r.now);
    assert_eq!(r.arm.state(), ArmState::Alarm);
    assert!(
        r.arm.io().pump,
        "the pump stays on: a piece in the cup must not fall"
    );
    // Still braking: a ClearAlarm now finds the cause still there.
    r.cmd(ArmCommand::ClearAlarm);
    assert_eq!(r.arm.state(), ArmState::Alarm);
    r.run_until_idle(2_000_000);
    let all = r.steps_of(0);
    let braking: Vec<u64> = all[cruising.len()..]
        .windows(2)
        .map(|w| w[1] - w[0])
        .collect();
    assert!(braking[0] + 1 >= cruise_interval);
    assert!(braking.windows(2).all(|w| w[1] + 1 >= w[0]), "slowing down");
    // v^2 / 2a = 60^2 / 800 = 4.5 degrees beyond where the host was lost.
    let lost_at = r.arm.config().joints[0].centideg(cruising.len() as i32);
    let stopped = r.arm.angles()[0];
    assert!(
        (stopped - lost_at - 450).abs() <= 2,
        "{lost_at} -> {stopped}"
    );
    assert!(stopped < 8_000);
    // The alarm waits for the next session (the glue polls reports only in one).
    r.arm.session_started();
    let a = r.alarms();
    assert_eq!(
        a,
        [
            Alarm {
                code: AlarmCode::HostLost,
                joint: NO_JOINT,
                detail: 0
            },
            Alarm {
                code: AlarmCode::HostLost,
                joint: NO_JOINT,
                detail: 0
            }
        ]
    );
    // Moves are ignored until cleared; the count is still good, so no homing is needed.
    r.cmd(move_to([0, 0, 0], 0, 10));
    r.run_for(10_000);
    assert_eq!(r.arm.angles()[0], stopped);
    r.cmd(ArmCommand::ClearAlarm);
    assert_eq!(r.arm.state(), ArmState::Idle);
    assert!(r.arm.homed());
    assert!(r.arm.io().pump);
}

#[test]
fn a_lost_host_leaves_an_idle_arm_alone() {
    let mut r = Rig::homed();
    r.arm.session_ended(r.now);
    assert_eq!(r.arm.state(), ArmState::Idle);
    assert!(r.alarms().is_empty());
}

#[test]
fn stop_brakes_to_a_standstill_and_holds() {
    let mut r = Rig::homed();
    r.cmd(ArmCommand::SetPump { on: true });
    r.cmd(move_to([8_000, 0, 0], 6_000, 11));
    r.run_for(300_000);
    r.cmd(ArmCommand::Stop);
    assert_eq!(r.arm.state(), ArmState::Moving, "braking");
    r.run_until_idle(2_000_000);
    let s = r.arm.status();
    assert_eq!((s.state, s.move_id, s.pump_on), (ArmState::Idle, 11, true));
    assert!(s.joints[0].0 > 1_000 && s.joints[0].0 < 8_000);
}

#[test]
fn a_new_move_replaces_the_one_in_progress() {
    let mut r = Rig::homed();
    r.cmd(move_to([8_000, 0, 0], 6_000, 12));
    r.run_for(300_000);
    r.cmd(move_to([-2_000, 1_000, 1_000], 0, 13));
    r.run_until_idle(5_000_000);
    let s = r.arm.status();
    assert_eq!(
        (s.state, s.move_id, s.joints),
        (ArmState::Idle, 13, [-2_000, 1_000, 1_000].map(CentiDeg))
    );
    // It braked before turning back: no reversal at speed.
    let p = &r.arm.io().pulses;
    let j1: Vec<_> = p.iter().filter(|x| x.1 == 0).collect();
    let turn = j1
        .windows(2)
        .position(|w| w[0].2 != w[1].2)
        .expect("a turn");
    assert!(
        j1[turn + 1].0 - j1[turn].0 > 5_000,
        "the turn happens at rest"
    );
}

#[test]
fn the_pump_switches_at_once_and_the_valve_vents_after_it() {
    let mut r = Rig::homed();
    let pump_statuses = |r: &mut Rig| -> Vec<bool> {
        r.reports()
            .into_iter()
            .filter_map(|x| match x {
                ArmReport::Status(s) => Some(s.pump_on),
                _ => None,
            })
            .collect()
    };
    r.cmd(ArmCommand::SetPump { on: true });
    assert!(r.arm.io().pump && !r.arm.io().vent);
    assert_eq!(pump_statuses(&mut r), [true]);
    r.cmd(ArmCommand::SetPump { on: false });
    assert!(!r.arm.io().pump && r.arm.io().vent);
    assert_eq!(pump_statuses(&mut r), [false]);
    r.run_for(150_000);
    assert!(r.arm.io().vent);
    r.run_for(100_000);
    assert!(!r.arm.io().vent, "vented for 200 ms");
}

#[test]
fn steps_lost_since_the_last_homing_show_when_homing_again() {
    let mut r = Rig::homed();
    r.arm.io_mut().lose[0] = 200; // 2.25 degrees missed on the way out
    r.cmd(move_to([3_000, 0, 0], 0, 1));
    r.run_until_idle(5_000_000);
    r.cmd(move_to([0, 0, 0], 0, 2));
    r.run_until_idle(5_000_000);
    assert_eq!(r.arm.angles(), [0, 0, 0], "the count does not know");
    r.cmd(ArmCommand::Home);
    r.run_until_idle(60_000_000);
    let a = r.alarms();
    assert_eq!((a[0].code, a[0].joint), (AlarmCode::Stall, 0));
    assert!((a[0].detail - 225).abs() <= 1, "off by {}", a[0].detail);
    assert_eq!(r.arm.state(), ArmState::Alarm);
    // Cleared and homed again, the count is right.
    r.cmd(ArmCommand::ClearAlarm);
    r.cmd(ArmCommand::Home);
    r.run_until_idle(60_000_000);
    assert!(r.arm.homed());
    assert_eq!(r.arm.joint(0).position(), r.arm.io().phys[0]);
}

#[test]
fn a_driver_stall_signal_and_the_emergency_stop_raise_alarms() {
    let mut r = Rig::homed();
    r.cmd(move_to([3_000, 0, 0], 0, 1));
    r.run_for(100_000);
    r.arm.io_mut().stalled[0] = true;
    r.run_for(1_000);
    let a = r.alarms();
    assert_eq!((a[0].code, a[0].joint), (AlarmCode::Stall, 0));
    assert!(r.arm.next_step_at().is_none());
    r.cmd(ArmCommand::ClearAlarm);
    assert_eq!(
        r.arm.state(),
        ArmState::Alarm,
        "the driver still signals a stall"
    );
    r.arm.io_mut().stalled[0] = false;
    r.cmd(ArmCommand::ClearAlarm);
    assert_eq!(r.arm.state(), ArmState::Idle);

    let mut r = Rig::homed();
    r.arm.io_mut().estop = true;
    r.run_for(1_000);
    assert_eq!(r.alarms()[0].code, AlarmCode::EStop);
    r.cmd(ArmCommand::ClearAlarm);
    assert_eq!(r.arm.state(), ArmState::Alarm, "still pressed");
    assert_eq!(r.alarms()[0].code, AlarmCode::EStop, "raised again");
    r.arm.io_mut().estop = false;
    r.cmd(ArmCommand::ClearAlarm);
    assert_eq!(r.arm.state(), ArmState::Idle);
}

#[test]
fn positions_are_reported_at_the_period_asked_until_the_session_ends() {
    let mut r = Rig::homed();
    r.cmd(ArmCommand::SetReportPeriod { period_ms: 20 });
    let mut positions = 0;
    for _ in 0..100 {
        r.run_for(1_000);
        positions += r
            .reports()
            .iter()
            .filter(|x| matches!(x, ArmReport::Position { .. }))
            .count();
    }
    assert_eq!(positions, 6, "at once, then every 20 ms through 100 ms");
    r.cmd(ArmCommand::StatusRequest);
    assert!(matches!(r.reports()[0], ArmReport::Status(_)));
    r.arm.session_ended(r.now);
    r.arm.session_started();
    r.run_for(100_000);
    assert!(r.reports().is_empty(), "reporting is off in a new session");
}
