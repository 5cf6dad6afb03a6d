//! The planners of the draughts robot behind one trait, and the planner node.
