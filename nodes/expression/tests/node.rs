//! The expression node in a graph: game events and evaluations in, face and voice out.

use std::time::Duration;

use checkers_msgs::msg::{Evaluation, FaceExpression, GameEvent, GameState};
use checkers_msgs::sensor_msgs::msg::JointState;
use checkers_msgs::std_msgs::msg::String as StringMsg;
use futures::StreamExt;
use ros::env::{DiscoveryRange, RosEnv};
use ros::{Node, Qos, RosArgs};

fn node(name: &str, domain: u16, params: &[&str]) -> Node {
    let mut args = vec!["test".to_string(), "--ros-args".to_string()];
    for p in params {
        args.push("-p".into());
        args.push((*p).to_string());
    }
    let env = RosEnv {
        domain_id: domain,
        discovery: DiscoveryRange::Localhost,
        security: None,
    };
    Node::new(name, RosArgs::parse(args).expect("arguments"), env).expect("node")
}

async fn next<T>(stream: &mut (impl futures::Stream<Item = T> + Unpin), what: &str) -> T {
    tokio::time::timeout(Duration::from_secs(20), stream.next())
        .await
        .unwrap_or_else(|_| panic!("no {what} in time"))
        .unwrap_or_else(|| panic!("{what} stream ended"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_illegal_move_makes_an_angry_face_that_names_the_squares() {
    let domain = 150 + (std::process::id() % 40) as u16;
    let expression = node("expression", domain, &["speak:=false", "seed:=1"]);
    tokio::spawn(async move {
        if let Err(e) = expression::run(expression).await {
            panic!("the node stopped: {e}");
        }
    });

    let mut game = node("arbiter", domain, &[]);
    let state = game
        .publisher::<GameState>("/game/state", Qos::State)
        .expect("state publisher");
    let events = game
        .publisher::<GameEvent>("/game/events", Qos::Events)
        .expect("events publisher");
    let evaluations = game
        .publisher::<Evaluation>("/planner/evaluation", Qos::Events)
        .expect("evaluation publisher");
    let faces = game
        .subscription::<FaceExpression>("/face/expression", Qos::State)
        .expect("face subscription");
    let says = game
        .subscription::<StringMsg>("/voice/say", Qos::Events)
        .expect("voice subscription");
    let (mut faces, mut says) = (faces.stream(), says.stream());

    // The node publishes its resting face at once (latched).
    let first = next(&mut faces, "first face").await;
    assert_eq!(first.emotion, FaceExpression::EMOTION_NEUTRAL);

    state
        .publish(GameState {
            robot_color: GameState::SIDE_BLACK,
            status: GameState::STATUS_WAITING_FOR_HUMAN,
            ..GameState::default()
        })
        .await
        .expect("publish state");
    // Events are not latched: repeat until the node has surely matched, then look for the face.
    let illegal = GameEvent {
        kind: GameEvent::KIND_ILLEGAL_MOVE,
        side: GameEvent::SIDE_WHITE,
        wrong_squares: vec![9, 13],
        ..GameEvent::default()
    };
    let said = loop {
        events
            .publish(illegal.clone())
            .await
            .expect("publish event");
        match tokio::time::timeout(Duration::from_millis(500), says.next()).await {
            Ok(Some(s)) => break s.data,
            Ok(None) => panic!("voice stream ended"),
            Err(_) => continue,
        }
    };
    assert!(said.contains("9 and 13"), "{said}");
    let angry = tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            let f = next(&mut faces, "angry face").await;
            if f.emotion != FaceExpression::EMOTION_NEUTRAL {
                break f;
            }
        }
    })
    .await
    .expect("an angry face within 30 s");
    assert!(matches!(
        angry.emotion,
        FaceExpression::EMOTION_ANGRY | FaceExpression::EMOTION_DISGUST
    ));
    assert!(angry.left_eye.contains(&1));
    assert!(angry.left_brow_deg < 0.0);

    // The human's corrected move, then a collapse of the robot's chances: fear.
    events
        .publish(GameEvent {
            kind: GameEvent::KIND_HUMAN_MOVED,
            ..GameEvent::default()
        })
        .await
        .expect("publish event");
    for p in [0.6f32, 0.2] {
        evaluations
            .publish(Evaluation {
                // The robot's own evaluation: one from the human's side (a hint's) is not
                // the robot's chances.
                side: Evaluation::SIDE_BLACK,
                win_probability: p,
                ..Evaluation::default()
            })
            .await
            .expect("publish evaluation");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Faces keep coming (blinks): bound the search for the right one.
    let fear = tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            let f = next(&mut faces, "fearful face").await;
            if f.emotion == FaceExpression::EMOTION_FEAR {
                break f;
            }
        }
    })
    .await
    .expect("a fearful face within 30 s");
    assert!(fear.intensity > 0.5);
}

#[tokio::test]
async fn frames_reach_the_head_controller_over_the_serial_protocol() {
    use expression::{Attitude, Face, GameEvent as Ev, Language};
    use serial_link::{ControllerKind, Event, FirmwareId, HeadCommand, HeadController, LinkConfig};

    let (host_end, controller_end) = tokio::io::duplex(4096);
    let controller = HeadController::controller(
        ControllerKind::Head,
        FirmwareId::new("test-head"),
        LinkConfig::default(),
        tokio::time::Instant::now().into_std(),
    );
    let mut controller = serial_link::transport::spawn(controller_end, controller);

    let mut face = Face::new(Attitude::Negative, Language::English, 0);
    face.on_event(&Ev::IllegalMove, &[]);
    let frame = face.frame(false);
    // The node's end of the pipe, once: the session's connector.
    let host_end = std::sync::Arc::new(std::sync::Mutex::new(Some(host_end)));
    let connect: serial_link::session::Connector = std::sync::Arc::new(move || {
        let end = host_end.lock().ok().and_then(|mut e| e.take());
        Box::pin(async move {
            end.map(|e| Box::new(e) as serial_link::session::BoxedIo)
                .ok_or_else(|| std::io::Error::other("the pipe was taken"))
        })
    });
    let (tx, _link) = expression::start_head_link(connect, "pipe".into());
    tx.send_replace(Some(frame.clone()));

    let mut eyes = None;
    let mut brows = None;
    let mut neck = None;
    while eyes.is_none() || brows.is_none() || neck.is_none() {
        let event = tokio::time::timeout(Duration::from_secs(10), controller.events.recv())
            .await
            .expect("the head hears from the host in time")
            .expect("link open");
        match event {
            Event::Received(HeadCommand::SetEyes { left, right }) => eyes = Some((left, right)),
            Event::Received(HeadCommand::SetBrows { left, right }) => brows = Some((left, right)),
            Event::Received(HeadCommand::SetNeck { tilt, .. }) => neck = Some(tilt),
            _ => {}
        }
    }
    let (left, right) = eyes.expect("eyes");
    assert_eq!(left.0, frame.left_eye.0);
    assert_eq!(right.0, frame.right_eye.0);
    let (bl, _) = brows.expect("brows");
    assert!(
        bl.degrees() < -1.0,
        "angry brows are lowered: {}",
        bl.degrees()
    );
    assert!(
        neck.expect("neck").degrees().abs() < 0.5,
        "upright while waiting"
    );
    drop(tx);
}

/// The neck's angle from a `/joint_states` sample of the expression node.
fn neck_tilt(msg: &JointState) -> Option<f64> {
    let i = msg.name.iter().position(|n| n == "neck_tilt")?;
    msg.position.get(i).copied()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_neck_bows_to_the_board_on_joint_states_at_the_servos_rate() {
    let domain = 190 + (std::process::id() % 40) as u16;
    let expression = node("expression", domain, &["speak:=false", "seed:=1"]);
    tokio::spawn(async move {
        if let Err(e) = expression::run(expression).await {
            panic!("the node stopped: {e}");
        }
    });
    let mut game = node("arbiter", domain, &[]);
    let state = game
        .publisher::<GameState>("/game/state", Qos::State)
        .expect("state publisher");
    let joints = game
        .subscription::<JointState>("/joint_states", Qos::Sensor)
        .expect("joint_states subscription");
    let mut joints = joints.stream();

    // At rest the head is upright, and both neck joints are there for robot_state_publisher.
    let first = next(&mut joints, "joint_states").await;
    assert_eq!(first.name, ["neck_pan", "neck_tilt"]);
    assert_eq!(first.position, [0.0, 0.0]);

    state
        .publish(GameState {
            status: GameState::STATUS_ROBOT_MOVING,
            ..GameState::default()
        })
        .await
        .expect("publish state");
    let target = f64::from(expression::BOARD_TILT_DEG).to_radians();
    let mut seen = Vec::new();
    while seen.last().is_none_or(|t: &f64| (t - target).abs() > 1e-4) {
        let msg = next(&mut joints, "joint_states").await;
        seen.extend(neck_tilt(&msg));
        assert!(
            seen.len() < 200,
            "the neck never reached the board: {seen:?}"
        );
    }
    // On the way, no step is larger than the servos' rate allows in one 50 ms period.
    let step = f64::from(expression::NECK_RATE_DEG_S * 0.05).to_radians();
    let moving: Vec<f64> = seen.iter().copied().filter(|t| *t > 0.0).collect();
    assert!(moving.len() >= 3, "the neck jumped: {seen:?}");
    for pair in moving.windows(2) {
        assert!(pair[1] - pair[0] <= step + 1e-6, "{seen:?}");
    }
}
