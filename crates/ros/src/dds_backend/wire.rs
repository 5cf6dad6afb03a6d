//! The bridge between our generated message types and ros2-client's `Message` trait, which the
//! orphan rule keeps us from implementing on `checkers_msgs` types directly.

use checkers_msgs::Interface;
use serde::{Deserialize, Serialize};

/// A message on the wire: serializes exactly as the message it wraps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Wire<T>(pub T);

impl<T: Interface> ros2_client::Message for Wire<T> {}
