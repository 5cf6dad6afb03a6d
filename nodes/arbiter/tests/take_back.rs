//! Taking moves back, as the referee rules it: only on the human's turn, an even number of
//! plies, never more than were played; the record on disk is rewound with the game, its
//! verdict comments too, and a resumed arbiter finds the rewound game.

use arbiter::{ReadingId, Referee, RefereeError, Resume, StateDir, Status};
use draughts::{Color, Game};

/// A referee with the robot as Black, after the human's `c3-d4` and the robot's `f6-e5`.
fn after_two_plies(dir: &std::path::Path) -> Referee {
    let state = StateDir::open(dir).expect("state dir");
    let (mut r, _) = Referee::open(state, Color::Black, "easy").expect("open");
    r.new_game(Color::Black, Some("easy"), "")
        .expect("a new game");
    let human = r.position().parse_move("c3-d4").expect("legal");
    // The human's move, as the arbiter plays it once a reading shows it.
    let mut after = *r.position();
    after.play(&human);
    r.on_reading(
        after.occupancy_mask(),
        ReadingId {
            seq: 1,
            stamp_ns: 1,
        },
    );
    assert_eq!(r.game().moves().len(), 1, "the reading played c3-d4");
    r.comment_move(0, "mistake; better e3-f4".into());
    let reply = r.position().parse_move("f6-e5").expect("legal");
    r.robot_moved(&reply).expect("the robot's move");
    assert_eq!(r.status(), Status::WaitingForHuman);
    r
}

#[test]
fn the_last_pair_goes_back_and_stays_back_on_disk() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut r = after_two_plies(dir.path());
    let undone = r.take_back(0).expect("taken back");
    assert_eq!(
        undone.iter().map(|m| m.text()).collect::<Vec<_>>(),
        ["c3-d4", "f6-e5"]
    );
    assert_eq!(*r.position(), *Game::new().position());
    assert!(r.record().moves.is_empty());
    assert!(
        r.record().comments.is_empty(),
        "the verdict went with its move"
    );
    assert_eq!(r.status(), Status::WaitingForHuman);
    drop(r);
    match StateDir::open(dir.path())
        .expect("reopen")
        .resume()
        .expect("resume")
    {
        Resume::Game(record, game) => {
            assert!(record.moves.is_empty());
            assert_eq!(game.moves().len(), 0);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn odd_counts_and_more_than_was_played_are_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut r = after_two_plies(dir.path());
    let odd = r.take_back(1).expect_err("odd");
    assert!(matches!(odd, RefereeError::OddPlies(1)), "{odd:?}");
    assert!(odd.to_string().contains("even"), "{odd}");
    let many = r.take_back(4).expect_err("too many");
    assert!(matches!(many, RefereeError::TooFewPlies(2)), "{many:?}");
    assert_eq!(r.game().moves().len(), 2, "nothing was taken back");
}
