//! Inference and search speed of the AlphaZero planner's network on this machine:
//! positions per second at batch 1, 16 and 64, and simulations in a 1 s move from the start.
//!
//! `cargo run --release -p search --example zero_bench -- [GEN|random] [BLOCKS FILTERS]`

use std::sync::Arc;
use std::time::{Duration, Instant};

use draughts::Game;
use search::{Control, Limits, Planner, ZeroPlanner};
use zero::encode::{encode_into, INPUT_LEN};
use zero::{Model, Shape};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let model = match args.first().map(String::as_str) {
        None | Some("random") => {
            let blocks = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(4);
            let filters = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(32);
            Model::random(Shape { blocks, filters }, 1)
        }
        Some(g) => zero::load_generation(&zero::models_dir(), g.parse()?)?,
    };
    let shape = model.shape();
    println!(
        "network: {} blocks x {} filters",
        shape.blocks, shape.filters
    );
    let mut input = vec![0.0; 64 * INPUT_LEN];
    for chunk in input.chunks_mut(INPUT_LEN) {
        encode_into(&Game::new(), chunk);
    }
    for batch in [1usize, 16, 64] {
        model.evaluate(&input, batch);
        let start = Instant::now();
        let mut n = 0usize;
        while start.elapsed() < Duration::from_secs(2) {
            model.evaluate(&input, batch);
            n += batch;
        }
        println!(
            "batch {batch}: {:.0} positions/s",
            n as f64 / start.elapsed().as_secs_f64()
        );
    }
    let mut planner = ZeroPlanner::new(Arc::new(model), 0);
    let limits = Limits {
        time: Some(Duration::from_secs(1)),
        ..Limits::default()
    };
    let d = planner.choose(&Game::new(), &limits, &Control::default())?;
    println!(
        "1 s move from the start: {} simulations, best {}, win probability {:.3}",
        d.stats.sims,
        d.best.text(),
        d.win_probability
    );
    Ok(())
}
