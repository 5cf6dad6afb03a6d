fn main() {
    let d: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(8);
    let p = draughts::Position::start();
    for i in 1..=d {
        let t = std::time::Instant::now();
        let n = draughts::perft(&p, i);
        println!("{i} {n} {:?}", t.elapsed());
    }
}
