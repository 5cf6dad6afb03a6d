//! `hw arm`: the arm controller's status, homing, jogging one joint, the pump.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::bail;
use serial_link::arm::{Alarm, AlarmCode, ArmState, ArmStatus, MoveJoints, NO_JOINT};
use serial_link::transport::LinkHandle;
use serial_link::{ArmCommand, ArmReport, CentiDeg, ControllerKind};

use super::connect::report;
use super::Bench;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The arm controller's port (found by asking each port if not given).
    #[arg(long)]
    port: Option<PathBuf>,
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// State, homing, pump and joint angles.
    Status,
    /// Runs the homing sequence against the limit switches.
    Home,
    /// Turns one joint by an angle (the arm must be homed).
    Jog {
        /// 1, 2 or 3.
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=3))]
        joint: u8,
        /// Degrees, signed.
        #[arg(long, allow_negative_numbers = true)]
        by: f64,
        /// Degrees per second (default: the controller's).
        #[arg(long)]
        speed: Option<f64>,
        /// Home first if the arm is not homed.
        #[arg(long)]
        home: bool,
    },
    /// Switches the suction pump.
    Pump {
        #[arg(value_parser = ["on", "off"])]
        state: String,
    },
    /// Leaves the alarm state, if its cause is gone.
    Clear,
}

type ArmLink = LinkHandle<ArmCommand, ArmReport>;

/// Homing finds three switches at the controller's own pace.
const HOMING_WITHIN: Duration = Duration::from_secs(60);
const ANSWER_WITHIN: Duration = Duration::from_secs(2);

pub async fn run(bench: &Bench, args: &Args) -> anyhow::Result<()> {
    let mut link = bench
        .session::<ArmCommand, ArmReport>(args.port.as_ref(), ControllerKind::Arm)
        .await?;
    let result = act(&mut link, &args.action).await;
    link.task.abort();
    let status = result?;
    println!("{}", describe(&status));
    Ok(())
}

async fn act(link: &mut ArmLink, action: &Action) -> anyhow::Result<ArmStatus> {
    let now = status(link).await?;
    match action {
        Action::Status => Ok(now),
        Action::Home => {
            eprintln!("homing (up to {} s)...", HOMING_WITHIN.as_secs());
            link.sender.send(ArmCommand::Home).await?;
            settle(link, HOMING_WITHIN, |s| {
                s.homed && s.state == ArmState::Idle
            })
            .await
        }
        Action::Jog {
            joint,
            by,
            speed,
            home,
        } => {
            let now = if !now.homed && *home {
                Box::pin(act(link, &Action::Home)).await?
            } else {
                now
            };
            if !now.homed {
                bail!("the arm is not homed: run `hw arm home` first, or jog with `--home`");
            }
            if now.state == ArmState::Alarm {
                bail!("the arm is in its alarm state: `hw arm clear`, then home again");
            }
            let mut target = now.joints;
            let j = usize::from(joint - 1);
            target[j] = CentiDeg::from_degrees(target[j].degrees() + by);
            let move_id = now.move_id.wrapping_add(1);
            let speed = speed.map_or(0, |v| (v.abs() * 100.0).round() as u32);
            link.sender
                .send(ArmCommand::MoveJoints(MoveJoints {
                    move_id,
                    target,
                    speed,
                }))
                .await?;
            let within = Duration::from_secs(30);
            settle(link, within, |s| {
                s.move_id == move_id && s.state == ArmState::Idle
            })
            .await
        }
        Action::Pump { state } => {
            link.sender
                .send(ArmCommand::SetPump { on: state == "on" })
                .await?;
            settle(link, ANSWER_WITHIN, |s| s.pump_on == (state == "on")).await
        }
        Action::Clear => {
            link.sender.send(ArmCommand::ClearAlarm).await?;
            tokio::time::sleep(Duration::from_millis(100)).await;
            status(link).await
        }
    }
}

async fn status(link: &mut ArmLink) -> anyhow::Result<ArmStatus> {
    link.sender.send(ArmCommand::StatusRequest).await?;
    report(link, ANSWER_WITHIN, |r| match r {
        ArmReport::Status(s) => Some(*s),
        _ => None,
    })
    .await
}

/// Waits for a status `done` accepts; an alarm on the way is the error.
async fn settle(
    link: &mut ArmLink,
    within: Duration,
    done: impl Fn(&ArmStatus) -> bool,
) -> anyhow::Result<ArmStatus> {
    let mut alarm = None;
    let end = report(link, within, |r| match r {
        ArmReport::Alarm(a) => {
            alarm = Some(*a);
            // A refusal leaves the state as it is: no status follows it.
            matches!(a.code, AlarmCode::OutOfRange | AlarmCode::NotHomed).then_some(None)
        }
        ArmReport::Status(s) if s.state == ArmState::Alarm => Some(None),
        ArmReport::Status(s) if done(s) => Some(Some(*s)),
        _ => None,
    })
    .await?;
    match (end, alarm) {
        (Some(s), _) => Ok(s),
        (None, Some(a)) => bail!("the arm raised an alarm: {}", alarm_text(&a)),
        (None, None) => bail!("the arm went into its alarm state"),
    }
}

fn alarm_text(a: &Alarm) -> String {
    let joint = if a.joint == NO_JOINT {
        String::new()
    } else {
        format!(" on J{}", a.joint + 1)
    };
    let at = CentiDeg(a.detail).degrees();
    let what = match a.code {
        AlarmCode::Limit => format!("a limit switch closed at {at:.2}°"),
        AlarmCode::Stall => "lost steps: a switch was not where expected or never found".into(),
        AlarmCode::EStop => "the emergency stop".into(),
        AlarmCode::OutOfRange => format!("{at:.2}° is outside the soft limits"),
        AlarmCode::NotHomed => "not homed".into(),
        AlarmCode::Pump => "the pump".into(),
        AlarmCode::HostLost => "the host went silent during a move".into(),
        AlarmCode::Other(c) => format!("code {c}"),
    };
    format!("{what}{joint}")
}

fn describe(s: &ArmStatus) -> String {
    let state = match s.state {
        ArmState::Idle => "idle",
        ArmState::Moving => "moving",
        ArmState::Homing => "homing",
        ArmState::Alarm => "alarm",
    };
    format!(
        "state {state}  homed {}  pump {}  J1 {:.2}°  J2 {:.2}°  J3 {:.2}°",
        if s.homed { "yes" } else { "no" },
        if s.pump_on { "on" } else { "off" },
        s.joints[0].degrees(),
        s.joints[1].degrees(),
        s.joints[2].degrees()
    )
}
