//! The few QoS profiles the graph uses (each backend maps them onto its own: `dds_backend::qos`,
//! `r2r_backend::qos`). Both ends of a topic must use the same one (a
//! TransientLocal writer only reaches a late reader that asks for TransientLocal too).

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
