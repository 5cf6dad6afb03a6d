//! Builds the endgame database and prints, per material (White to move), how many positions
//! are won, drawn and lost, and the longest result: `endgame_stats [PIECES] [THREADS] [save]`
//! (defaults 4 and 2). It also checks every result against one ply of play. With `save` it
//! leaves the database where planners look for it (`search::cache_path`).

use std::time::Instant;

use search::EndgameDb;

fn main() {
    let pieces: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(search::DEFAULT_PIECES);
    let threads: usize = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2);
    let started = Instant::now();
    let db = EndgameDb::build(pieces, threads);
    println!(
        "built {} pieces on {threads} threads in {:.1} s",
        db.max_pieces(),
        started.elapsed().as_secs_f64()
    );
    if std::env::args().nth(3).as_deref() == Some("save") {
        match search::cache_path(db.max_pieces()) {
            Some(path) => match db.save(&path) {
                Ok(()) => println!("saved to {}", path.display()),
                Err(e) => println!("not saved: {e}"),
            },
            None => println!("not saved: no cache folder (set CHECKERS_ROBOT_CACHE)"),
        }
    }
    match db.verify() {
        Ok(n) => println!("verified {n} positions against one ply of play"),
        Err(e) => println!("VERIFY FAILED: {e}"),
    }
    println!(
        "{:>10} {:>9} {:>9} {:>9} {:>7}",
        "material", "wins", "draws", "losses", "longest"
    );
    for (name, [w, d, l], longest) in db.summary() {
        println!("{name:>10} {w:>9} {d:>9} {l:>9} {longest:>7}");
    }
}
