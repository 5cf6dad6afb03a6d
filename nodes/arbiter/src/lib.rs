//! The arbiter's logic, without ROS: which legal move the human made, judged from the board's
//! occupancy alone ([`infer()`]); the game record, persisted ply by ply so a restarted arbiter
//! resumes the same game, and archived as PDN when it ends ([`GameRecord`], [`StateDir`]); the
//! referee's decisions on each reading and request ([`Referee`]), with typed statuses
//! ([`Status`]) and event kinds.
//!
//! The node over ROS ([`run`]) is one state machine, `Arbiter`, whose methods are the game
//! loop's steps, with typed parameters and typed reasons why a step failed.
//!
//! The rules engine (`draughts`) decides every question of legality; nothing here re-implements
//! a rule.
//!
//! # Example
//!
//! The human's move from what the Hall sensors see after confirm (bit n-1: square n occupied).
//!
//! ```
//! use arbiter::{infer, Inference};
//! use draughts::Position;
//!
//! let start = Position::start();
//! let before = start.occupancy_mask();
//! // The man on c3 (square 22) lifted and set down on d4 (18).
//! let moved = before & !(1 << 21) | 1 << 17;
//! assert!(matches!(infer(&start, moved), Inference::Move(m) if m.text() == "c3-d4"));
//! assert_eq!(infer(&start, before), Inference::NothingMoved);
//!
//! // Set down on e5 (15) instead: no legal move leaves that board, and e5 is the square to fix.
//! let too_far = before & !(1 << 21) | 1 << 14;
//! match infer(&start, too_far) {
//!     Inference::Illegal { wrong_squares, .. } => assert_eq!(wrong_squares, [15]),
//!     other => panic!("expected an illegal move, got {other:?}"),
//! }
//! ```

mod error;
mod health;
mod infer;
mod kinds;
mod markers;
mod node;
mod record;
mod referee;
mod services;
mod settings;

// The node: the game loop over the ROS graph.
pub use node::run;

// The human's move, inferred from the board's occupancy.
pub use infer::{infer, squares_of, Inference};

// The game record, saved ply by ply and archived as PDN.
pub use record::{GameRecord, ReadingId, RecordError, Resume, StateDir};

// The referee's decisions and the game's status.
pub use kinds::Status;
pub use referee::{Referee, RefereeError};
