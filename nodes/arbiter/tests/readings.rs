//! Confirmed readings across a restart: the board sensor hands a late subscriber its last
//! reading, so a restarted arbiter judges a press it never saw, and never one it had judged.

use arbiter::{ReadingId, Referee, StateDir, Status};
use draughts::{Color, Position};

fn open(dir: &std::path::Path) -> Referee {
    let state = StateDir::open(dir).expect("state dir");
    Referee::open(state, Color::Black, "easy").expect("open").0
}

fn after(position: &Position, text: &str) -> u32 {
    let mv = position.parse_move(text).expect("legal");
    let mut next = *position;
    next.play(&mv);
    next.occupancy_mask()
}

fn id(seq: u64, stamp_ns: i64) -> ReadingId {
    ReadingId { seq, stamp_ns }
}

#[test]
fn a_reading_judged_before_a_restart_is_not_judged_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut r = open(dir.path());
    r.new_game(Color::Black, Some("easy"), "")
        .expect("a new game");
    let c3d4 = after(r.position(), "c3-d4");
    assert_eq!(r.on_reading(c3d4, id(1, 10)).len(), 1, "c3-d4 played");
    let reply = r.position().parse_move("f6-g5").expect("legal");
    r.robot_moved(&reply).expect("the robot's move");
    let unchanged = r.position().occupancy_mask();
    let said = r.on_reading(unchanged, id(2, 20));
    assert!(said[0].text.contains("nothing moved"), "{:?}", said[0].text);

    // Killed and started again: the latched press comes once more, and is not news.
    let mut r = open(dir.path());
    assert_eq!(r.status(), Status::WaitingForHuman);
    assert!(r.on_reading(unchanged, id(2, 20)).is_empty());
    assert_eq!(r.game().moves().len(), 2);

    // A press made while it was down is the human's move.
    let g3h4 = after(r.position(), "g3-h4");
    let said = r.on_reading(g3h4, id(3, 30));
    assert_eq!(said[0].text, "the human played g3-h4");
    assert_eq!(r.game().moves().len(), 3);
}

#[test]
fn a_clock_that_starts_again_does_not_silence_the_board() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut r = open(dir.path());
    r.new_game(Color::Black, Some("easy"), "")
        .expect("a new game");
    let unchanged = r.position().occupancy_mask();
    assert_eq!(r.on_reading(unchanged, id(7, 1_000)).len(), 1);
    // Within one run, an older reading is stale.
    assert!(r.on_reading(unchanged, id(6, 900)).is_empty());

    // A whole new launch on simulated time: the stamps start again from zero.
    let mut r = open(dir.path());
    let c3d4 = after(r.position(), "c3-d4");
    let said = r.on_reading(c3d4, id(1, 5));
    assert_eq!(said[0].text, "the human played c3-d4");
}
