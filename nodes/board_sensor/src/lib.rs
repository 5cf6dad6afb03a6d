//! The board sensor node: it owns the field controller's serial link (reopening the port and
//! reconnecting when it is lost), trusts a reading only when two consecutive scans agree, maps
//! sensors to squares through its configuration, publishes `/board/occupancy` when the human
//! presses confirm and serves `/board/scan`.
//!
//! # Example
//!
//! From raw Hall-sensor scans to the occupancy of squares: a scan counts only once the next one
//! agrees with it, and the wiring order of the sensors is mapped to PDN squares.
//!
//! ```
//! use board_sensor::{Agreement, SensorMap};
//!
//! let mut scans = Agreement::default();
//! assert_eq!(scans.push(0b0111), None);
//! assert_eq!(scans.push(0b0101), None, "a sensor flickered: no reading yet");
//! assert_eq!(scans.push(0b0101), Some(0b0101));
//!
//! // A board wired backwards: sensor 0 lies under square 32, sensor 2 under square 30.
//! let backwards: Vec<i64> = (1..=32).rev().collect();
//! let map = SensorMap::new(&backwards)?;
//! assert_eq!(map.occupancy(0b0101), 1 << 31 | 1 << 29);
//! # Ok::<(), board_sensor::MapError>(())
//! ```

mod field_link;
mod health;
mod node;
mod reading;
mod sensor_map;

// The node over ROS.
pub use node::run;

// From raw scans to occupancy: two scans that agree, and the sensors' squares.
pub use reading::Agreement;
pub use sensor_map::{MapError, SensorMap};
