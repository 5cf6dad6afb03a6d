//! Whether the simulated human sets up the pieces for the sim's first game: its first game state
//! can reach the sim after the human (or the arm) has already played on from it, and setting up
//! the board then would take those moves back.

use draughts::Position;

/// How many plies the board may be ahead of a state the sim receives late: the human's reply
/// and the robot's answer to it.
pub const LATE_PLIES: usize = 2;

/// What the sim does on the first state of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetUp {
    /// The board shows the game's position, or play has already gone on from it: leave the
    /// pieces where they are.
    Keep,
    /// The board shows something else: put the pieces where the position has them.
    Reset,
}

/// Whether a board showing occupancy `shown` has to be set up for `position`.
pub fn set_up_for(position: &Position, shown: u32) -> SetUp {
    if reached_within(position, shown, LATE_PLIES) {
        SetUp::Keep
    } else {
        SetUp::Reset
    }
}

/// Whether `shown` is the occupancy of `position` or of a position at most `plies` legal moves
/// after it.
fn reached_within(position: &Position, shown: u32, plies: usize) -> bool {
    if position.occupancy_mask() == shown {
        return true;
    }
    plies > 0
        && position
            .legal_moves()
            .iter()
            .any(|mv| reached_within(&position.after(mv), shown, plies - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(p: &Position, text: &str) -> Position {
        let mv = p.parse_move(text).expect("a legal move");
        p.after(&mv)
    }

    #[test]
    fn the_board_of_the_state_is_kept() {
        let start = Position::start();
        assert_eq!(set_up_for(&start, start.occupancy_mask()), SetUp::Keep);
    }

    #[test]
    fn a_board_a_move_or_two_ahead_of_a_late_state_is_kept() {
        let start = Position::start();
        let one = after(&start, "a3-b4");
        let two = after(&one, "f6-e5");
        assert_eq!(set_up_for(&start, one.occupancy_mask()), SetUp::Keep);
        assert_eq!(set_up_for(&start, two.occupancy_mask()), SetUp::Keep);
    }

    #[test]
    fn a_board_of_another_game_is_set_up() {
        let start = Position::start();
        let three = after(&after(&after(&start, "a3-b4"), "f6-e5"), "b4-a5");
        assert_eq!(set_up_for(&start, three.occupancy_mask()), SetUp::Reset);
        assert_eq!(set_up_for(&start, 0), SetUp::Reset);
    }
}
