//! A small simulated arm controller for the node's tests: it speaks the controller's end of the
//! serial protocol over in-memory streams, moves its joints at the commanded speed toward their
//! targets, reports positions, status and the pump, and can raise an alarm, go silent, or
//! close its port. Each connection the node opens is a new stream; the arm's physical state
//! (joints, homed, pump) outlives connections, as a real controller's does.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use arm::{BoxedIo, Connector};
use serial_link::arm::{Alarm, AlarmCode, ArmState, ArmStatus, NO_JOINT};
use serial_link::{
    ArmCommand, ArmController, ArmReport, CentiDeg, ControllerKind, Event, FirmwareId, LinkConfig,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const TICK: Duration = Duration::from_millis(5);

#[derive(Debug)]
pub struct Arm {
    pub joints: [f64; 3],
    target: Option<([f64; 3], f64)>,
    move_id: u16,
    pub state: ArmState,
    pub homed: bool,
    pub pump: bool,
    report_ms: u16,
    lost_while_moving: bool,
    /// Test knobs.
    pub raise: Option<AlarmCode>,
    pub silent: bool,
    /// Connections numbered up to this one are closed (the port "unplugged").
    pub closed_upto: usize,
    pub commands: Vec<ArmCommand>,
    pub connections: usize,
}

pub type Shared = Arc<Mutex<Arm>>;

pub fn lock(arm: &Shared) -> std::sync::MutexGuard<'_, Arm> {
    arm.lock().unwrap_or_else(|p| p.into_inner())
}

/// A controller, and the connector the node opens it with.
pub fn start() -> (Shared, Connector) {
    let arm: Shared = Arc::new(Mutex::new(Arm {
        // Where a power-up leaves it: not homed, somewhere inside the limits.
        joints: [0.0, 20f64.to_radians(), 40f64.to_radians()],
        target: None,
        move_id: 0,
        state: ArmState::Idle,
        homed: false,
        pump: false,
        report_ms: 0,
        lost_while_moving: false,
        raise: None,
        silent: false,
        closed_upto: 0,
        commands: Vec::new(),
        connections: 0,
    }));
    let shared = Arc::clone(&arm);
    let connect: Connector = Arc::new(move || {
        let arm = Arc::clone(&shared);
        Box::pin(async move {
            let (node_end, relay_end) = tokio::io::duplex(4096);
            let (relay_inner, controller_end) = tokio::io::duplex(4096);
            let index = {
                let mut a = lock(&arm);
                a.connections += 1;
                a.connections
            };
            tokio::spawn(relay(relay_end, relay_inner, Arc::clone(&arm), index));
            tokio::spawn(serve(controller_end, arm, index));
            Ok(Box::new(node_end) as BoxedIo)
        })
    });
    (arm, connect)
}

/// Passes bytes both ways, or swallows them while the arm is silent; ends when it closes.
async fn relay(a: tokio::io::DuplexStream, b: tokio::io::DuplexStream, arm: Shared, index: usize) {
    let (mut ar, mut aw) = tokio::io::split(a);
    let (mut br, mut bw) = tokio::io::split(b);
    let (mut x, mut y) = ([0u8; 256], [0u8; 256]);
    loop {
        tokio::select! {
            n = ar.read(&mut x) => match n {
                Ok(n) if n > 0 => if !lock(&arm).silent { let _ = bw.write_all(&x[..n]).await; },
                _ => return,
            },
            n = br.read(&mut y) => match n {
                Ok(n) if n > 0 => if !lock(&arm).silent { let _ = aw.write_all(&y[..n]).await; },
                _ => return,
            },
            _ = tokio::time::sleep(TICK) => if lock(&arm).closed_upto >= index { return },
        }
    }
}

fn centi(j: &[f64; 3]) -> [CentiDeg; 3] {
    [
        CentiDeg::from_radians(j[0]),
        CentiDeg::from_radians(j[1]),
        CentiDeg::from_radians(j[2]),
    ]
}

fn status(a: &Arm) -> ArmReport {
    ArmReport::Status(ArmStatus {
        state: a.state,
        homed: a.homed,
        pump_on: a.pump,
        move_id: a.move_id,
        joints: centi(&a.joints),
    })
}

fn alarm(code: AlarmCode) -> ArmReport {
    ArmReport::Alarm(Alarm {
        code,
        joint: NO_JOINT,
        detail: 0,
    })
}

/// What the controller does with a command: the reports it sends back.
fn obey(a: &mut Arm, cmd: ArmCommand) -> Vec<ArmReport> {
    a.commands.push(cmd);
    let in_alarm = a.state == ArmState::Alarm;
    match cmd {
        ArmCommand::MoveJoints(_) | ArmCommand::Home | ArmCommand::Stop if in_alarm => vec![],
        ArmCommand::MoveJoints(_) if !a.homed => vec![alarm(AlarmCode::NotHomed)],
        ArmCommand::MoveJoints(m) => {
            let t = m.target.map(|c| c.radians());
            let speed = (f64::from(m.speed) / 100.0).to_radians();
            a.target = Some((t, speed));
            a.move_id = m.move_id;
            a.state = ArmState::Moving;
            vec![status(a)]
        }
        ArmCommand::SetPump { on } => {
            a.pump = on;
            vec![status(a)]
        }
        ArmCommand::Home => {
            a.homed = true;
            a.joints = [0.0, 10f64.to_radians(), 30f64.to_radians()];
            a.state = ArmState::Idle;
            vec![status(a)]
        }
        ArmCommand::Stop => {
            a.target = None;
            a.state = ArmState::Idle;
            vec![status(a)]
        }
        ArmCommand::ClearAlarm => {
            if in_alarm {
                a.state = ArmState::Idle;
            }
            vec![status(a)]
        }
        ArmCommand::StatusRequest => vec![status(a)],
        ArmCommand::SetReportPeriod { period_ms } => {
            a.report_ms = period_ms;
            vec![]
        }
    }
}

/// One tick of the motors; the reports it causes.
fn step(a: &mut Arm, dt: f64) -> Vec<ArmReport> {
    if let Some(code) = a.raise.take() {
        a.target = None;
        a.state = ArmState::Alarm;
        return vec![alarm(code), status(a)];
    }
    let Some((t, speed)) = a.target else {
        return vec![];
    };
    let d: Vec<f64> = (0..3).map(|i| t[i] - a.joints[i]).collect();
    let far = d.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let reach = speed * dt;
    if far <= reach {
        a.joints = t;
        a.target = None;
        a.state = ArmState::Idle;
        return vec![status(a)];
    }
    for (j, di) in a.joints.iter_mut().zip(&d) {
        *j += di * reach / far;
    }
    vec![]
}

async fn serve(io: tokio::io::DuplexStream, arm: Shared, index: usize) {
    let link = ArmController::controller(
        ControllerKind::Arm,
        FirmwareId::new("fake-arm 1.0"),
        LinkConfig::default(),
        tokio::time::Instant::now().into_std(),
    );
    let mut handle = serial_link::transport::spawn(io, link);
    let mut tick = tokio::time::interval(TICK);
    let mut since_report = Duration::ZERO;
    loop {
        let mut out = Vec::new();
        let mut position = None;
        tokio::select! {
            ev = handle.events.recv() => {
                let mut a = lock(&arm);
                match ev {
                    None => return,
                    Some(Event::Received(cmd)) => out = obey(&mut a, cmd),
                    Some(Event::Connected(_)) => {
                        a.report_ms = 0;
                        if a.lost_while_moving {
                            a.lost_while_moving = false;
                            out = vec![alarm(AlarmCode::HostLost), status(&a)];
                        }
                    }
                    Some(Event::Disconnected { .. }) => {
                        if a.state == ArmState::Moving {
                            a.target = None;
                            a.state = ArmState::Alarm;
                            a.lost_while_moving = true;
                        }
                    }
                    Some(_) => {}
                }
            }
            _ = tick.tick() => {
                let mut a = lock(&arm);
                if a.closed_upto >= index {
                    return;
                }
                out = step(&mut a, TICK.as_secs_f64());
                since_report += TICK;
                if a.report_ms > 0 && since_report >= Duration::from_millis(a.report_ms.into()) {
                    since_report = Duration::ZERO;
                    position = Some(ArmReport::Position { joints: centi(&a.joints) });
                }
            }
        }
        for r in out {
            let _ = handle.sender.send(r).await;
        }
        if let Some(p) = position {
            let _ = handle.sender.send_unreliable(p).await;
        }
    }
}
