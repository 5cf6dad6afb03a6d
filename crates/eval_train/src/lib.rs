//! Training alpha-beta's learned evaluation correction (`search::alphabeta::net`):
//! [`data`] makes the labelled positions (games between alpha-beta and MCTS, each quiet
//! position scored by a fresh MCTS search), [`model`] fits the network with `burn` and exports
//! it in the planner's text format. [`selfplay`] and [`patterns_fit`] do the same for the
//! pattern evaluation (`search::alphabeta::patterns`): fast self-play games, then logistic
//! regression on their results; [`net_fit`] fits the network on those same positions, at
//! scale, over either evaluation. The `eval-train` binary drives them all; `docs/planners.md`
//! has the commands and the figures.

pub mod data;
pub mod model;
pub mod net_fit;
pub mod patterns_fit;
pub mod selfplay;
