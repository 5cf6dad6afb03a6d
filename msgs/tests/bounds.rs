//! `check_bounds` rejects data longer than the interface files allow, in nested fields too.

use checkers_msgs::action::ExecuteMove_Goal;
use checkers_msgs::msg::{GameEvent, GameState, Move};
use checkers_msgs::{BoundUnit, BoundsError, Interface};

fn move_with_path(len: usize) -> Move {
    Move {
        from_square: 1,
        to_square: 2,
        path: vec![2; len],
        ..Move::default()
    }
}

fn path_error(len: usize) -> BoundsError {
    BoundsError {
        type_name: "checkers_msgs/msg/Move",
        field: "path",
        unit: BoundUnit::Elements,
        len,
        max: 12,
    }
}

#[test]
fn move_path_of_13_is_rejected() {
    assert_eq!(Move::PATH_MAX_LEN, 12);
    assert_eq!(move_with_path(12).check_bounds(), Ok(()));
    let err = move_with_path(13).check_bounds().expect_err("13 > 12");
    assert_eq!(err, path_error(13));
    assert_eq!(
        err.to_string(),
        "checkers_msgs/msg/Move.path: 13 elements, at most 12 allowed"
    );
}

#[test]
fn nested_moves_are_checked() {
    let mut state = GameState {
        legal_moves: vec![move_with_path(1), move_with_path(12)],
        ..GameState::default()
    };
    assert_eq!(state.check_bounds(), Ok(()));
    state.candidates.push(move_with_path(13));
    assert_eq!(state.check_bounds(), Err(path_error(13)));
    let goal = ExecuteMove_Goal {
        game_move: move_with_path(20),
    };
    assert_eq!(goal.check_bounds(), Err(path_error(20)));
}

#[test]
fn generic_check_through_the_trait() {
    fn check<T: Interface>(value: &T) -> Result<(), BoundsError> {
        value.check_bounds()
    }
    let event = GameEvent {
        wrong_squares: vec![1; 33],
        ..GameEvent::default()
    };
    let err = check(&event).expect_err("33 > 32");
    assert_eq!(err.field, "wrong_squares");
    assert_eq!(err.max, GameEvent::WRONG_SQUARES_MAX_LEN);
    assert_eq!(check(&GameEvent::default()), Ok(()));
}
