//! Foxglove's WebSocket protocol (`foxglove.websocket.v1`), so Foxglove and Lichtblick open
//! the live graph: every topic of the graph's table advertised with its ROS 2 schema
//! (`ros2msg`) and sent as CDR, plus `/tf` from the arm's joints and `/robot_description`,
//! the URDF, for the 3D panel. Read-only: the server offers no capability by which a client
//! could publish, call a service or set a parameter.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use axum::extract::ws::{Message, WebSocket};
use checkers_msgs::builtin_interfaces::msg::Time;
use checkers_msgs::std_msgs::msg::String as StringMsg;
use checkers_msgs::tf2_msgs::msg::TFMessage;
use checkers_msgs::Interface;
use futures::{SinkExt, StreamExt};
use graph_client::tap::{cdr, TOPICS};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::broadcast;

use crate::hub::{Hub, Update};

/// The subprotocol a Foxglove client asks for.
pub const SUBPROTOCOL: &str = "foxglove.websocket.v1";
/// The binary opcode of a message on a subscribed channel.
const MESSAGE_DATA: u8 = 0x01;
/// A client's text is a subscribe or unsubscribe of a few channels.
const MAX_CLIENT_TEXT: usize = 64 * 1024;

const TF: &str = "/tf";
const ROBOT_DESCRIPTION: &str = "/robot_description";

/// One advertised channel.
#[derive(Debug, Clone)]
struct Channel {
    id: u32,
    topic: &'static str,
    ros_type: &'static str,
    schema: &'static str,
}

/// The graph's topics, then `/tf` and `/robot_description` when the robot's geometry is known.
fn channels(with_arm: bool) -> Vec<Channel> {
    let mut out: Vec<Channel> = TOPICS
        .iter()
        .map(|t| (t.name, t.ros_type, t.definition))
        .chain(
            with_arm
                .then_some([
                    (TF, TFMessage::ROS_TYPE, TFMessage::DEFINITION),
                    (
                        ROBOT_DESCRIPTION,
                        StringMsg::ROS_TYPE,
                        StringMsg::DEFINITION,
                    ),
                ])
                .into_iter()
                .flatten(),
        )
        .zip(1u32..)
        .map(|((topic, ros_type, schema), id)| Channel {
            id,
            topic,
            ros_type,
            schema,
        })
        .collect();
    out.sort_by_key(|c| c.id);
    out
}

#[derive(Debug, Deserialize)]
#[serde(tag = "op", rename_all = "camelCase")]
enum ClientOp {
    Subscribe {
        subscriptions: Vec<Subscription>,
    },
    Unsubscribe {
        #[serde(rename = "subscriptionIds")]
        subscription_ids: Vec<u32>,
    },
}

#[derive(Debug, Deserialize)]
struct Subscription {
    id: u32,
    #[serde(rename = "channelId")]
    channel_id: u32,
}

fn now_ns() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}

fn message_data(subscription: u32, stamp_ns: u64, payload: &[u8]) -> Message {
    let mut b = Vec::with_capacity(13 + payload.len());
    b.push(MESSAGE_DATA);
    b.extend_from_slice(&subscription.to_le_bytes());
    b.extend_from_slice(&stamp_ns.to_le_bytes());
    b.extend_from_slice(payload);
    Message::Binary(b.into())
}

fn status(level: u8, message: &str) -> Message {
    Message::Text(
        json!({"op": "status", "level": level, "message": message})
            .to_string()
            .into(),
    )
}

/// Serves one Foxglove client until it closes.
pub async fn run(socket: WebSocket, hub: Arc<Hub>) {
    let (mut tx, mut rx) = socket.split();
    let mut updates = hub.subscribe();
    let channels = channels(hub.arm_view().is_some());
    let info = json!({
        "op": "serverInfo",
        "name": "checkers_robot",
        "capabilities": [],
        "supportedEncodings": [],
        "metadata": {"ROS_DISTRO": "jazzy"},
        "sessionId": now_ns().to_string(),
    });
    let advertise = json!({
        "op": "advertise",
        "channels": channels.iter().map(|c| json!({
            "id": c.id,
            "topic": c.topic,
            "encoding": "cdr",
            "schemaName": c.ros_type,
            "schema": c.schema,
            "schemaEncoding": "ros2msg",
        })).collect::<Vec<_>>(),
    });
    for m in [info, advertise] {
        if tx.send(Message::Text(m.to_string().into())).await.is_err() {
            return;
        }
    }
    // channel id -> subscription id
    let mut subscribed: HashMap<u32, u32> = HashMap::new();
    let by_topic: HashMap<&str, u32> = channels.iter().map(|c| (c.topic, c.id)).collect();
    loop {
        let out: Vec<Message> = tokio::select! {
            u = updates.recv() => match u {
                Ok(Update::Sample(s)) => {
                    let mut out = Vec::new();
                    if let Some(sub) = by_topic.get(s.topic.name).and_then(|c| subscribed.get(c)) {
                        out.push(message_data(*sub, s.stamp_ns, &s.cdr));
                    }
                    if s.topic.name == "/joint_states" {
                        out.extend(tf(&hub, &by_topic, &subscribed, s.stamp_ns));
                    }
                    out
                }
                Ok(Update::Arm(_)) => continue,
                Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => break,
            },
            m = rx.next() => match m {
                Some(Ok(Message::Text(t))) if t.len() > MAX_CLIENT_TEXT => {
                    vec![status(2, "message too long")]
                }
                Some(Ok(Message::Text(t))) => match serde_json::from_str::<ClientOp>(t.as_str()) {
                    Ok(ClientOp::Subscribe { subscriptions }) => {
                        let mut out = Vec::new();
                        for s in subscriptions {
                            let Some(c) = channels.iter().find(|c| c.id == s.channel_id) else {
                                out.push(status(1, &format!("no channel {}", s.channel_id)));
                                continue;
                            };
                            subscribed.insert(c.id, s.id);
                            out.extend(latest(&hub, c, s.id, &by_topic, &subscribed));
                        }
                        out
                    }
                    Ok(ClientOp::Unsubscribe { subscription_ids }) => {
                        subscribed.retain(|_, sub| !subscription_ids.contains(sub));
                        continue;
                    }
                    Err(e) => vec![status(1, &format!("not supported (this server is read-only): {e}"))],
                },
                Some(Ok(Message::Binary(_))) => {
                    vec![status(1, "client publishing is not offered: the robot is read-only here")]
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => continue,
            },
        };
        for m in out {
            if tx.send(m).await.is_err() {
                return;
            }
        }
    }
}

/// What a new subscriber of `channel` is sent at once: the latest sample (latched state, the
/// last of a stream), the URDF, the arm's current TF.
fn latest(
    hub: &Hub,
    channel: &Channel,
    sub: u32,
    by_topic: &HashMap<&str, u32>,
    subscribed: &HashMap<u32, u32>,
) -> Vec<Message> {
    match channel.topic {
        ROBOT_DESCRIPTION => hub
            .arm_view()
            .map(|v| {
                let urdf = StringMsg {
                    data: v.urdf().to_string(),
                };
                message_data(sub, now_ns(), &cdr(&urdf))
            })
            .into_iter()
            .collect(),
        TF => tf(hub, by_topic, subscribed, now_ns())
            .into_iter()
            .collect(),
        topic => hub
            .snapshot()
            .into_iter()
            .filter_map(|u| match u {
                Update::Sample(s) if s.topic.name == topic => Some(s),
                _ => None,
            })
            .last()
            .map(|s| message_data(sub, s.stamp_ns, &s.cdr))
            .into_iter()
            .collect(),
    }
}

/// `/tf` for the joints seen so far, when subscribed.
fn tf(
    hub: &Hub,
    by_topic: &HashMap<&str, u32>,
    subscribed: &HashMap<u32, u32>,
    stamp_ns: u64,
) -> Option<Message> {
    let sub = by_topic.get(TF).and_then(|c| subscribed.get(c))?;
    let view = hub.arm_view()?;
    let stamp = Time {
        sec: i32::try_from(stamp_ns / 1_000_000_000).unwrap_or(i32::MAX),
        nanosec: u32::try_from(stamp_ns % 1_000_000_000).unwrap_or(0),
    };
    let msg = view.transforms(&hub.joints(), stamp);
    Some(message_data(*sub, stamp_ns, &cdr(&msg)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_topic_is_advertised_once_with_a_schema() {
        let c = channels(true);
        assert_eq!(c.len(), TOPICS.len() + 2);
        let mut ids: Vec<u32> = c.iter().map(|c| c.id).collect();
        ids.dedup();
        assert_eq!(ids.len(), c.len());
        assert!(c.iter().all(|c| !c.schema.is_empty()));
        assert!(c
            .iter()
            .any(|c| c.topic == TF && c.ros_type == "tf2_msgs/msg/TFMessage"));
        assert_eq!(channels(false).len(), TOPICS.len());
    }

    #[test]
    fn message_data_is_opcode_subscription_time_payload() {
        let Message::Binary(b) = message_data(7, 0x0102, &[9, 9]) else {
            panic!("binary");
        };
        assert_eq!(&b[..], &[1, 7, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0, 9, 9]);
    }
}
