//! The planner's network (`zero::Model`, plain Rust) against the trainer's (burn): a saved
//! generation loads with the same outputs, the folded layers compute what burn's unfolded ones
//! do, and a grown network computes what it grew from.

use draughts::Game;
use zero::encode::{ACTIONS, INPUT_LEN};
use zero::{Model, Shape};
use zero_train::net::Trained;

fn random_games(n: usize) -> Vec<Game> {
    let mut rng = draughts::Rng::new(11);
    (0..n)
        .map(|_| draughts::random_game(&mut rng, 60))
        .collect()
}

#[test]
fn a_saved_network_loads_with_the_same_outputs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("gen1.bpk");
    let model = Trained::random(
        Shape {
            blocks: 1,
            filters: 8,
        },
        3,
    );
    model.save(&file).expect("save");
    let back = Model::load(&file).expect("load");
    assert_eq!(
        back.shape(),
        Shape {
            blocks: 1,
            filters: 8
        }
    );
    let (a, b) = (model.fingerprint(), back.fingerprint());
    // Every fixed position counts: a value and a largest logit each.
    assert_eq!(zero::model::fingerprint_positions().len(), 5);
    assert_eq!(a.len(), 10);
    for (x, y) in a.iter().zip(&b) {
        // Half precision on disk.
        assert!((x - y).abs() < 0.02, "{a:?} vs {b:?}");
    }
}

#[test]
fn the_folded_network_gives_the_trained_layers_outputs() {
    let games = random_games(40);
    let mut inputs = vec![0.0; games.len() * INPUT_LEN];
    for (g, chunk) in games.iter().zip(inputs.chunks_mut(INPUT_LEN)) {
        zero::encode::encode_into(g, chunk);
    }
    for (blocks, filters, seed) in [(1, 8, 5), (2, 16, 6)] {
        let model = Trained::random(Shape { blocks, filters }, seed);
        // One position alone, and all of them in one batch.
        for n in [1, games.len()] {
            let fast = model.evaluate(&inputs, n);
            let slow = model.evaluate_unfolded(&inputs, n);
            assert_eq!(fast.logits.len(), n * ACTIONS);
            assert_eq!(fast.values.len(), n);
            let close = |a: &[f32], b: &[f32]| {
                a.iter()
                    .zip(b)
                    .all(|(x, y)| (x - y).abs() <= 1e-3 * (1.0 + y.abs()))
            };
            assert!(close(&fast.values, &slow.values), "values differ");
            assert!(close(&fast.logits, &slow.logits), "logits differ");
        }
    }
}

#[test]
fn a_grown_network_gives_the_same_outputs_as_the_one_it_grew_from() {
    let games = random_games(30);
    let mut inputs = vec![0.0; games.len() * INPUT_LEN];
    for (g, chunk) in games.iter().zip(inputs.chunks_mut(INPUT_LEN)) {
        zero::encode::encode_into(g, chunk);
    }
    let small = Trained::random(
        Shape {
            blocks: 1,
            filters: 8,
        },
        7,
    );
    let shape = Shape {
        blocks: 3,
        filters: 12,
    };
    let big = small.grown(shape, 8);
    assert_eq!(big.shape(), shape);
    let (a, b) = (
        small.evaluate(&inputs, games.len()),
        big.evaluate(&inputs, games.len()),
    );
    let close = |x: &[f32], y: &[f32]| {
        x.iter()
            .zip(y)
            .all(|(p, q)| (p - q).abs() <= 1e-4 * (1.0 + q.abs()))
    };
    assert!(close(&a.values, &b.values), "values differ");
    assert!(close(&a.logits, &b.logits), "logits differ");
    // The trained layers, unfolded, agree too: training starts from the same function.
    let unfolded = big.evaluate_unfolded(&inputs, games.len());
    assert!(close(&unfolded.values, &a.values));
}
