//! Driving and watching the running robot graph from outside it:
//! - [`client`]: a node that reads the game state, events, face, voice and evaluations, and
//!   calls the game's services and the simulated human (`play`, `watch`, the web window, the
//!   whole-graph tests);
//! - [`tap`]: every topic of the graph as it goes by, each message as the CDR a recording or
//!   Foxglove carries and as JSON for a page, with its `ros2msg` schema; and back from CDR
//!   when a recording is replayed.
//!
//! # Example
//!
//! A message of the graph as the tap hands it on: CDR for a recording, JSON for a page, and
//! the recorded CDR back to the same JSON.
//!
//! ```
//! use checkers_msgs::std_msgs::msg::String as StringMsg;
//! use graph_client::tap::{self, CDR_LE_HEADER};
//!
//! let topic = tap::find("/voice/say").expect("a topic of the graph");
//! assert_eq!(topic.ros_type, "std_msgs/msg/String");
//! let said = tap::sample(topic, &StringMsg { data: "Your move".into() });
//! assert_eq!(said.json["data"], "Your move");
//! assert!(said.cdr.starts_with(&CDR_LE_HEADER));
//! assert_eq!(topic.decode(&said.cdr)?, *said.json);
//! # Ok::<(), graph_client::tap::TapError>(())
//! ```

pub mod client;
mod error;
pub mod tap;

pub use error::{GraphError, Result};
