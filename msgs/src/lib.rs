//! Rust types of the `checkers_msgs` ROS 2 interfaces, and of the few standard interfaces the
//! graph uses, generated at build time from the interface files (see `build.rs`).
//!
//! Layout mirrors ROS naming:
//! - `checkers_msgs::msg::GameState`, `checkers_msgs::srv::ScanBoard_Request` /
//!   `ScanBoard_Response`, `checkers_msgs::action::PlanMove_Goal` / `_Result` / `_Feedback`;
//!   `srv::ScanBoard` and `action::PlanMove` name a service or action as a whole.
//! - a module per standard package: `builtin_interfaces::msg::Time`,
//!   `std_msgs::msg::{Header, String, ColorRGBA, Empty}`, `geometry_msgs::msg::Pose`,
//!   `sensor_msgs::msg::JointState`, `visualization_msgs::msg::MarkerArray`, ...
//!
//! Every struct serializes with serde to the CDR layout of its ROS 2 counterpart (fields in file
//! order; `[T; N]` for fixed arrays, `Vec<T>` for the others), carries the file's constants as
//! associated constants, and implements [`Interface`].
//!
//! # Example
//!
//! A move as the graph carries it, checked against its interface file's bounds; with the
//! feature `draughts`, to and from the rules engine's move.
//!
//! ```
//! use checkers_msgs::msg::Move;
//! use checkers_msgs::Interface;
//!
//! assert_eq!(Move::ROS_TYPE, "checkers_msgs/msg/Move");
//! assert_eq!(checkers_msgs::type_hash(Move::ROS_TYPE), Some(Move::TYPE_HASH));
//!
//! // c3-d4: PDN squares 22 to 18.
//! let c3d4 = Move {
//!     from_square: 22,
//!     to_square: 18,
//!     path: vec![18],
//!     text: "c3-d4".into(),
//!     ..Move::default()
//! };
//! assert_eq!(c3d4.check_bounds(), Ok(()));
//! let too_long = Move { path: vec![18; 13], ..c3d4.clone() };
//! let refused = too_long.check_bounds().err().map(|e| e.to_string());
//! assert_eq!(
//!     refused.as_deref(),
//!     Some("checkers_msgs/msg/Move.path: 13 elements, at most 12 allowed")
//! );
//!
//! #[cfg(feature = "draughts")]
//! {
//!     use checkers_msgs::convert::{find_move, move_msg};
//!
//!     let start = draughts::Position::start();
//!     let played = start.legal_moves().into_iter().find(|m| m.text() == "c3-d4");
//!     assert_eq!(played.as_ref().map(move_msg), Some(c3d4.clone()));
//!     assert_eq!(Some(find_move(&start, &c3d4)?), played);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

include!(concat!(env!("OUT_DIR"), "/interfaces.rs"));

pub mod names;

/// Between the rules engine's types and the messages.
#[cfg(feature = "draughts")]
pub mod convert;

// The parser that build.rs uses, compiled here too so its unit tests run with the crate's.
#[cfg(test)]
#[allow(dead_code)]
#[path = "../idl/parse.rs"]
mod idl_parse;
#[cfg(test)]
#[path = "../idl/parse_tests.rs"]
mod idl_parse_tests;

use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::Serialize;

/// A generated message type (a message, or one part of a service or action).
pub trait Interface:
    Serialize + DeserializeOwned + Clone + Debug + Default + PartialEq + Send + Sync + 'static
{
    /// The ROS package, e.g. `"checkers_msgs"`.
    const PACKAGE: &'static str;
    /// The type's name in its package, e.g. `"GameState"` or `"ScanBoard_Request"`.
    const NAME: &'static str;
    /// The DDS type name, e.g. `"checkers_msgs::msg::dds_::GameState_"`.
    const TYPE_NAME: &'static str;
    /// The ROS 2 type name, e.g. `"checkers_msgs/msg/GameState"`.
    const ROS_TYPE: &'static str;
    /// The RIHS01 hash of the type, as rosidl computes it, e.g. `"RIHS01_7450…"`.
    const TYPE_HASH: &'static str;
    /// The `ros2msg` schema of a message (its file, then the messages it uses, as rosbag2
    /// writes them into MCAP and Foxglove reads them); "" for the parts of services and
    /// actions, which are never recorded.
    const DEFINITION: &'static str = "";

    /// Checks every bounded array (`T[<=N]`) and string (`string<=N`), nested messages included,
    /// because serde and CDR accept any length while a ROS 2 peer may reject or truncate it.
    fn check_bounds(&self) -> Result<(), BoundsError>;
}

/// A service as a whole: the ROS layer builds its DDS names from `PACKAGE` and `NAME`.
pub trait ServiceInterface: Copy + Default + Debug + Send + Sync + 'static {
    type Request: Interface;
    type Response: Interface;
    /// The ROS package, e.g. `"checkers_msgs"`.
    const PACKAGE: &'static str;
    /// The service name, e.g. `"ScanBoard"`.
    const NAME: &'static str;
    /// e.g. `"checkers_msgs::srv::dds_::ScanBoard_"`.
    const TYPE_NAME: &'static str;
    /// e.g. `"checkers_msgs/srv/ScanBoard"`.
    const ROS_TYPE: &'static str;
}

/// An action as a whole: the ROS layer builds its DDS names from `PACKAGE` and `NAME`.
pub trait ActionInterface: Copy + Default + Debug + Send + Sync + 'static {
    type Goal: Interface;
    type Result: Interface;
    type Feedback: Interface;
    /// The ROS package, e.g. `"checkers_msgs"`.
    const PACKAGE: &'static str;
    /// The action name, e.g. `"PlanMove"`.
    const NAME: &'static str;
    /// e.g. `"checkers_msgs::action::dds_::PlanMove_"`.
    const TYPE_NAME: &'static str;
    /// e.g. `"checkers_msgs/action/PlanMove"`.
    const ROS_TYPE: &'static str;
}

/// The RIHS01 hash of the ROS type `ros_type` (`"pkg/msg/T"`, `"pkg/srv/S_Request"`,
/// `"pkg/action/A_SendGoal_Request"`, ...), for the types this crate knows.
pub fn type_hash(ros_type: &str) -> Option<&'static str> {
    TYPE_HASHES
        .binary_search_by(|(name, _)| (*name).cmp(ros_type))
        .ok()
        .map(|i| TYPE_HASHES[i].1)
}

/// What a bound counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoundUnit {
    /// Elements of a `T[<=N]` array.
    Elements,
    /// Bytes of a `string<=N` (ROS 2 bounds strings in bytes of UTF-8).
    Bytes,
}

impl std::fmt::Display for BoundUnit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Elements => "elements",
            Self::Bytes => "bytes",
        })
    }
}

/// A bounded field holds more than its interface file allows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{type_name}.{field}: {len} {unit}, at most {max} allowed")]
pub struct BoundsError {
    /// The ROS type that declares the field, e.g. `"checkers_msgs/msg/Move"`.
    pub type_name: &'static str,
    /// The field's name in the interface file, e.g. `"path"`.
    pub field: &'static str,
    pub unit: BoundUnit,
    pub len: usize,
    pub max: usize,
}
