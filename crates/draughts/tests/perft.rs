//! Perft from the start position against the figures of RULES.md.

use draughts::Position;
use draughts::{divide, perft};

const EXPECTED: [u64; 12] = [
    1, 7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586, 22444032, 110917189,
];

#[test]
fn perft_to_depth_9() {
    let start = Position::start();
    for (depth, want) in EXPECTED.iter().enumerate().take(10) {
        assert_eq!(perft(&start, depth as u32), *want, "depth {depth}");
    }
}

#[test]
#[ignore = "slow (seconds in release): run with `cargo test --release -- --ignored`"]
fn perft_depth_10_and_11() {
    let start = Position::start();
    assert_eq!(perft(&start, 10), EXPECTED[10]);
    assert_eq!(perft(&start, 11), EXPECTED[11]);
}

#[test]
fn divide_sums_to_perft() {
    let start = Position::start();
    let parts = divide(&start, 5);
    assert_eq!(parts.len(), 7);
    assert_eq!(parts.iter().map(|(_, n)| n).sum::<u64>(), EXPECTED[5]);
    let names: Vec<String> = parts.iter().map(|(m, _)| m.text()).collect();
    assert_eq!(
        names,
        ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]
    );
}
