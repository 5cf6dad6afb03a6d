//! Tunes the alpha-beta evaluation by match play: a coordinate search in which each weight in
//! turn is moved one step up (then down), and the move is kept only if the moved weights beat
//! the current ones by at least `ACCEPT` over every built-in opening with both colours at
//! depths `DEPTH` and `DEPTH + 1` (840 games). The Texel fit predicts results better but
//! plays worse (docs/planners.md); this judges weights by the only measure that counts.
//!
//! `cargo run --release -p search --example match_tune -- DEPTH ROUNDS ACCEPT`
//! (defaults 6 3 0.52). The last line is a confirmation match of the result against the
//! shipped weights at `DEPTH + 4`. Paste the printed `WEIGHTS` into `src/alphabeta/eval.rs`.

use std::time::Instant;

use search::{
    built_in_openings, weights_match, Limits, Weights, FEATURE_NAMES, N_FEATURES, WEIGHTS,
};

fn arg<T: std::str::FromStr>(i: usize, default: T) -> T {
    std::env::args()
        .nth(i)
        .and_then(|a| a.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let depth: u32 = arg(1, 6);
    let rounds: usize = arg(2, 3);
    let accept: f64 = arg(3, 0.52);
    let openings = built_in_openings();
    let at = |d: u32| Limits {
        depth: Some(d),
        ..Limits::default()
    };
    let trial = |a: &Weights, b: &Weights| {
        let mut t = weights_match(a, b, &at(depth), &openings, 2);
        let u = weights_match(a, b, &at(depth + 1), &openings, 2);
        t.wins += u.wins;
        t.draws += u.draws;
        t.losses += u.losses;
        t
    };
    let started = Instant::now();
    let mut best: Weights = WEIGHTS;
    let trials_per_round = 2 * (N_FEATURES - 1);
    for round in 0..rounds {
        let mut changed = false;
        // The man stays at 100: it is the unit.
        for i in 1..N_FEATURES {
            // Coarse steps first, finer in later rounds.
            let step = (best[i].abs() / (2 << round)).max(1);
            for sign in [1, -1] {
                let mut cand = best;
                cand[i] += sign * step;
                let t = trial(&cand, &best);
                let kept = t.score() >= accept;
                println!(
                    "round {} trial {:2}/{trials_per_round} {:>20} {:>5} -> {:>5}: {}{} ({:.0} s)",
                    round + 1,
                    2 * (i - 1) + usize::from(sign < 0) + 1,
                    FEATURE_NAMES[i],
                    best[i],
                    cand[i],
                    t.summary(),
                    if kept { "  kept" } else { "" },
                    started.elapsed().as_secs_f64()
                );
                if kept {
                    best = cand;
                    changed = true;
                    break;
                }
            }
        }
        if !changed {
            break;
        }
    }
    println!("pub const WEIGHTS: Weights = {best:?};");
    let t = weights_match(&best, &WEIGHTS, &at(depth + 4), &openings, 2);
    println!(
        "# tuned vs shipped weights at depth {}, {} games: {}",
        depth + 4,
        t.games(),
        t.summary()
    );
}
