//! Every topic of the graph as it goes by: the web window shows them, Foxglove gets them, the
//! recorder keeps them. One table ([`TOPICS`]) says which topics, with what type, schema and
//! QoS; [`tap`] subscribes to all of them and hands each message on as a [`Sample`], both as
//! the CDR that rosbag2 and Foxglove carry and as JSON for a page. [`Topic::decode`] turns a
//! recorded sample back into JSON when a recording is replayed.
//!
//! The table is the only list of the graph's topics outside the nodes that publish them, so a
//! new topic is recorded, shown to Foxglove and replayed once it is added here.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use byteorder::{BigEndian, LittleEndian};
use checkers_msgs::diagnostic_msgs::msg::DiagnosticArray;
use checkers_msgs::msg::{BoardOccupancy, Evaluation, FaceExpression, GameEvent, GameState};
use checkers_msgs::sensor_msgs::msg::JointState;
use checkers_msgs::std_msgs::msg::String as StringMsg;
use checkers_msgs::visualization_msgs::msg::MarkerArray;
use checkers_msgs::Interface;
use futures::StreamExt;
use ros::{Node, Qos, RosError};
use tokio::sync::mpsc;

/// The encapsulation header of plain little-endian CDR (representation `CDR_LE`, no options),
/// which rosbag2 keeps at the start of every sample and Foxglove expects.
pub const CDR_LE_HEADER: [u8; 4] = [0, 1, 0, 0];

/// What is wrong with a sample that was to be decoded.
#[derive(Debug, thiserror::Error)]
pub enum TapError {
    #[error("{topic}: {len} bytes is too short for CDR")]
    Short { topic: String, len: usize },
    #[error("{topic}: representation {id:#06x} is not plain CDR")]
    Representation { topic: String, id: u16 },
    #[error("{topic}: not a {ros_type}: {reason}")]
    Malformed {
        topic: String,
        ros_type: &'static str,
        reason: String,
    },
}

/// One topic of the graph.
#[derive(Debug)]
pub struct Topic {
    /// `/game/state`
    pub name: &'static str,
    /// `checkers_msgs/msg/GameState`
    pub ros_type: &'static str,
    /// The type's `ros2msg` schema (the `.msg` file and those it uses).
    pub definition: &'static str,
    /// The type's RIHS01 hash, which rosbag2 keeps beside the type.
    pub type_hash: &'static str,
    /// What its publishers use; a subscriber must ask for the same.
    pub qos: Qos,
    decode: fn(&Topic, &[u8]) -> Result<serde_json::Value, TapError>,
    subscribe: fn(&mut Node, &'static Topic, mpsc::Sender<Sample>) -> Result<(), RosError>,
}

impl Topic {
    /// A recorded sample (CDR with its encapsulation header) as JSON.
    pub fn decode(&self, cdr: &[u8]) -> Result<serde_json::Value, TapError> {
        (self.decode)(self, cdr)
    }
}

/// One message seen on the graph.
#[derive(Debug, Clone)]
pub struct Sample {
    pub topic: &'static Topic,
    /// When it was seen (nanoseconds since the Unix epoch).
    pub stamp_ns: u64,
    /// The message in CDR, encapsulation header first.
    pub cdr: Arc<[u8]>,
    /// The message as JSON, field names as in its `.msg` file.
    pub json: Arc<serde_json::Value>,
}

const fn topic<T: Interface>(name: &'static str, qos: Qos) -> Topic {
    Topic {
        name,
        ros_type: T::ROS_TYPE,
        definition: T::DEFINITION,
        type_hash: T::TYPE_HASH,
        qos,
        decode: decode::<T>,
        subscribe: subscribe::<T>,
    }
}

/// The graph's topics (docs/design.md, "The graph"), in the order a viewer lists them.
pub static TOPICS: [Topic; 11] = [
    topic::<GameState>("/game/state", Qos::State),
    topic::<GameEvent>("/game/events", Qos::Events),
    topic::<BoardOccupancy>("/board/occupancy", Qos::Events),
    topic::<Evaluation>("/planner/evaluation", Qos::Events),
    topic::<FaceExpression>("/face/expression", Qos::State),
    topic::<StringMsg>("/voice/say", Qos::Events),
    topic::<JointState>("/joint_states", Qos::Sensor),
    topic::<MarkerArray>("/board/markers", Qos::State),
    topic::<MarkerArray>("/sim/markers", Qos::State),
    topic::<StringMsg>("/sim/faults", Qos::State),
    topic::<DiagnosticArray>("/diagnostics", Qos::Events),
];

/// The topic of the table named `name`.
pub fn find(name: &str) -> Option<&'static Topic> {
    TOPICS.iter().find(|t| t.name == name)
}

/// Subscribes `node` to every topic of [`TOPICS`]; each message arrives on `out` as a
/// [`Sample`]. The subscriptions run on the node's tasks and end with it (or when `out`'s
/// receiver is gone). A topic that cannot be subscribed to (an rcl whose RMW has no type
/// support for its type) is said once and left out: the others still matter.
pub fn tap(node: &mut Node, out: &mpsc::Sender<Sample>) {
    for t in &TOPICS {
        if let Err(e) = (t.subscribe)(node, t, out.clone()) {
            tracing::warn!("{} is left out: {e}", t.name);
        }
    }
}

/// `msg` as a sample of `topic`, seen now.
pub fn sample<T: Interface>(topic: &'static Topic, msg: &T) -> Sample {
    let stamp_ns = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
    let cdr = cdr(msg);
    let json = serde_json::to_value(msg).unwrap_or(serde_json::Value::Null);
    Sample {
        topic,
        stamp_ns,
        cdr: cdr.into(),
        json: Arc::new(json),
    }
}

/// `msg` in CDR, encapsulation header first, as rosbag2 and Foxglove carry it.
pub fn cdr<T: Interface>(msg: &T) -> Vec<u8> {
    let mut cdr = CDR_LE_HEADER.to_vec();
    // Our own generated types always serialize; a failure would be a bug in the generator,
    // and an empty body then stands out in the recording rather than stopping the graph.
    match cdr_encoding::to_vec::<T, LittleEndian>(msg) {
        Ok(body) => cdr.extend_from_slice(&body),
        Err(e) => tracing::warn!("cannot encode a {}: {e}", T::ROS_TYPE),
    }
    cdr
}

fn subscribe<T: Interface>(
    node: &mut Node,
    topic: &'static Topic,
    out: mpsc::Sender<Sample>,
) -> Result<(), RosError> {
    let sub = node.subscription::<T>(topic.name, topic.qos)?;
    node.spawn(async move {
        let mut stream = sub.stream();
        while let Some(msg) = stream.next().await {
            if out.send(sample(topic, &msg)).await.is_err() {
                break;
            }
        }
    });
    Ok(())
}

fn decode<T: Interface>(topic: &Topic, cdr: &[u8]) -> Result<serde_json::Value, TapError> {
    let (Some(header), Some(body)) = (cdr.get(..4), cdr.get(4..)) else {
        return Err(TapError::Short {
            topic: topic.name.to_string(),
            len: cdr.len(),
        });
    };
    let malformed = |reason: String| TapError::Malformed {
        topic: topic.name.to_string(),
        ros_type: topic.ros_type,
        reason,
    };
    let msg: T = match u16::from_be_bytes([header[0], header[1]]) {
        0x0001 => cdr_encoding::from_bytes::<T, LittleEndian>(body)
            .map(|(m, _)| m)
            .map_err(|e| malformed(e.to_string()))?,
        0x0000 => cdr_encoding::from_bytes::<T, BigEndian>(body)
            .map(|(m, _)| m)
            .map_err(|e| malformed(e.to_string()))?,
        id => {
            return Err(TapError::Representation {
                topic: topic.name.to_string(),
                id,
            })
        }
    };
    serde_json::to_value(&msg).map_err(|e| malformed(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_decodes_to_the_json_it_was_made_with() {
        let t = find("/game/state").expect("in the table");
        let mut state = GameState {
            ply: 7,
            ..Default::default()
        };
        state.position.fen = "W:W21-32:B1-12".into();
        let s = sample(t, &state);
        assert_eq!(&s.cdr[..4], &CDR_LE_HEADER);
        let back = t.decode(&s.cdr).expect("decodes");
        assert_eq!(back, *s.json);
        assert_eq!(back["ply"], 7);
        assert_eq!(back["position"]["fen"], "W:W21-32:B1-12");
    }

    #[test]
    fn a_bad_sample_is_an_error_not_a_panic() {
        let t = find("/game/events").expect("in the table");
        assert!(matches!(t.decode(&[0, 1]), Err(TapError::Short { .. })));
        assert!(matches!(
            t.decode(&[0, 9, 0, 0, 1]),
            Err(TapError::Representation { id: 9, .. })
        ));
        assert!(matches!(
            t.decode(&[0, 1, 0, 0, 1]),
            Err(TapError::Malformed { .. })
        ));
    }

    #[test]
    fn every_topic_has_a_schema_with_its_dependencies() {
        for t in &TOPICS {
            assert!(!t.definition.is_empty(), "{}", t.name);
        }
        let state = find("/game/state").expect("in the table").definition;
        assert!(state.contains("\nMSG: std_msgs/Header\n"));
        assert!(state.contains("\nMSG: builtin_interfaces/Time\n"));
        assert!(state.contains("\nMSG: checkers_msgs/Move\n"));
        assert_eq!(state.matches("MSG: checkers_msgs/Move\n").count(), 1);
    }
}
