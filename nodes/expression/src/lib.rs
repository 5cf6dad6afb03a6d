//! The robot's character (section 3.6 and Figure 3 of the robot paper): what it feels about the
//! game, how its face shows it, and what it says. A library without ROS: the expression node
//! feeds it the planner's evaluations and the arbiter's events and draws what it returns.
//!
//! - [`EmotionModel`]: the emotion model (win probability, its change, events, attitude,
//!   hysteresis);
//! - [`eyes()`]: the two 8x8 LED eyes of each emotion, pupils, blinking;
//! - [`pose()`]: brow servo angles and the neck's pan and tilt;
//! - [`PhraseBook`]: what it says, in English and Russian, without repeating itself;
//! - [`Voice`]: speaking a phrase through espeak-ng when it is installed;
//! - [`Face`]: all of it together, as the node drives it;
//! - [`run`]: the ROS node around it, with the head controller's serial link
//!   ([`start_head_link`]).
//!
//! # Example
//!
//! A rival robot's feelings over a few moments of a game, and the eyes it shows for them.
//!
//! ```
//! use expression::{eyes, Attitude, Emotion, EmotionModel, GameEvent, Gaze};
//!
//! let mut robot = EmotionModel::new(Attitude::Negative);
//! assert_eq!(robot.on_event(&GameEvent::Capture { by_robot: true }), Emotion::Happy);
//! assert_eq!(robot.on_evaluation(0.5), Emotion::Neutral, "an even game");
//! // The human erred: the win probability jumps, and the robot is surprised ...
//! assert_eq!(robot.on_evaluation(0.9), Emotion::Surprise);
//! // ... then, still winning, glad of it.
//! assert_eq!(robot.on_evaluation(0.9), Emotion::Happy);
//! assert_eq!(robot.on_event(&GameEvent::IllegalMove), Emotion::Angry);
//!
//! let (left, right) = eyes(Emotion::Angry, Gaze::Player, false);
//! assert_eq!(right, left.mirrored(), "a frown is symmetric");
//! ```

mod emotion;
mod eyes;
mod face;
mod head_link;
mod health;
mod node;
mod phrases;
mod pose;
mod voice;

// The node over ROS, and the head controller's link over any byte stream (a test's pipe).
pub use head_link::start_with as start_head_link;
pub use node::run;

// What the robot feels.
pub use emotion::{Attitude, Emotion, EmotionModel, GameEvent, Side};

// How its face shows it: the eyes, the brows and the neck.
pub use eyes::{eyes, Eye, Gaze};
pub use pose::{pose, BOARD_TILT_DEG, NECK_RATE_DEG_S};

// What it says, and the voice it says it in.
pub use phrases::{list_squares, Language, PhraseBook, Situation};
pub use voice::Voice;

// All of it together, as the node drives it.
pub use face::{Activity, Face};
