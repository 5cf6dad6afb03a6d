//! The expression node: evaluations and game events in; `/face/expression`, `/voice/say`, the
//! voice, the head controller and the neck's joints on `/joint_states` out.
//!
//! Parameters: `attitude` (positive|negative), `language` (en|ru), `voice` (an espeak-ng voice;
//! "" = the language's), `speak` (bool), `speech_rate` (words per minute), `seed`,
//! `head_port` (the head controller's serial port; "" = no head attached), `blink_period_s`.

use std::time::Duration;

use checkers_msgs::msg::{Evaluation, FaceExpression, GameEvent as EventMsg, GameState};
use checkers_msgs::sensor_msgs::msg::JointState;
use checkers_msgs::std_msgs::msg::String as StringMsg;
use futures::StreamExt;
pub use ros::NodeError;
use ros::{Node, Qos};
use tokio::time::Instant;

use crate::emotion::{Attitude, GameEvent};
use crate::face::{Activity, Face, Frame};
use crate::phrases::Language;
use crate::pose::{neck_positions, slew, NECK_JOINTS, NECK_RATE_DEG_S};
use crate::voice::Voice;

#[derive(Debug, Clone)]
pub struct Settings {
    pub attitude: Attitude,
    pub language: Language,
    pub voice: String,
    pub speak: bool,
    pub speech_rate: u32,
    pub seed: u64,
    pub head_port: String,
    pub blink_period: Duration,
}

impl Settings {
    pub fn declare(node: &mut Node) -> Result<Settings, NodeError> {
        let mut p = node.params();
        let attitude = p.declare("attitude", "positive".to_string())?;
        let language = p.declare("language", "en".to_string())?;
        let voice = p.declare("voice", String::new())?;
        let speak = p.declare("speak", true)?;
        let speech_rate = p.declare("speech_rate", 150i64)?;
        let seed = p.declare("seed", 0i64)?;
        let head_port = p.declare("head_port", String::new())?;
        let blink = p.declare("blink_period_s", 4.0f64)?;
        let language: Language = language.parse().map_err(|e| NodeError::Param {
            name: "language",
            why: format!("{e}"),
        })?;
        Ok(Settings {
            attitude: attitude.parse().map_err(|e| NodeError::Param {
                name: "attitude",
                why: format!("{e}"),
            })?,
            voice: if voice.is_empty() {
                language.espeak_voice().to_string()
            } else {
                voice
            },
            language,
            speak,
            speech_rate: u32::try_from(speech_rate.clamp(80, 450)).unwrap_or(150),
            seed: seed as u64,
            head_port,
            blink_period: Duration::from_secs_f64(blink.clamp(0.5, 60.0)),
        })
    }
}

/// How often the neck's joints go out on `/joint_states`, for robot_state_publisher and rviz.
const NECK_PERIOD: Duration = Duration::from_millis(50);

/// How long a blink keeps the eyes closed.
const BLINK: Duration = Duration::from_millis(150);

/// Roughly how long espeak-ng takes to say `text` (the head looks at the player meanwhile).
fn speaking_time(text: &str, words_per_minute: u32) -> Duration {
    let words = text.split_whitespace().count().max(1) as f64;
    Duration::from_secs_f64(words * 60.0 / f64::from(words_per_minute.max(1)) + 0.3)
}

/// The robot-relative view of a `GameEvent` message; `None` for events the face ignores.
pub fn face_event(msg: &EventMsg, robot_side: u8, last_status: u8) -> Option<GameEvent> {
    let robot = msg.side == robot_side;
    Some(match msg.kind {
        EventMsg::KIND_NEW_GAME => GameEvent::NewGame,
        EventMsg::KIND_RESUMED => GameEvent::Resumed,
        EventMsg::KIND_HUMAN_MOVED => GameEvent::HumanMoved,
        EventMsg::KIND_ROBOT_MOVED => GameEvent::RobotMoved,
        EventMsg::KIND_CAPTURE => GameEvent::Capture { by_robot: robot },
        EventMsg::KIND_PROMOTION => GameEvent::Promotion { robot },
        EventMsg::KIND_ILLEGAL_MOVE => GameEvent::IllegalMove,
        EventMsg::KIND_AMBIGUOUS => GameEvent::Ambiguous,
        EventMsg::KIND_NOTHING_MOVED => GameEvent::NothingMoved,
        EventMsg::KIND_ARM_FAILED => GameEvent::ArmFailed,
        EventMsg::KIND_BOARD_MISMATCH => GameEvent::BoardMismatch,
        EventMsg::KIND_BOARD_RESTORED => GameEvent::BoardRestored,
        EventMsg::KIND_PLANNER_TIMEOUT => GameEvent::PlannerTimeout,
        EventMsg::KIND_PLANNER_AWAY => GameEvent::PlannerAway,
        EventMsg::KIND_VERDICT => match msg.verdict {
            EventMsg::VERDICT_BLUNDER => GameEvent::HumanBlunder,
            EventMsg::VERDICT_BRILLIANT => GameEvent::HumanBrilliant,
            _ => return None,
        },
        // A resignation is followed by GAME_OVER, which the face answers.
        EventMsg::KIND_RESIGNED => return None,
        EventMsg::KIND_GAME_OVER => {
            let draw = last_status == GameState::STATUS_DRAW
                || msg.text.to_ascii_lowercase().contains("draw");
            GameEvent::GameOver {
                robot_won: (!draw).then_some(robot),
            }
        }
        _ => return None,
    })
}

fn activity(status: u8) -> Activity {
    match status {
        GameState::STATUS_ROBOT_THINKING => Activity::Thinking,
        GameState::STATUS_ROBOT_MOVING | GameState::STATUS_VERIFYING => Activity::Moving,
        _ => Activity::Waiting,
    }
}

fn message(frame: &Frame, phrase: Option<&str>, node: &Node) -> FaceExpression {
    let mut msg = FaceExpression {
        emotion: frame.emotion.code(),
        intensity: frame.intensity,
        left_eye: frame.left_eye.to_cells(),
        right_eye: frame.right_eye.to_cells(),
        left_brow_deg: frame.pose.left_brow_deg,
        right_brow_deg: frame.pose.right_brow_deg,
        neck_pan_deg: frame.pose.neck_pan_deg,
        neck_tilt_deg: frame.pose.neck_tilt_deg,
        gaze: frame.gaze.code(),
        phrase: phrase.unwrap_or_default().to_string(),
        ..FaceExpression::default()
    };
    msg.header.stamp = node.now();
    msg.header.frame_id = "head".into();
    msg
}

pub async fn run(mut node: Node) -> Result<(), NodeError> {
    let settings = Settings::declare(&mut node)?;
    for name in node.params().unused_overrides() {
        tracing::warn!(
            parameter = name,
            "no such parameter of the expression node; ignored"
        );
    }
    let face_out = node.publisher::<FaceExpression>("/face/expression", Qos::State)?;
    let say_out = node.publisher::<StringMsg>("/voice/say", Qos::Events)?;
    let evaluations = node.subscription::<Evaluation>("/planner/evaluation", Qos::Events)?;
    let events = node.subscription::<EventMsg>("/game/events", Qos::Events)?;
    let states = node.subscription::<GameState>("/game/state", Qos::State)?;
    // The head's joints, beside the arm's (the arm node publishes those): hobby servos report no
    // angle, so this is the commanded pose as the rate-limited servos follow it.
    let joint_states = node.publisher::<JointState>("/joint_states", Qos::Sensor)?;
    let (mut evaluations, mut events, mut states) =
        (evaluations.stream(), events.stream(), states.stream());

    let voice = match (settings.speak, Voice::available()) {
        (true, true) => Some(Voice::new(&settings.voice, settings.speech_rate)),
        (true, false) => {
            tracing::info!(
                "espeak-ng is not installed: the robot's phrases are text only (/voice/say)"
            );
            None
        }
        (false, _) => None,
    };
    let (head, head_health) = match settings.head_port.as_str() {
        "" => (None, None),
        port => {
            let (frames, health) = crate::head_link::start(port.to_string());
            (Some(frames), Some(health))
        }
    };
    let (port, spoken) = (settings.head_port.clone(), voice.is_some());
    ros::diagnostics::publish_periodically(&mut node, move || {
        vec![crate::health::report(
            &port,
            head_health.as_ref().map(|h| h.borrow().clone()).as_ref(),
            spoken,
        )]
    });

    let mut face = Face::new(settings.attitude, settings.language, settings.seed);
    let mut robot_side = GameState::SIDE_WHITE;
    let mut last_status = GameState::STATUS_IDLE;
    let mut speaking_until: Option<Instant> = None;
    let mut next_blink = Instant::now() + settings.blink_period;
    let mut blink_ends: Option<Instant> = None;
    let mut shown: Option<Frame> = None;
    let mut neck = (0.0f32, 0.0f32);
    let mut neck_tick = tokio::time::interval(NECK_PERIOD);
    neck_tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);

    tracing::info!(attitude = ?settings.attitude, language = ?settings.language, "expression node running");
    loop {
        let mut phrase: Option<String> = None;
        let wake = [Some(next_blink), blink_ends, speaking_until]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(next_blink);
        tokio::select! {
            // The robot's own evaluations only: a hint's is the human's.
            Some(e) = evaluations.next() => if e.side == robot_side {
                phrase = face.on_evaluation(e.win_probability);
            },
            Some(e) = events.next() => {
                if e.kind == EventMsg::KIND_HINT {
                    phrase = face.on_hint(&e.game_move.text);
                } else if let Some(ev) = face_event(&e, robot_side, last_status) {
                    phrase = face.on_event(&ev, &e.wrong_squares);
                }
            }
            Some(s) = states.next() => {
                robot_side = s.robot_color;
                last_status = s.status;
                face.set_activity(activity(s.status));
            }
            _ = neck_tick.tick() => {
                if let Some(frame) = &shown {
                    let step = NECK_RATE_DEG_S * NECK_PERIOD.as_secs_f32();
                    neck = (
                        slew(neck.0, frame.pose.neck_pan_deg, step),
                        slew(neck.1, frame.pose.neck_tilt_deg, step),
                    );
                }
                let mut msg = JointState {
                    name: NECK_JOINTS.iter().map(|s| s.to_string()).collect(),
                    position: neck_positions(neck.0, neck.1).to_vec(),
                    ..JointState::default()
                };
                msg.header.stamp = node.now();
                if let Err(e) = joint_states.publish(msg).await {
                    tracing::debug!("joint_states: {e}");
                }
                continue;
            }
            _ = tokio::time::sleep_until(wake) => {
                let now = Instant::now();
                if blink_ends.is_some_and(|t| t <= now) {
                    blink_ends = None;
                } else if next_blink <= now {
                    blink_ends = Some(now + BLINK);
                    next_blink = now + settings.blink_period;
                }
                if speaking_until.is_some_and(|t| t <= now) {
                    speaking_until = None;
                    face.set_speaking(false);
                }
            }
        }
        if let Some(text) = &phrase {
            face.set_speaking(true);
            speaking_until = Some(Instant::now() + speaking_time(text, settings.speech_rate));
            if let Err(e) = say_out.publish(StringMsg { data: text.clone() }).await {
                tracing::warn!("{e}");
            }
            if let Some(v) = &voice {
                match v.speak(text) {
                    // Reaped in the background: the node never waits for speech.
                    Ok(mut child) => {
                        tokio::task::spawn_blocking(move || child.wait());
                    }
                    Err(e) => tracing::warn!("cannot speak: {e}"),
                }
            }
        }
        let frame = face.frame(blink_ends.is_some());
        if phrase.is_some() || shown.as_ref() != Some(&frame) {
            if let Err(e) = face_out
                .publish(message(&frame, phrase.as_deref(), &node))
                .await
            {
                tracing::warn!("{e}");
            }
            if let Some(head) = &head {
                head.send_replace(Some(frame.clone()));
            }
            shown = Some(frame);
        }
    }
}
