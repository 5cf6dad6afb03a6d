//! The few QoS profiles the graph uses. Both ends of a topic must use the same one (a
//! TransientLocal writer only reaches a late reader that asks for TransientLocal too).

use ros2_client::qos::{Durability, History, WhenFull};
use ros2_client::QosProfile;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Qos {
    /// Latched state (`/game/state`, `/board/occupancy`): reliable, the last sample kept for
    /// late joiners.
    State,
    /// Events and commands: reliable, a short queue, nothing kept for late joiners.
    Events,
    /// High-rate streams (`/joint_states`): best effort, only the newest sample matters.
    Sensor,
}

impl Qos {
    pub fn profile(self) -> QosProfile {
        match self {
            Qos::State => QosProfile::publisher_default()
                .reliability_reliable(WhenFull::DEFAULT)
                .durability(Durability::TransientLocal)
                .history(History::KeepLast { depth: 1 }),
            Qos::Events => QosProfile::publisher_default()
                .reliability_reliable(WhenFull::DEFAULT)
                .durability(Durability::Volatile)
                .history(History::KeepLast { depth: 32 }),
            Qos::Sensor => QosProfile::subscription_default()
                .reliability_best_effort()
                .durability(Durability::Volatile)
                .history(History::KeepLast { depth: 1 }),
        }
    }
}
