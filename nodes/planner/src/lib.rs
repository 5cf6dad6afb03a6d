//! The planner node: the `/planner/plan` action over the search library ([`search`]), its
//! parameters, and the difficulty levels of `config/difficulty/*.yaml` ([`difficulty`]).

pub mod difficulty;
pub mod node;
pub mod ponder;
