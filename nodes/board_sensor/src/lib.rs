//! The board sensor node: it owns the field controller's serial link (reopening the port and
//! reconnecting when it is lost), trusts a reading only when two consecutive scans agree, maps
//! sensors to squares through its configuration, publishes `/board/occupancy` when the human
//! presses confirm and serves `/board/scan`.

pub mod field_link;
mod health;
pub mod node;
pub mod reading;
pub mod sensor_map;
