//! Our QoS profiles (`crate::qos`) as rcl's, the same as ros2-client's (`dds_backend::qos`).

use r2r::QosProfile;

use crate::qos::Qos;

pub(crate) fn profile(qos: Qos) -> QosProfile {
    match qos {
        Qos::State => QosProfile::default()
            .reliable()
            .transient_local()
            .keep_last(1),
        Qos::Events => QosProfile::default().reliable().volatile().keep_last(32),
        Qos::Sensor => QosProfile::sensor_data()
            .best_effort()
            .volatile()
            .keep_last(1),
    }
}

/// rmw's default service profile (reliable, volatile, a queue of 10), as the default backend
/// uses. Action servers and clients take rcl_action's defaults, which r2r does not expose and
/// which are the same profiles (the status topic transient local).
pub(crate) fn service() -> QosProfile {
    QosProfile::services_default()
}
