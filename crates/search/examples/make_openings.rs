//! Prints an opening set: every opening of `--plies` moves from the start whose value by
//! `--planner` has its magnitude in `--min..=--max`, each line with its value (the side to
//! move's) as a comment. The value is the planner's: hundredths of a man for the linear
//! evaluation, and on the same logistic scale of win probability for the fitted ones, where
//! an extra man at the start is worth about 266.
//!
//! The built-in set (`src/openings.txt`, balanced):
//! `cargo run --release -p search --example make_openings > crates/search/src/openings.txt`
//!
//! The unbalanced set for measuring small differences between strong planners
//! (`config/openings-unbalanced.txt`, see docs/planners.md):
//! `cargo run --release -p search --example make_openings -- --plies 5 --min 65 --max 125
//! --planner alphabeta:depth=12,patterns=1,net=1,prune=futility+log+malus --shuffle 1 > config/openings-unbalanced.txt`

use clap::Parser;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use search::{openings_by_value, PlannerSpec};

#[derive(Parser)]
struct Args {
    /// Moves from the initial position.
    #[arg(long, default_value_t = 3)]
    plies: usize,
    /// The least magnitude of the value kept.
    #[arg(long, default_value_t = 0)]
    min: i32,
    /// The greatest magnitude of the value kept.
    #[arg(long, default_value_t = 30)]
    max: i32,
    /// The planner that values each opening, with its limits.
    #[arg(long, default_value = "alphabeta:depth=10")]
    planner: String,
    /// Prints the openings in an order shuffled by this seed rather than the generator's
    /// (grouped by first move), so that a match over the first N of them sees every group.
    #[arg(long)]
    shuffle: Option<u64>,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let spec: PlannerSpec = args.planner.parse()?;
    let mut planner = spec.build();
    let (plies, min, max) = (args.plies, args.min, args.max);
    println!("# {plies}-ply openings valued {min} to {max} from even by {spec}");
    println!("# (the value after each line is the side to move's)");
    let mut set = openings_by_value(plies, planner.as_mut(), &spec.limits(), min..=max);
    if let Some(seed) = args.shuffle {
        set.shuffle(&mut StdRng::seed_from_u64(seed));
    }
    for (line, value) in set {
        let words: Vec<String> = line.iter().map(|m| m.text()).collect();
        println!("{} # {value:+}", words.join(" "));
    }
    Ok(())
}
