//! The arbiter's logic, without ROS: which legal move the human made, judged from the board's
//! occupancy alone ([`infer`]); the game record, persisted ply by ply so a restarted arbiter
//! resumes the same game, and archived as PDN when it ends ([`record`]).
//!
//! The rules engine (`draughts`) decides every question of legality; nothing here re-implements
//! a rule.

pub mod infer;
pub mod kinds;
mod markers;
pub mod node;
pub mod record;
pub mod referee;

pub use infer::{infer, Inference};
pub use record::{GameRecord, RecordError, Resume, StateDir};
