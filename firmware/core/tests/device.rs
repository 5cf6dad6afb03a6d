//! A whole controller (`firmware_core::device`) against the host's end of the shared link,
//! byte for byte over an in-memory line, on one virtual clock: the handshake, homing against
//! the switches, a move reported done, and the host-lost rule.

use firmware_core::arm::{
    AlarmCode, Arm, ArmCommand, ArmConfig, ArmIo, ArmReport, ArmState, MoveJoints,
};
use firmware_core::device::Device;
use firmware_core::stepper::Direction;
use serial_link::{CentiDeg, ControllerKind, Event, FirmwareId, Link, LinkConfig, Micros};

/// Joints that turn a step per pulse, with the switches where the configuration puts them.
struct Joints {
    position: [i32; 3],
    switch_at: [i32; 3],
}

impl ArmIo for Joints {
    fn step(&mut self, joint: usize, dir: Direction) {
        self.position[joint] += dir.sign();
    }
    fn limit_closed(&mut self, joint: usize) -> bool {
        self.position[joint] <= self.switch_at[joint]
    }
    fn set_pump(&mut self, _on: bool) {}
    fn set_vent(&mut self, _open: bool) {}
}

type Host = Link<ArmCommand, ArmReport, Micros>;

struct Bench {
    host: Host,
    arm: Device<Arm<Joints>>,
    now: u64,
    reports: Vec<ArmReport>,
    host_silent: bool,
}

impl Bench {
    fn new() -> Bench {
        let cfg = ArmConfig::paper_robot();
        // Powered up 30 degrees off zero on every joint: the count says 0, the truth differs.
        let io = Joints {
            position: [
                cfg.joints[0].steps(3_000),
                cfg.joints[1].steps(3_000),
                cfg.joints[2].steps(3_000),
            ],
            switch_at: core::array::from_fn(|j| {
                cfg.joints[j].steps(cfg.joints[j].homing.switch_at)
            }),
        };
        let config = LinkConfig {
            nonce_seed: Some(7),
            ..LinkConfig::default()
        };
        Bench {
            host: Link::host(ControllerKind::Arm, config, Micros(0)),
            arm: Device::new(Arm::new(cfg, io), FirmwareId::new("test-arm"), 3, 0),
            now: 0,
            reports: Vec::new(),
            host_silent: false,
        }
    }

    /// Runs both ends for `us`, 100 us a turn.
    fn run(&mut self, us: u64) {
        let end = self.now + us;
        while self.now < end {
            self.now += 100;
            let t = Micros(self.now);
            if !self.host_silent {
                self.host.handle_timeout(t);
                let to_arm = self.host.take_transmit();
                self.arm.receive(&to_arm, self.now);
            }
            self.arm.poll(self.now);
            let to_host = self.arm.take_transmit();
            if !self.host_silent {
                self.host.receive(&to_host, t);
                while let Some(e) = self.host.poll_event() {
                    if let Event::Received(r) = e {
                        self.reports.push(r);
                    }
                }
            }
        }
    }

    fn send(&mut self, cmd: ArmCommand) {
        self.host
            .send(cmd, Micros(self.now))
            .expect("a session is up");
    }

    fn last_status(&self) -> Option<firmware_core::arm::ArmStatus> {
        self.reports.iter().rev().find_map(|r| match r {
            ArmReport::Status(s) => Some(*s),
            _ => None,
        })
    }
}

#[test]
fn a_session_homes_the_arm_and_a_move_is_reported_done() {
    let mut b = Bench::new();
    b.run(50_000);
    assert!(b.host.is_connected() && b.arm.connected());
    assert_eq!(
        b.host.peer().map(|p| p.firmware),
        Some(FirmwareId::new("test-arm"))
    );
    let s = b.last_status().expect("a status at the start of a session");
    assert!(!s.homed);

    b.send(ArmCommand::Home);
    b.run(40_000_000);
    let s = b.last_status().expect("status");
    assert!(s.homed && s.state == ArmState::Idle, "{s:?}");
    // Homed: the count now agrees with where the joints really are.
    let io = b.arm.logic().io();
    let cfg = ArmConfig::paper_robot();
    for j in 0..3 {
        assert_eq!(
            cfg.joints[j].centideg(io.position[j]),
            s.joints[j].0,
            "J{}",
            j + 1
        );
    }

    b.send(ArmCommand::MoveJoints(MoveJoints {
        move_id: 9,
        target: [CentiDeg(4_500), CentiDeg(2_000), CentiDeg(3_000)],
        speed: 0,
    }));
    b.run(3_000_000);
    let s = b.last_status().expect("status");
    assert_eq!((s.state, s.move_id), (ArmState::Idle, 9));
    assert_eq!(
        s.joints,
        [CentiDeg(4_500), CentiDeg(2_000), CentiDeg(3_000)]
    );
}

#[test]
fn a_host_gone_silent_mid_move_stops_the_arm_and_is_told_at_the_next_session() {
    let mut b = Bench::new();
    b.run(50_000);
    b.send(ArmCommand::Home);
    b.run(40_000_000);
    b.send(ArmCommand::MoveJoints(MoveJoints {
        move_id: 2,
        target: [CentiDeg(8_000), CentiDeg(0), CentiDeg(0)],
        speed: 1_000,
    }));
    b.run(200_000);
    b.host_silent = true;
    // The controller's peer timeout is 1 s; then it brakes and holds.
    b.run(3_000_000);
    assert!(!b.arm.connected());
    assert_eq!(b.arm.logic().state(), ArmState::Alarm);
    let stopped = b.arm.logic().io().position[0];
    b.run(1_000_000);
    assert_eq!(b.arm.logic().io().position[0], stopped, "it holds");

    b.host_silent = false;
    b.reports.clear();
    b.run(2_000_000);
    assert!(b.host.is_connected());
    assert!(
        b.reports
            .iter()
            .any(|r| matches!(r, ArmReport::Alarm(a) if a.code == AlarmCode::HostLost)),
        "{:?}",
        b.reports
    );
}
