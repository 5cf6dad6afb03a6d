//! The robot's character (section 3.6 and Figure 3 of the robot paper): what it feels about the
//! game, how its face shows it, and what it says. A library without ROS: the expression node
//! feeds it the planner's evaluations and the arbiter's events and draws what it returns.
//!
//! - [`emotion`]: the emotion model (win probability, its change, events, attitude, hysteresis);
//! - [`eyes`]: the two 8x8 LED eyes of each emotion, pupils, blinking;
//! - [`pose`]: brow servo angles and the neck's pan and tilt;
//! - [`phrases`]: what it says, in English and Russian, without repeating itself;
//! - [`voice`]: speaking a phrase through espeak-ng when it is installed;
//! - [`face`]: all of it together, as the node drives it;
//! - [`node`]: the ROS node around it (`run`), with the head controller's serial link.

pub mod emotion;
pub mod eyes;
pub mod face;
pub mod head_link;
mod health;
pub mod node;
pub mod phrases;
pub mod pose;
pub mod voice;

pub use emotion::{Attitude, Emotion, EmotionModel, GameEvent, Side};
pub use eyes::{Eye, Gaze};
pub use phrases::{Language, PhraseBook, Situation};
