//! The simulated hardware: the physical world (pieces, the arm and its pump, the head) under
//! the controllers' own firmware (`firmware_core`), each controller on a pseudo-terminal, so
//! the real driver nodes run unchanged against it; a simulated human; fault injection.
//! docs/sim.md describes it for users; [`node::run`] is the node.

pub mod emulated;
pub mod faults;
pub mod hardware;
pub mod human;
pub mod markers;
pub mod node;
pub mod rng;
pub mod serve;
pub mod settings;
pub mod setup;
pub mod state;
pub mod world;
