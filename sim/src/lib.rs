//! The simulated hardware: the physical world (pieces, the arm and its pump, the head) under
//! the controllers' own firmware (`firmware_core`), each controller on a pseudo-terminal, so
//! the real driver nodes run unchanged against it; a simulated human; fault injection.
//! docs/sim.md describes it for users; [`node::run`] is the node.
//!
//! # Example
//!
//! The simulated table: the human plays c3-d4 by hand, setting the man down a little off the
//! centre of d4; the Hall sensors see presence only, within their tolerance of a square.
//!
//! ```
//! use arm_kinematics::BoardConfig;
//! use draughts::{Color, Game};
//! use sim::world::World;
//!
//! let mut game = Game::new();
//! let mut table = World::new(BoardConfig::builtin()?, game.position(), Color::Black);
//! assert_eq!(table.presence(0.005), game.position().occupancy_mask());
//!
//! let man = table.lift("c3".parse()?)?;
//! table.put(man, "d4".parse()?, 0.003, false);
//! game.play_text("c3-d4")?;
//! assert_eq!(table.position(Color::Black)?, *game.position());
//! assert_eq!(table.presence(0.005), game.position().occupancy_mask());
//! // Sensors that need the piece within 2 mm miss it on d4 (square 18).
//! let d4 = 1 << 17;
//! assert_eq!(table.presence(0.002), game.position().occupancy_mask() & !d4);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod emulated;
pub mod faults;
pub mod hardware;
pub mod human;
pub mod human_error;
pub mod markers;
pub mod node;
pub mod rng;
pub mod serve;
pub mod settings;
pub mod setup;
pub mod state;
pub mod world;
