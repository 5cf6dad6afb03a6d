//! Driving the running robot graph from the command line: [`client`] talks to it over ROS
//! (game state, events, face, voice; the simulated human and the game services), [`sim`]
//! launches the simulated robot as child processes through `checkers-robot launch`.
//! `watch` and `play` build on these; the whole-graph tests include the two files directly.

pub mod client;
pub mod sim;
