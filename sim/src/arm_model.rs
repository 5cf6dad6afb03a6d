//! The simulated arm controller's mechanics: three steppers moving at finite speed toward their
//! targets (all arriving together, with acceleration limits), homing, the pump, alarms, as
//! docs/serial-protocol.md section 5.3 describes the firmware.
//!
//! Speeds in `MoveJoints` are taken as given: the arm node already multiplies them by its time
//! scale. The simulation's own rates (acceleration, the default speed, homing) are multiplied
//! by the sim's time scale, so both must be launched with the same one.

use arm_kinematics::config::Limits;
use serial_link::arm::{Alarm, AlarmCode, ArmState, ArmStatus, MoveJoints, JOINTS, NO_JOINT};
use serial_link::{ArmCommand, CentiDeg};

/// A target this close outside a limit still counts as inside: centidegrees round.
const LIMIT_SLACK: f64 = 0.0005;

/// The mechanics' fixed figures.
#[derive(Debug, Clone)]
pub struct ArmParams {
    pub limits: Limits,
    /// Joint angles after homing, radians.
    pub home: [f64; JOINTS],
    /// Where the arm stands at power-up, radians.
    pub power_up: [f64; JOINTS],
    /// How long homing takes in real time, seconds.
    pub homing_s: f64,
    /// How many times faster than real time the mechanics run.
    pub time_scale: f64,
}

#[derive(Debug, Clone)]
struct Motion {
    start: [f64; JOINTS],
    target: [f64; JOINTS],
    /// The fastest joint's travel; every joint follows the same fraction of its own.
    length: f64,
    done: f64,
    speed: f64,
    max_speed: f64,
    homing: bool,
}

/// The arm as its controller knows it.
#[derive(Debug, Clone)]
pub struct SimArm {
    params: ArmParams,
    joints: [f64; JOINTS],
    state: ArmState,
    homed: bool,
    pump_on: bool,
    move_id: u16,
    motion: Option<Motion>,
    /// Raised alarms not yet reported.
    alarms: Vec<Alarm>,
}

impl SimArm {
    pub fn new(params: ArmParams) -> SimArm {
        SimArm {
            joints: params.power_up,
            params,
            state: ArmState::Idle,
            homed: false,
            pump_on: false,
            move_id: 0,
            motion: None,
            alarms: Vec::new(),
        }
    }

    /// Joint angles, radians.
    pub fn joints(&self) -> [f64; JOINTS] {
        self.joints
    }

    pub fn pump_on(&self) -> bool {
        self.pump_on
    }

    pub fn status(&self) -> ArmStatus {
        ArmStatus {
            state: self.state,
            homed: self.homed,
            pump_on: self.pump_on,
            move_id: self.move_id,
            joints: self.joints.map(CentiDeg::from_radians),
        }
    }

    /// Alarms raised since the last call, oldest first.
    pub fn take_alarms(&mut self) -> Vec<Alarm> {
        std::mem::take(&mut self.alarms)
    }

    /// Per second squared of the sim's clock: the slowest joint's limit, sped up.
    fn acceleration(&self) -> f64 {
        let a = self.params.limits.acceleration;
        a[0].min(a[1]).min(a[2]) * self.params.time_scale.powi(2)
    }

    fn default_speed(&self) -> f64 {
        let v = self.params.limits.velocity;
        v[0].min(v[1]).min(v[2]) * self.params.time_scale
    }

    fn within_limits(&self, q: [f64; JOINTS]) -> Result<(), u8> {
        let l = &self.params.limits;
        for (i, &v) in q.iter().enumerate() {
            if v < l.min[i] - LIMIT_SLACK || v > l.max[i] + LIMIT_SLACK {
                return Err(i as u8);
            }
        }
        let elbow = q[2] - q[1];
        if elbow < l.elbow_min - LIMIT_SLACK || elbow > l.elbow_max + LIMIT_SLACK {
            return Err(2);
        }
        Ok(())
    }

    fn raise(&mut self, code: AlarmCode, joint: u8, detail: i32) {
        self.alarms.push(Alarm {
            code,
            joint,
            detail,
        });
    }

    fn start_motion(&mut self, target: [f64; JOINTS], speed: f64, homing: bool) {
        let length = (0..JOINTS)
            .map(|i| (target[i] - self.joints[i]).abs())
            .fold(0.0, f64::max);
        let carried = self.motion.as_ref().map_or(0.0, |m| m.speed);
        self.motion = Some(Motion {
            start: self.joints,
            target,
            length,
            done: 0.0,
            // A new move replaces the old one without a jolt: keep the speed reached.
            speed: carried.min(speed),
            max_speed: speed,
            homing,
        });
    }

    /// Obeys a command from the host.
    pub fn command(&mut self, cmd: ArmCommand) {
        if self.state == ArmState::Alarm {
            match cmd {
                ArmCommand::ClearAlarm => {
                    // Nothing in the simulation keeps an alarm's cause alive.
                    self.state = ArmState::Idle;
                }
                ArmCommand::SetPump { on } => self.pump_on = on,
                // StatusRequest and SetReportPeriod are the serving loop's; others are ignored.
                _ => {}
            }
            return;
        }
        match cmd {
            ArmCommand::MoveJoints(MoveJoints {
                move_id,
                target,
                speed,
            }) => {
                if !self.homed {
                    self.raise(AlarmCode::NotHomed, NO_JOINT, 0);
                    return;
                }
                let q = target.map(CentiDeg::radians);
                if let Err(joint) = self.within_limits(q) {
                    self.raise(AlarmCode::OutOfRange, joint, target[joint as usize].0);
                    return;
                }
                let speed = if speed == 0 {
                    self.default_speed()
                } else {
                    (f64::from(speed) / 100.0).to_radians()
                };
                self.move_id = move_id;
                self.state = ArmState::Moving;
                self.start_motion(q, speed, false);
            }
            ArmCommand::SetPump { on } => self.pump_on = on,
            ArmCommand::Home => {
                self.state = ArmState::Homing;
                self.homed = false;
                let length = (0..JOINTS)
                    .map(|i| (self.params.home[i] - self.joints[i]).abs())
                    .fold(0.0, f64::max);
                let seconds = (self.params.homing_s / self.params.time_scale).max(1e-3);
                let speed = (length / seconds).max(1e-6);
                self.motion = None;
                self.start_motion(self.params.home, speed, true);
                if let Some(m) = &mut self.motion {
                    // Homing runs at an even pace: the limit switches decide, not a profile.
                    m.speed = speed;
                }
            }
            ArmCommand::Stop => self.stop(),
            ArmCommand::ClearAlarm | ArmCommand::StatusRequest => {}
            ArmCommand::SetReportPeriod { .. } => {}
        }
    }

    /// Decelerates to a standstill along the current path.
    pub fn stop(&mut self) {
        let a = self.acceleration();
        if let Some(m) = &mut self.motion {
            let stopping = m.speed * m.speed / (2.0 * a);
            let new_length = (m.done + stopping).min(m.length);
            if m.length > 0.0 {
                for i in 0..JOINTS {
                    m.target[i] = m.start[i] + (m.target[i] - m.start[i]) * new_length / m.length;
                }
            }
            m.length = new_length;
        }
    }

    /// The host went away (session lost): a moving arm stops and raises HostLost.
    pub fn host_lost(&mut self) {
        if matches!(self.state, ArmState::Moving | ArmState::Homing) {
            self.stop();
            self.motion = None;
            self.state = ArmState::Alarm;
            self.raise(AlarmCode::HostLost, NO_JOINT, 0);
        }
    }

    /// Advances the mechanics by `dt` seconds of real time.
    pub fn step(&mut self, dt: f64) {
        let a = self.acceleration();
        let Some(m) = &mut self.motion else {
            return;
        };
        let remaining = (m.length - m.done).max(0.0);
        if m.homing {
            m.done += m.speed * dt;
        } else {
            // No faster than the limit, nor than braking within the remaining way allows.
            let braking_limit = (2.0 * a * remaining).sqrt();
            m.speed = (m.speed + a * dt).min(m.max_speed).min(braking_limit);
            // The last bit of the way is covered in one tick: the ramp never stalls short.
            m.done += if remaining <= m.max_speed * dt {
                remaining
            } else {
                m.speed * dt
            };
        }
        let finished = m.done >= m.length;
        let f = if m.length > 0.0 {
            (m.done / m.length).min(1.0)
        } else {
            1.0
        };
        for i in 0..JOINTS {
            self.joints[i] = m.start[i] + (m.target[i] - m.start[i]) * f;
        }
        if finished {
            let homing = m.homing;
            self.motion = None;
            if homing {
                self.homed = true;
            }
            self.state = ArmState::Idle;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arm(time_scale: f64) -> SimArm {
        let cfg = arm_kinematics::config::ArmConfig::builtin().expect("built-in arm config");
        SimArm::new(ArmParams {
            limits: cfg.limits(),
            home: [0.0, 0.0, 0.0],
            power_up: cfg.rest(),
            homing_s: 2.0,
            time_scale,
        })
    }

    fn run(a: &mut SimArm, seconds: f64) {
        for _ in 0..(seconds / 0.01) as usize {
            a.step(0.01);
        }
    }

    #[test]
    fn moves_are_refused_before_homing_and_out_of_range() {
        let mut a = arm(1.0);
        let target = [CentiDeg(0), CentiDeg(1000), CentiDeg(2000)];
        a.command(ArmCommand::MoveJoints(MoveJoints {
            move_id: 1,
            target,
            speed: 0,
        }));
        assert_eq!(a.take_alarms()[0].code, AlarmCode::NotHomed);
        a.command(ArmCommand::Home);
        assert_eq!(a.status().state, ArmState::Homing);
        run(&mut a, 3.0);
        assert!(a.status().homed);
        assert_eq!(a.status().state, ArmState::Idle);
        a.command(ArmCommand::MoveJoints(MoveJoints {
            move_id: 2,
            target: [CentiDeg(0), CentiDeg(9900), CentiDeg(0)],
            speed: 0,
        }));
        let alarm = a.take_alarms()[0];
        assert_eq!((alarm.code, alarm.joint), (AlarmCode::OutOfRange, 1));
        assert_eq!(
            a.status().state,
            ArmState::Idle,
            "a refusal changes nothing"
        );
    }

    #[test]
    fn joints_reach_the_target_together_at_finite_speed() {
        let mut a = arm(1.0);
        a.command(ArmCommand::Home);
        run(&mut a, 3.0);
        let target = [CentiDeg(3000), CentiDeg(2000), CentiDeg(4000)];
        a.command(ArmCommand::MoveJoints(MoveJoints {
            move_id: 7,
            target,
            speed: 6000,
        }));
        run(&mut a, 0.1);
        let mid = a.joints();
        assert!(mid[0] > 0.0 && mid[0] < 30f64.to_radians(), "under way");
        // Synchronised: every joint has covered the same fraction of its way.
        let f0 = mid[0] / 30f64.to_radians();
        let f2 = mid[2] / 40f64.to_radians();
        assert!((f0 - f2).abs() < 1e-9);
        run(&mut a, 2.0);
        let s = a.status();
        assert_eq!((s.state, s.move_id), (ArmState::Idle, 7));
        assert_eq!(s.joints, target);
    }

    #[test]
    fn a_lost_host_stops_a_moving_arm_with_an_alarm() {
        let mut a = arm(10.0);
        a.command(ArmCommand::Home);
        run(&mut a, 0.5);
        a.command(ArmCommand::MoveJoints(MoveJoints {
            move_id: 3,
            target: [CentiDeg(8000), CentiDeg(0), CentiDeg(0)],
            speed: 1000,
        }));
        run(&mut a, 0.2);
        a.host_lost();
        assert_eq!(a.status().state, ArmState::Alarm);
        assert_eq!(a.take_alarms()[0].code, AlarmCode::HostLost);
        a.command(ArmCommand::Home);
        assert_eq!(
            a.status().state,
            ArmState::Alarm,
            "only ClearAlarm leaves it"
        );
        a.command(ArmCommand::ClearAlarm);
        assert_eq!(a.status().state, ArmState::Idle);
    }
}
