//! Whether the simulated human sets up the pieces for the sim's first game: its first game state
//! can reach the sim after the human (or the arm) has already played on from it, and setting up
//! the board then would take those moves back.

use draughts::Position;
use futures::{FutureExt, Stream, StreamExt};

/// How many plies the board may be ahead of a state the sim receives late: two moves of each
/// side. A larger margin costs nothing: no board reached by play is mistaken for another game's,
/// since men never move back (the start position follows no move).
pub const LATE_PLIES: usize = 4;

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

/// The newest of `first` and whatever `stream` already holds after it, without waiting.
///
/// A reliable writer keeps the samples a matched reader has not acknowledged. A reader whose
/// keys came late (DDS Security on a slow start) gets them all at once, the oldest first; the
/// game is the newest, and setting up the board for an older one would take moves back.
pub fn newest<S: Stream + Unpin>(first: S::Item, stream: &mut S) -> S::Item {
    let mut newest = first;
    while let Some(Some(next)) = stream.next().now_or_never() {
        newest = next;
    }
    newest
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
    fn a_burst_of_states_is_read_to_its_newest() {
        let mut queued = futures::stream::iter([2, 3, 4]);
        assert_eq!(newest(1, &mut queued), 4);
        let mut empty = futures::stream::iter(Vec::<i32>::new());
        assert_eq!(newest(1, &mut empty), 1);
    }

    #[test]
    fn a_pending_stream_is_not_waited_for() {
        let mut pending = futures::stream::pending::<i32>();
        assert_eq!(newest(1, &mut pending), 1);
    }

    #[test]
    fn the_board_of_the_state_is_kept() {
        let start = Position::start();
        assert_eq!(set_up_for(&start, start.occupancy_mask()), SetUp::Keep);
    }

    #[test]
    fn a_board_up_to_two_moves_each_ahead_of_a_late_state_is_kept() {
        let start = Position::start();
        let mut board = start;
        for mv in ["a3-b4", "f6-e5", "e3-f4", "b6-a5"] {
            board = after(&board, mv);
            assert_eq!(set_up_for(&start, board.occupancy_mask()), SetUp::Keep);
        }
    }

    #[test]
    fn a_board_of_another_game_is_set_up() {
        let start = Position::start();
        let mut five = start;
        for mv in ["a3-b4", "f6-e5", "e3-f4", "b6-a5", "g3-h4"] {
            five = after(&five, mv);
        }
        assert_eq!(set_up_for(&start, five.occupancy_mask()), SetUp::Reset);
        assert_eq!(set_up_for(&start, 0), SetUp::Reset);
    }
}
