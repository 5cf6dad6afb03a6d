//! The planner node: the `/planner/plan` action over the search library ([`search`]) and its
//! parameters, which a difficulty level of `config/difficulty/*.yaml` gives ([`search::Level`]).
//!
//! # Example
//!
//! The game a `/planner/plan` goal describes: replayed from its history, so that the draw
//! rules count every position; a history that does not lead to the goal's position is dropped.
//!
//! ```
//! use checkers_msgs::action::PlanMove_Goal;
//! use checkers_msgs::convert::position_msg;
//! use draughts::Game;
//! use planner::goal_game;
//!
//! let mut played = Game::new();
//! played.play_text("c3-d4")?;
//! played.play_text("f6-e5")?;
//! let goal = PlanMove_Goal {
//!     position: position_msg(played.position()),
//!     history: vec!["c3-d4".into(), "f6-e5".into()],
//!     ..PlanMove_Goal::default()
//! };
//! let game = goal_game(&goal)?;
//! assert_eq!((game.position(), game.positions().len()), (played.position(), 3));
//! assert_eq!(game.legal_moves()[0].text(), "d4:f6", "capturing is compulsory");
//!
//! let stray = PlanMove_Goal { history: vec!["a3-b4".into()], ..goal };
//! assert_eq!(goal_game(&stray)?.positions().len(), 1, "the position alone");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod error;
mod node;
mod ponder;

// The node over ROS.
pub use node::run;

// What a goal and the parameters give: the goal's game, and the level's planner.
pub use node::{goal_game, spec_from_params};
