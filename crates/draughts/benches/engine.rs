//! Criterion benchmarks: move generation, perft and random playouts.
//! Run: `cargo bench -p draughts`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use draughts::perft;
use draughts::Counters;
use draughts::{parse_fen, MoveList, Position};
use draughts::{random_playout, Rng};

const MIDGAME: &str = "W:W15,18,19,21,22,23,25,26,27,30:B1,2,3,5,6,7,9,10,12,13,16";
const KINGS: &str = "W:WK29,K18,24,27:BK4,K10,6,12,13";

fn movegen(c: &mut Criterion) {
    let mut g = c.benchmark_group("movegen");
    for (name, fen) in [
        ("start", draughts::START_FEN),
        ("midgame", MIDGAME),
        ("kings", KINGS),
    ] {
        let pos = parse_fen(fen).expect("bench FEN");
        let mut list = MoveList::new();
        g.bench_function(name, |b| {
            b.iter(|| {
                black_box(&pos).generate_into(&mut list);
                list.len()
            })
        });
    }
    g.finish();
}

fn perft_bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    let start = Position::start();
    for depth in [6u32, 8] {
        g.throughput(Throughput::Elements(perft(&start, depth)));
        g.bench_function(format!("start_depth_{depth}"), |b| {
            b.iter(|| perft(black_box(&start), depth))
        });
    }
    g.finish();
}

fn playouts(c: &mut Criterion) {
    let start = Position::start();
    let mut rng = Rng::new(1);
    c.bench_function("random_playout_from_start", |b| {
        b.iter(|| random_playout(black_box(&start), Counters::new(&start), &mut rng, 1000))
    });
}

criterion_group!(benches, movegen, perft_bench, playouts);
criterion_main!(benches);
