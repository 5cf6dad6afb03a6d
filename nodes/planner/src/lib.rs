//! The planner node: the `/planner/plan` action over the search library ([`search`]) and its
//! parameters, which a difficulty level of `config/difficulty/*.yaml` gives ([`search::Level`]).

pub mod node;
pub mod ponder;
