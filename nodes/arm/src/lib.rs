//! The robot arm: URDF model, Jacobian inverse kinematics, pick-and-place, trajectories, and the arm node.
