//! The expression node in a graph: game events and evaluations in, face and voice out.

use std::time::Duration;

use checkers_msgs::msg::{Evaluation, FaceExpression, GameEvent, GameState};
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
        if let Err(e) = expression::node::run(expression).await {
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
    let angry = loop {
        let f = next(&mut faces, "angry face").await;
        if f.emotion != FaceExpression::EMOTION_NEUTRAL {
            break f;
        }
    };
    assert!(matches!(
        angry.emotion,
        FaceExpression::EMOTION_ANGRY | FaceExpression::EMOTION_DISGUST
    ));
    assert!(angry.left_eye.iter().any(|&c| c == 1));
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
                win_probability: p,
                ..Evaluation::default()
            })
            .await
            .expect("publish evaluation");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let fear = loop {
        let f = next(&mut faces, "fearful face").await;
        if f.emotion == FaceExpression::EMOTION_FEAR {
            break f;
        }
    };
    assert!(fear.intensity > 0.5);
}
