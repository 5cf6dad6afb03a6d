//! Training the AlphaZero generations (`zero-train`): batched self-play and matches
//! ([`games`]), training rounds ([`train`]), the replay window on disk ([`replay`]), the warm
//! start from alpha-beta's games ([`warm`]), and the loop with gating, cards and resume
//! ([`run`]).

pub mod games;
pub mod replay;
pub mod run;
pub mod train;
pub mod warm;
