//! The sim's arm and head controllers as a driver node meets them: through the symlinked
//! pseudo-terminal with `serial_link::port::open`, handshake, commands, reports.

use std::time::Instant;

use serial_link::arm::{AlarmCode, ArmState, MoveJoints};
use serial_link::head::EyeBitmap;
use serial_link::port::{self, DEFAULT_BAUD};
use serial_link::transport::{spawn, LinkHandle};
use serial_link::{
    ArmCommand, ArmHost, ArmReport, CentiDeg, ControllerKind, Event, HeadCommand, HeadHost,
    HeadReport, LinkConfig, ServoAngle,
};
use sim::settings::Settings;
use sim::state::lock;
use tokio::time::{timeout, Duration};

/// A guard against a hang, not a timing assertion.
const GUARD: Duration = Duration::from_secs(30);

async fn next_report<Tx, Rx: std::fmt::Debug>(
    h: &mut LinkHandle<Tx, Rx>,
    mut want: impl FnMut(&Rx) -> bool,
) -> Rx {
    loop {
        match h.events.recv().await {
            Some(Event::Received(r)) if want(&r) => return r,
            Some(_) => {}
            None => panic!("link task ended"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_arm_and_head_controllers_obey_over_their_ports() {
    let dir = tempfile::tempdir().expect("run dir");
    let mut params = ros::Params::with_overrides(vec![
        (
            "run_dir".to_string(),
            ros::ParamValue::String(dir.path().display().to_string()),
        ),
        ("time_scale".to_string(), ros::ParamValue::Double(20.0)),
    ]);
    let settings = Settings::from_params(&mut params).expect("settings");
    let shared = sim::node::build(&settings);
    let (_ports, _tasks) = sim::node::start_controllers(&settings, &shared).expect("controllers");
    let _physics = sim::node::spawn_physics(shared.clone());

    let arm_io = port::open(dir.path().join("arm"), DEFAULT_BAUD).expect("the arm's port");
    let mut arm = spawn(
        arm_io,
        ArmHost::host(ControllerKind::Arm, LinkConfig::default(), Instant::now()),
    );
    let exchange = async {
        // A session starts with a Status: not homed.
        let s = next_report(&mut arm, |r| matches!(r, ArmReport::Status(_))).await;
        assert!(matches!(s, ArmReport::Status(st) if !st.homed));
        let target = [CentiDeg(1000), CentiDeg(2000), CentiDeg(3000)];
        let move_to = ArmCommand::MoveJoints(MoveJoints {
            move_id: 1,
            target,
            speed: 0,
        });
        arm.sender.send(move_to).await.expect("sent");
        let a = next_report(&mut arm, |r| matches!(r, ArmReport::Alarm(_))).await;
        assert!(matches!(a, ArmReport::Alarm(al) if al.code == AlarmCode::NotHomed));
        arm.sender.send(ArmCommand::Home).await.expect("sent");
        next_report(
            &mut arm,
            |r| matches!(r, ArmReport::Status(st) if st.homed && st.state == ArmState::Idle),
        )
        .await;
        arm.sender
            .send(ArmCommand::SetReportPeriod { period_ms: 20 })
            .await
            .expect("sent");
        arm.sender.send(move_to).await.expect("sent");
        next_report(&mut arm, |r| matches!(r, ArmReport::Position { .. })).await;
        let done = next_report(
            &mut arm,
            |r| matches!(r, ArmReport::Status(st) if st.move_id == 1 && st.state == ArmState::Idle),
        )
        .await;
        assert!(matches!(done, ArmReport::Status(st) if st.joints == target));
    };
    timeout(GUARD, exchange).await.expect("the arm in time");

    let head_io = port::open(dir.path().join("head"), DEFAULT_BAUD).expect("the head's port");
    let mut head = spawn(
        head_io,
        HeadHost::host(ControllerKind::Head, LinkConfig::default(), Instant::now()),
    );
    let exchange = async {
        loop {
            match head.events.recv().await {
                Some(Event::Connected(_)) => break,
                Some(_) => {}
                None => panic!("head link ended"),
            }
        }
        let eyes = HeadCommand::SetEyes {
            left: EyeBitmap([0x3C; 8]),
            right: EyeBitmap([0x18; 8]),
        };
        head.sender.send(eyes).await.expect("sent");
        head.sender
            .send(HeadCommand::SetNeck {
                pan: ServoAngle::from_degrees(10.0),
                tilt: ServoAngle::from_degrees(-5.0),
                speed: 0,
            })
            .await
            .expect("sent");
        // The servos slew at their own speed: ask until they have arrived.
        let st = loop {
            head.sender
                .send(HeadCommand::StatusRequest)
                .await
                .expect("sent");
            let HeadReport::Status(st) = next_report(&mut head, |_| true).await;
            if !st.moving {
                break st;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        };
        assert_eq!(st.pan, ServoAngle::from_degrees(10.0));
        assert_eq!(st.tilt, ServoAngle::from_degrees(-5.0));
    };
    timeout(GUARD, exchange).await.expect("the head in time");
    let sim = lock(&shared);
    assert_eq!(
        sim.head_state().eyes,
        Some((EyeBitmap([0x3C; 8]), EyeBitmap([0x18; 8])))
    );
}
