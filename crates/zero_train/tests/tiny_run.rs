//! A whole training run in miniature: a one-block network, a handful of self-play games, one
//! training step, one gating match; whatever the match says, the run's files load.

use zero_train::games::{play, PlayConfig};
use zero_train::replay::load_window;
use zero_train::run::{
    gate, last_generation, read_card, rejected_file, run, warm_start, RunConfig, WarmRun,
};
use zero_train::train::TrainConfig;
use zero_train::warm::WarmConfig;

fn tiny_training() -> TrainConfig {
    TrainConfig {
        steps: 1,
        batch: 32,
        learning_rate: 1e-3,
        weight_decay: 1e-4,
        cosine: false,
    }
}

fn tiny_run(dir: &std::path::Path) -> RunConfig {
    RunConfig {
        out: dir.to_path_buf(),
        generations: 1,
        shape: zero::Shape {
            blocks: 1,
            filters: 8,
        },
        games: 4,
        sims: 8,
        full_share: 1.0,
        gumbel: false,
        q_blend: 0.25,
        parallel: 4,
        window: 1,
        train: tiny_training(),
        gate_games: 2,
        gate_sims: 4,
        accept: 0.55,
        attempts: 1,
        from: None,
        seed: 3,
        quiet: true,
    }
}

#[test]
fn a_tiny_run_writes_loadable_generations() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cfg = tiny_run(dir.path());
    // One attempt at generation 1: accepted or not, generation 0 and its card are written.
    let outcome = run(&cfg);
    let last = last_generation(dir.path()).expect("generation 0 at least");
    assert!(outcome.is_ok() || last == 0);
    if outcome.is_err() {
        // A candidate that lost its gate is kept for measuring or training on.
        zero::Model::load(&rejected_file(dir.path())).expect("the rejected candidate loads");
    }
    for g in 0..=last {
        let model = zero::load_generation(dir.path(), g).expect("loads");
        let card = read_card(dir.path(), g).expect("card");
        assert_eq!(card.generation, g);
        let fp = model.fingerprint();
        for (a, b) in fp.iter().zip(&card.fingerprint) {
            assert!((a - b).abs() < 0.02);
        }
    }
    // The self-play round is on disk for a resumed run.
    let window = load_window(dir.path(), 1);
    assert_eq!(window.len(), 1);
    assert!(!window[0].is_empty());
}

#[test]
fn a_tiny_warm_start_labels_positions_and_gates() {
    let dir = tempfile::tempdir().expect("temp dir");
    let grown = zero::Shape {
        blocks: 2,
        filters: 10,
    };
    let mut warm = WarmConfig::new(2, 2, 4);
    warm.play.max_plies = 24;
    warm.play.threads = 1;
    let outcome = warm_start(&WarmRun {
        out: dir.path().to_path_buf(),
        shape: zero::Shape {
            blocks: 1,
            filters: 8,
        },
        warm,
        train: tiny_training(),
        window: 2,
        gate_games: 2,
        gate_sims: 4,
        accept: 0.0,
        // Trained as a larger network grown from generation 0.
        grow: Some(grown),
        quiet: true,
    });
    let window = load_window(dir.path(), 2);
    assert_eq!(window.len(), 1, "the labelled positions are kept");
    assert!(window[0].iter().all(|s| s.policy.len() == 1));
    match outcome {
        Ok(g) => {
            assert_eq!(g, 1);
            let card = read_card(dir.path(), 1).expect("card");
            assert!(card.source.starts_with("warm start"), "{}", card.source);
            assert!(card.source.contains("grown to 2x10"), "{}", card.source);
            let model = zero::load_generation(dir.path(), 1).expect("loads");
            assert_eq!(model.shape(), grown);
        }
        Err(e) => {
            assert!(e.to_string().contains("did not beat"), "{e}");
            let kept = zero::Model::load(&dir.path().join("warm").join("rejected.bpk"));
            assert_eq!(kept.expect("kept").shape(), grown);
        }
    }
}

#[test]
fn self_play_gives_samples_with_results_and_visit_shares() {
    let model = zero::Model::random(
        zero::Shape {
            blocks: 1,
            filters: 8,
        },
        2,
    );
    let starts = vec![(draughts::Game::new(), 0); 3];
    let mut cfg = PlayConfig::self_play(8);
    cfg.max_plies = 40;
    let (games, samples) = play(&[&model], starts, &cfg, 9, 3, |_| {});
    assert_eq!(games.len(), 3);
    assert!(!samples.is_empty());
    for s in &samples {
        let total: f32 = s.policy.iter().map(|p| p.1).sum();
        assert!((total - 1.0).abs() < 1e-4);
        assert!([-1.0, 0.0, 1.0].contains(&s.value));
    }
    let t = gate(&model, &model, 2, 4, 1, true);
    assert_eq!(t.games(), 2);
}

#[test]
fn training_from_a_missing_or_misshapen_network_is_an_error_naming_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("missing.bpk");
    let mut cfg = tiny_run(dir.path());
    cfg.from = Some(missing);
    let e = run(&cfg).expect_err("no such file").to_string();
    assert!(e.contains("missing.bpk"), "{e}");
    // Generation 0 is 1x8; a 1x4 network cannot be trained into its successor.
    let other = dir.path().join("other.bpk");
    zero_train::net::Trained::random(
        zero::Shape {
            blocks: 1,
            filters: 4,
        },
        1,
    )
    .save(&other)
    .expect("saved");
    cfg.from = Some(other);
    let e = run(&cfg).expect_err("another shape").to_string();
    assert!(e.contains("other.bpk") && e.contains("1x4"), "{e}");
}

#[test]
fn no_games_trains_on_the_rounds_on_disk_and_adds_none() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut cfg = tiny_run(dir.path());
    cfg.games = 0;
    let e = run(&cfg).expect_err("nothing to train on").to_string();
    assert!(e.contains("nothing to train on"), "{e}");
    // A round on disk (here from a first run's self-play) is what a run without games trains on.
    cfg.games = 4;
    let _ = run(&cfg);
    let before = load_window(dir.path(), 3);
    assert_eq!(before.len(), 1);
    let _ = std::fs::remove_file(rejected_file(dir.path()));
    let mut cfg = tiny_run(dir.path());
    cfg.games = 0;
    cfg.generations = last_generation(dir.path()).expect("generation 0 at least") + 1;
    cfg.window = 3;
    let outcome = run(&cfg);
    assert!(
        outcome.is_ok() || rejected_file(dir.path()).is_file(),
        "{outcome:?}"
    );
    let after = load_window(dir.path(), 3);
    assert_eq!(after.len(), 1, "no new round");
    assert_eq!(after[0].len(), before[0].len());
}
