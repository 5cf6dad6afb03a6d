//! The network's view of a game: planes that give the position back, the colour swap, the
//! actions of the legal moves, and weight files that load or fail with the file's name.

use draughts::{parse_fen, Color, Game};
use zero::encode::{action_for, decode_position, encode, move_priors, ACTIONS, INPUT_LEN};
use zero::{Model, Shape};

fn random_games(n: usize) -> Vec<Game> {
    let mut rng = draughts::Rng::new(11);
    (0..n)
        .map(|_| draughts::random_game(&mut rng, 60))
        .collect()
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
fn a_missing_or_corrupt_file_is_an_error_naming_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("gen7.bpk");
    let e = Model::load(&missing).expect_err("missing").to_string();
    assert!(e.contains("gen7.bpk") && e.contains("not found"), "{e}");
    let junk = dir.path().join("gen8.bpk");
    std::fs::write(&junk, b"this is not a network").expect("write");
    let e = Model::load(&junk).expect_err("junk").to_string();
    assert!(e.contains("gen8.bpk"), "{e}");
    let bytes =
        std::fs::read(zero::generation_file(&zero::models_dir(), 0)).expect("generation 0 ships");
    let cut = dir.path().join("gen10.bpk");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).expect("write");
    let e = Model::load(&cut).expect_err("cut").to_string();
    assert!(e.contains("gen10.bpk"), "{e}");
}

#[test]
fn layers_of_the_wrong_size_are_refused_with_the_layers_name() {
    let shape = Shape {
        blocks: 2,
        filters: 8,
    };
    let mut layers = zero::Layers::random(shape, 4);
    assert_eq!(layers.shape(), Ok(shape));
    assert!(Model::from_layers(&layers).is_ok());
    layers.blocks[1].second.running_var.pop();
    let e = Model::from_layers(&layers).expect_err("short").to_string();
    assert!(e.contains("blocks.1.second.running_var"), "{e}");
}
