//! Our QoS profiles as ros2-client's, the same as rcl's (`r2r_backend::qos`).

use ros2_client::action::{ActionClientQosPolicies, ActionServerQosPolicies};
use ros2_client::qos::{Durability, History, WhenFull};
use ros2_client::QosProfile;

use crate::qos::Qos;

/// Our profile as ros2-client's.
pub(crate) fn profile(qos: Qos) -> QosProfile {
    match qos {
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

/// Services, as rmw's default service profile: reliable, volatile, a queue of 10.
pub(crate) fn service() -> QosProfile {
    QosProfile::publisher_default()
        .reliability_reliable(WhenFull::DEFAULT)
        .durability(Durability::Volatile)
        .history(History::KeepLast { depth: 10 })
}

/// Only an action's status topic keeps its last sample (as rcl_action does); a TransientLocal
/// request reader would not match ROS 2's volatile request writers.
fn action_status() -> QosProfile {
    QosProfile::publisher_default()
        .reliability_reliable(WhenFull::DEFAULT)
        .durability(Durability::TransientLocal)
        .history(History::KeepLast { depth: 1 })
}

pub(crate) fn action_server() -> ActionServerQosPolicies {
    ActionServerQosPolicies {
        goal_service: service(),
        result_service: service(),
        cancel_service: service(),
        feedback_publisher: service(),
        status_publisher: action_status(),
    }
}

pub(crate) fn action_client() -> ActionClientQosPolicies {
    ActionClientQosPolicies {
        goal_service: service(),
        result_service: service(),
        cancel_service: service(),
        feedback_subscription: service(),
        status_subscription: action_status(),
    }
}
