//! The arbiter's logic, without ROS: which legal move the human made, judged from the board's
//! occupancy alone ([`infer`](mod@infer)); the game record, persisted ply by ply so a restarted arbiter
//! resumes the same game, and archived as PDN when it ends ([`record`]); the referee's
//! decisions on each reading and request ([`referee`]), with typed statuses and event kinds
//! ([`kinds`]).
//!
//! The node over ROS ([`node`]) is one state machine, `Arbiter`, whose methods are the game
//! loop's steps; [`settings`] holds its parameters and [`error`] why a step failed.
//!
//! The rules engine (`draughts`) decides every question of legality; nothing here re-implements
//! a rule.

pub mod error;
mod health;
pub mod infer;
pub mod kinds;
mod markers;
pub mod node;
pub mod record;
pub mod referee;
mod services;
pub mod settings;

pub use infer::{infer, Inference};
pub use record::{GameRecord, RecordError, Resume, StateDir};
