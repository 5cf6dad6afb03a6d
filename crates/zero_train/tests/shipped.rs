//! Every shipped generation under `models/` loads, answers as its card's fingerprint says, and
//! plays only legal moves from random positions.

use std::path::PathBuf;
use std::sync::Arc;

use search::{Control, Limits, Planner, ZeroPlanner};
use zero_train::run::{last_generation, read_card};

fn models() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../models"))
}

#[test]
fn shipped_generations_load_match_their_fingerprints_and_play_legal_moves() {
    let dir = models();
    let Some(last) = last_generation(&dir) else {
        println!("no generations shipped under {}", dir.display());
        return;
    };
    let mut rng = draughts::Rng::new(5);
    for g in 0..=last {
        let model = zero::load_generation(&dir, g).expect("a shipped generation loads");
        let card = read_card(&dir, g).expect("a shipped generation has its card");
        assert_eq!(card.generation, g);
        let fp = model.fingerprint();
        assert_eq!(fp.len(), card.fingerprint.len());
        for (a, b) in fp.iter().zip(&card.fingerprint) {
            assert!(
                (a - b).abs() < 0.01,
                "generation {g}: {fp:?} against {:?}",
                card.fingerprint
            );
        }
        let mut planner = ZeroPlanner::new(Arc::new(model), g);
        let limits = Limits {
            sims: Some(16),
            ..Limits::default()
        };
        for _ in 0..20 {
            let game = draughts::random_game(&mut rng, 50);
            if game.result().is_over() {
                continue;
            }
            planner.new_game();
            let d = planner
                .choose(&game, &limits, &Control::default())
                .expect("a move");
            assert!(game.legal_moves().contains(&d.best), "generation {g}");
        }
    }
}

/// The planner runs each generation folded (BatchNorm in the convolutions, im2col products) in
/// plain Rust, read from the file without burn; trained BatchNorm statistics make the fold
/// non-trivial, so the last generation checks it against burn's own layers.
#[test]
fn the_last_generation_folded_gives_its_trained_layers_outputs() {
    let dir = models();
    let Some(last) = last_generation(&dir) else {
        return;
    };
    let model = zero::load_generation(&dir, last).expect("a shipped generation loads");
    let trained = zero_train::net::Trained::load(&zero::generation_file(&dir, last))
        .expect("burn loads it too");
    let mut rng = draughts::Rng::new(9);
    let len = zero::encode::INPUT_LEN;
    let n = 24;
    let mut inputs = vec![0.0; n * len];
    for chunk in inputs.chunks_mut(len) {
        let game = draughts::random_game(&mut rng, 60);
        zero::encode::encode_into(&game, chunk);
    }
    let (fast, slow) = (
        model.evaluate(&inputs, n),
        trained.evaluate_unfolded(&inputs, n),
    );
    for (a, b) in fast
        .values
        .iter()
        .zip(&slow.values)
        .chain(fast.logits.iter().zip(&slow.logits))
    {
        assert!((a - b).abs() <= 1e-3 * (1.0 + b.abs()), "{a} against {b}");
    }
    assert_eq!(fast.logits.len(), slow.logits.len());
}
