//! The network's view of a game: planes that give the position back, the colour swap, the
//! actions of the legal moves, and weight files that load or fail with the file's name.

use draughts::{parse_fen, Color, Game};
use zero::encode::{action_for, decode_position, encode, move_priors, ACTIONS, INPUT_LEN};
use zero::{Model, Shape};

fn random_games(n: usize) -> Vec<Game> {
    let mut rng = draughts::Rng::new(11);
    let mut out = Vec::new();
    for _ in 0..n {
        let mut g = Game::new();
        let plies = rng.below(60);
        for _ in 0..plies {
            let moves = g.legal_moves();
            if moves.is_empty() || g.result().is_over() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            g.play(&mv).expect("legal");
        }
        out.push(g);
    }
    out
}

#[test]
fn the_planes_give_back_the_position() {
    for g in random_games(200) {
        let planes = encode(&g);
        assert_eq!(planes.len(), INPUT_LEN);
        let mover = g.position().side_to_move();
        assert_eq!(&decode_position(&planes, mover), g.position());
    }
}

#[test]
fn the_colour_swap_gives_the_same_planes_and_the_mirrored_actions() {
    for g in random_games(200) {
        let pos = *g.position();
        let mirrored = Game::from_position(pos.mirror());
        let here = Game::from_position(pos);
        assert_eq!(encode(&here), encode(&mirrored), "{pos:?}");
        let mover = pos.side_to_move();
        let moves = pos.legal_moves();
        let other = mirrored.position().legal_moves();
        for mv in &moves {
            let twin = other
                .iter()
                .find(|m| **m == mv.mirror())
                .expect("every move has its mirror image");
            assert_eq!(action_for(mover, mv), action_for(mover.opponent(), twin));
            assert!(action_for(mover, mv) < ACTIONS);
        }
        // The same logits give the mirrored position the same priors, move for move.
        let logits: Vec<f32> = (0..ACTIONS).map(|i| (i % 17) as f32 * 0.1).collect();
        let p = move_priors(mover, &moves, &logits);
        let q = move_priors(mover.opponent(), &other, &logits);
        for (mv, pm) in moves.iter().zip(&p) {
            let j = other.iter().position(|m| *m == mv.mirror()).expect("twin");
            assert!((pm - q[j]).abs() < 1e-6);
        }
        if !p.is_empty() {
            assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        }
    }
}

#[test]
fn a_white_move_and_its_black_twin_share_an_action() {
    let w = parse_fen("W:W22:B1").expect("fen");
    let b = w.mirror();
    let wm = w.legal_moves();
    let bm = b.legal_moves();
    assert_eq!(
        action_for(Color::White, &wm[0]),
        action_for(
            Color::Black,
            &bm.iter()
                .find(|m| **m == wm[0].mirror())
                .copied()
                .expect("twin")
        )
    );
}

#[test]
fn a_saved_network_loads_with_the_same_outputs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("gen1.bpk");
    let model = Model::random(
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
fn a_missing_or_corrupt_file_is_an_error_naming_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("gen7.bpk");
    let e = Model::load(&missing).expect_err("missing").to_string();
    assert!(e.contains("gen7.bpk") && e.contains("not found"), "{e}");
    let junk = dir.path().join("gen8.bpk");
    std::fs::write(&junk, b"this is not a network").expect("write");
    let e = Model::load(&junk).expect_err("junk").to_string();
    assert!(e.contains("gen8.bpk"), "{e}");
    let good = dir.path().join("gen9.bpk");
    Model::random(
        Shape {
            blocks: 1,
            filters: 8,
        },
        1,
    )
    .save(&good)
    .expect("save");
    let bytes = std::fs::read(&good).expect("read");
    let cut = dir.path().join("gen10.bpk");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).expect("write");
    let e = Model::load(&cut).expect_err("cut").to_string();
    assert!(e.contains("gen10.bpk"), "{e}");
}

#[test]
fn the_folded_network_gives_the_trained_layers_outputs() {
    let games = random_games(40);
    let mut inputs = vec![0.0; games.len() * INPUT_LEN];
    for (g, chunk) in games.iter().zip(inputs.chunks_mut(INPUT_LEN)) {
        zero::encode::encode_into(g, chunk);
    }
    for (blocks, filters, seed) in [(1, 8, 5), (2, 16, 6)] {
        let model = Model::random(Shape { blocks, filters }, seed);
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
    let small = Model::random(
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
