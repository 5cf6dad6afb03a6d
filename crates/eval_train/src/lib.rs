//! Training alpha-beta's learned evaluation correction (`search::alphabeta::net`):
//! [`data`] makes the labelled positions (games between alpha-beta and MCTS, each quiet
//! position scored by a fresh MCTS search), [`model`] fits the network with `burn` and exports
//! it in the planner's text format. The `eval-train` binary drives both; `docs/planners.md`
//! has the commands and the figures.

pub mod data;
pub mod model;
