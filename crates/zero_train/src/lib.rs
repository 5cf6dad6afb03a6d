//! Training the AlphaZero generations (`zero-train`): batched self-play and matches
//! ([`games`]), training rounds ([`train`]), and the loop with gating, cards and resume
//! ([`run`]).

pub mod games;
pub mod run;
pub mod train;
