//! What the window knows of the graph, for a page or a Foxglove client that opens now: the
//! latest message of each topic, the current game's events and evaluations (so a page opened
//! mid-game has the move list and the plot), each node's latest diagnostics, the arm's pose.
//! Every new sample is also broadcast to the open sessions.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use graph_client::tap::Sample;
use tokio::sync::broadcast;

use crate::arm_view::ArmView;

/// How often at most the page is sent the arm's pose (the arm publishes at 50 Hz).
const ARM_PERIOD: Duration = Duration::from_millis(100);
/// The events (and evaluations) kept of one game; a game has a few hundred.
const MAX_GAME_EVENTS: usize = 4_000;
/// How far a slow session may fall behind before it loses the oldest updates.
const BACKLOG: usize = 1_024;
/// GameEvent.kind of a new game.
const KIND_NEW_GAME: u64 = 1;

/// One thing a session is told.
#[derive(Debug, Clone)]
pub enum Update {
    Sample(Sample),
    /// The page's `arm` message.
    Arm(Arc<serde_json::Value>),
}

/// A sample of the game so far, kept as its CDR alone: a page opening mid-game is rare, and its
/// JSON, a tree of small allocations several times the size of the CDR, was most of what the
/// window held in a long game (docs/soak.md, "What grew, found and mended").
#[derive(Debug)]
struct Kept {
    topic: &'static graph_client::tap::Topic,
    stamp_ns: u64,
    cdr: Arc<[u8]>,
}

impl Kept {
    fn of(s: &Sample) -> Kept {
        Kept {
            topic: s.topic,
            stamp_ns: s.stamp_ns,
            cdr: s.cdr.clone(),
        }
    }

    /// The sample again; it decoded once, so it decodes again.
    fn sample(&self) -> Option<Sample> {
        let json = self.topic.decode(&self.cdr).ok()?;
        Some(Sample {
            topic: self.topic,
            stamp_ns: self.stamp_ns,
            cdr: self.cdr.clone(),
            json: Arc::new(json),
        })
    }
}

#[derive(Debug, Default)]
struct Known {
    latest: BTreeMap<&'static str, Sample>,
    /// Each node's latest `/diagnostics`, by the name of its first status.
    diagnostics: BTreeMap<String, Sample>,
    events: Vec<Kept>,
    evaluations: Vec<Kept>,
    game_id: Option<u64>,
    joints: BTreeMap<String, f64>,
    arm: Option<Arc<serde_json::Value>>,
    arm_sent: Option<Instant>,
}

/// Keeps one more sample of the game, the oldest given up past [`MAX_GAME_EVENTS`].
fn keep(kept: &mut Vec<Kept>, sample: &Sample) {
    if kept.len() >= MAX_GAME_EVENTS {
        kept.remove(0);
    }
    kept.push(Kept::of(sample));
}

/// Shared by the tap (or a replay) and every session.
#[derive(Debug)]
pub struct Hub {
    known: Mutex<Known>,
    tx: broadcast::Sender<Update>,
    arm: Option<ArmView>,
}

impl Hub {
    pub fn new(arm: Option<ArmView>) -> Arc<Hub> {
        Arc::new(Hub {
            known: Mutex::default(),
            tx: broadcast::channel(BACKLOG).0,
            arm,
        })
    }

    /// The robot's geometry, when its configs were found.
    pub fn arm_view(&self) -> Option<&ArmView> {
        self.arm.as_ref()
    }

    fn known(&self) -> MutexGuard<'_, Known> {
        // A session that panicked while holding the lock left the data as it was: use it.
        self.known.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes in one sample of the graph and tells every session.
    pub fn publish(&self, sample: Sample) {
        let arm = {
            let mut k = self.known();
            let json = &sample.json;
            match sample.topic.name {
                "/game/events" => {
                    if json["kind"].as_u64() == Some(KIND_NEW_GAME) {
                        k.events.clear();
                        k.evaluations.clear();
                    }
                    keep(&mut k.events, &sample);
                }
                "/planner/evaluation" => keep(&mut k.evaluations, &sample),
                "/diagnostics" => {
                    let name = json["status"][0]["name"].as_str().unwrap_or("").to_string();
                    k.diagnostics.insert(name, sample.clone());
                }
                "/game/state" => {
                    let id = json["game_id"].as_u64();
                    if k.game_id.is_some() && k.game_id != id {
                        k.events.clear();
                        k.evaluations.clear();
                    }
                    k.game_id = id;
                    k.latest.insert(sample.topic.name, sample.clone());
                }
                name => {
                    k.latest.insert(name, sample.clone());
                }
            }
            if sample.topic.name == "/joint_states" {
                self.joint_states(&mut k, json)
            } else {
                None
            }
        };
        let _ = self.tx.send(Update::Sample(sample));
        if let Some(arm) = arm {
            let _ = self.tx.send(Update::Arm(arm));
        }
    }

    /// Merges a `/joint_states` (the arm's and the head's come apart) and, at most every
    /// [`ARM_PERIOD`], the arm's new pose.
    fn joint_states(
        &self,
        k: &mut Known,
        json: &serde_json::Value,
    ) -> Option<Arc<serde_json::Value>> {
        let view = self.arm.as_ref()?;
        let names = json["name"].as_array()?;
        let positions = json["position"].as_array()?;
        for (n, p) in names.iter().zip(positions) {
            if let (Some(n), Some(p)) = (n.as_str(), p.as_f64()) {
                k.joints.insert(n.to_string(), p);
            }
        }
        let now = Instant::now();
        if k.arm_sent
            .is_some_and(|t| now.duration_since(t) < ARM_PERIOD)
        {
            return None;
        }
        k.arm_sent = Some(now);
        let pose = Arc::new(view.pose(&k.joints));
        k.arm = Some(pose.clone());
        Some(pose)
    }

    /// The joint angles seen so far.
    pub fn joints(&self) -> BTreeMap<String, f64> {
        self.known().joints.clone()
    }

    /// What a session opening now is told first: the latest of each topic, the diagnostics,
    /// the game's events and evaluations in order, the arm's pose.
    pub fn snapshot(&self) -> Vec<Update> {
        let k = self.known();
        let mut out: Vec<Update> = k.latest.values().cloned().map(Update::Sample).collect();
        out.extend(k.diagnostics.values().cloned().map(Update::Sample));
        let game = k.events.iter().chain(&k.evaluations);
        out.extend(game.filter_map(Kept::sample).map(Update::Sample));
        out.extend(k.arm.clone().map(Update::Arm));
        out
    }

    /// Every update from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Update> {
        self.tx.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers_msgs::msg::{GameEvent, GameState};
    use graph_client::tap::{find, sample};

    fn event(kind: u8, text: &str) -> Sample {
        let e = GameEvent {
            kind,
            text: text.into(),
            ..Default::default()
        };
        sample(find("/game/events").expect("topic"), &e)
    }

    fn state(game_id: u32, ply: u32) -> Sample {
        let s = GameState {
            game_id,
            ply,
            ..Default::default()
        };
        sample(find("/game/state").expect("topic"), &s)
    }

    fn texts(hub: &Hub) -> Vec<String> {
        hub.snapshot()
            .into_iter()
            .filter_map(|u| match u {
                Update::Sample(s) if s.topic.name == "/game/events" => {
                    s.json["text"].as_str().map(str::to_string)
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_late_page_gets_the_game_so_far_and_the_latest_state() {
        let hub = Hub::new(None);
        hub.publish(state(1, 0));
        hub.publish(event(1, "new"));
        hub.publish(event(3, "c3-d4"));
        hub.publish(state(1, 1));
        assert_eq!(texts(&hub), ["new", "c3-d4"]);
        let states: Vec<_> = hub
            .snapshot()
            .into_iter()
            .filter_map(|u| match u {
                Update::Sample(s) if s.topic.name == "/game/state" => s.json["ply"].as_u64(),
                _ => None,
            })
            .collect();
        assert_eq!(states, [1]);
    }

    #[test]
    fn a_new_game_starts_a_new_move_list() {
        let hub = Hub::new(None);
        hub.publish(state(1, 0));
        hub.publish(event(3, "c3-d4"));
        hub.publish(state(2, 0));
        assert!(texts(&hub).is_empty());
        hub.publish(event(3, "e3-f4"));
        hub.publish(event(1, "new"));
        assert_eq!(texts(&hub), ["new"]);
    }
}
