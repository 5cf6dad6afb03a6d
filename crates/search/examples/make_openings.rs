//! Prints the built-in opening set (`src/openings.txt`): every 3-ply opening whose depth-10
//! alpha-beta value is within 0.3 of a man of even.
//!
//! `cargo run --release -p search --example make_openings > nodes/planner/src/openings.txt`

use search::openings::balanced_openings;

fn main() {
    let (plies, depth, max_abs) = (3, 10, 30);
    println!("# {plies}-ply openings within {max_abs}/100 of a man at alpha-beta depth {depth}");
    for line in balanced_openings(plies, depth, max_abs) {
        let words: Vec<String> = line.iter().map(|m| m.text()).collect();
        println!("{}", words.join(" "));
    }
}
