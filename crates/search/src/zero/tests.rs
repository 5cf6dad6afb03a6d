use std::sync::atomic::Ordering;
use std::sync::Arc;

use draughts::Game;
use zero::{Model, Shape};

use super::*;

fn small() -> Arc<Model> {
    Arc::new(Model::random(
        Shape {
            blocks: 1,
            filters: 8,
        },
        5,
    ))
}

/// Plays `p`'s move in `game` (unless it is over), checking that it is legal; then, with
/// `reply`, the opponent's first legal move, which the kept tree has to follow.
fn play_a_move(p: &mut ZeroPlanner, game: &mut Game, limits: &Limits, reply: bool) {
    if game.result().is_over() {
        return;
    }
    let d = p.choose(game, limits, &Control::default()).expect("a move");
    assert!(game.legal_moves().contains(&d.best));
    assert!((0.0..=1.0).contains(&d.win_probability));
    game.play(&d.best).expect("legal");
    if let Some(answer) = game.legal_moves().first().copied().filter(|_| reply) {
        game.play(&answer).expect("legal");
    }
}

/// Plays `moves` moves of `p` (each answered), from the start at `sims` visits a move; then,
/// where the game still gives a choice, `p`'s decision there.
fn play_then_decide(p: &mut ZeroPlanner, moves: usize, sims: u64) -> Option<Decision> {
    let mut game = Game::new();
    let limits = Limits {
        sims: Some(sims),
        ..Limits::default()
    };
    for _ in 0..moves {
        play_a_move(p, &mut game, &limits, true);
    }
    (!game.result().is_over() && game.legal_moves().len() > 1).then(|| {
        p.choose(&game, &limits, &Control::default())
            .expect("a move")
    })
}

#[test]
fn plays_legal_moves_and_keeps_its_tree() {
    let mut p = ZeroPlanner::new(small(), 0);
    if let Some(d) = play_then_decide(&mut p, 16, 64) {
        assert!(d.stats.sims >= 64, "{} simulations", d.stats.sims);
    }
}

#[test]
fn a_forced_move_is_played_at_once() {
    // White's only move is the capture.
    let game = Game::from_fen("W:W22:B18").expect("fen");
    let mut p = ZeroPlanner::new(small(), 0);
    let limits = Limits {
        sims: Some(100_000),
        ..Limits::default()
    };
    let d = p.choose(&game, &limits, &Control::default()).expect("move");
    assert!(d.best.is_capture());
    assert!(d.stats.sims < 100);
}

#[test]
fn a_cancel_is_honoured_at_once() {
    let mut p = ZeroPlanner::new(small(), 0);
    let control = Control::default();
    control.cancel.store(true, Ordering::Relaxed);
    let limits = Limits {
        sims: Some(1_000_000),
        ..Limits::default()
    };
    let d = p.choose(&Game::new(), &limits, &control).expect("a move");
    assert!(Game::new().legal_moves().contains(&d.best));
    assert!(d.stats.sims < 100);
}

#[test]
fn a_missing_generation_falls_back_to_alpha_beta_and_says_so() {
    let spec: crate::PlannerSpec = "zero:gen=999".parse().expect("spec");
    let p = spec.build();
    assert!(p.name().starts_with("alphabeta"), "{}", p.name());
    let e = ZeroPlanner::shipped(999).expect_err("no such generation");
    assert!(e.to_string().contains("gen999.bpk"), "{e}");
}

#[test]
fn a_walk_follows_forced_moves_to_the_end_of_the_game_without_the_network() {
    // White's only move takes Black's last piece: the walk reaches the finished game at once.
    let game = Game::from_fen("W:W22:B18").expect("fen");
    let mut tree = Tree::new(game.clone(), Puct::default());
    let mut input = vec![0.0f32; zero::encode::INPUT_LEN];
    assert!(matches!(tree.gather(&mut input), Gathered::Terminal));
    let (best, q) = tree.best().expect("the root was expanded");
    assert!(best.is_capture());
    assert_eq!(q, 1.0);
    // Without following forced moves, the root itself goes to the network.
    let plain_puct = Puct {
        forced_plies: 0,
        ..Puct::default()
    };
    let mut plain = Tree::new(game, plain_puct);
    assert!(matches!(plain.gather(&mut input), Gathered::Leaf(_)));
}

#[test]
fn a_policy_temperature_above_one_flattens_the_priors_and_keeps_their_order() {
    let priors = |policy_temperature: f32| {
        let puct = Puct {
            policy_temperature,
            ..Puct::default()
        };
        let mut tree = Tree::new(Game::new(), puct);
        let mut input = vec![0.0f32; zero::encode::INPUT_LEN];
        let Gathered::Leaf(leaf) = tree.gather(&mut input) else {
            panic!("the root goes to the network first");
        };
        let logits: Vec<f32> = (0..zero::encode::ACTIONS).map(|a| (a % 7) as f32).collect();
        tree.expand(leaf, &logits, 0.0);
        tree.root_priors()
    };
    let (sharp, flat) = (priors(1.0), priors(2.0));
    assert_eq!(sharp.len(), 7);
    let total: f32 = flat.iter().map(|p| p.1).sum();
    assert!((total - 1.0).abs() < 1e-5, "{total}");
    let top = |ps: &[(Move, f32)]| ps.iter().map(|p| p.1).fold(0.0f32, f32::max);
    let bottom = |ps: &[(Move, f32)]| ps.iter().map(|p| p.1).fold(1.0f32, f32::min);
    assert!(top(&flat) < top(&sharp));
    assert!(bottom(&flat) > bottom(&sharp));
    for (a, b) in sharp.iter().zip(&flat) {
        for (c, d) in sharp.iter().zip(&flat) {
            assert_eq!(a.1 < c.1, b.1 < d.1, "the order of {} and {}", a.0, c.0);
        }
    }
}

#[test]
fn without_following_forced_moves_it_still_plays_legal_moves_with_the_tree_kept() {
    let mut p = ZeroPlanner::new(small(), 0).with_forced_plies(0);
    let mut game = Game::from_fen("W:W21,22,23,27:B10,14,15,18").expect("fen");
    let limits = Limits {
        sims: Some(64),
        ..Limits::default()
    };
    for _ in 0..12 {
        play_a_move(&mut p, &mut game, &limits, false);
    }
}

#[test]
fn gumbel_root_selection_plays_legal_moves_within_its_budget() {
    let mut p = ZeroPlanner::new(small(), 0).with_gumbel(true);
    if let Some(d) = play_then_decide(&mut p, 12, 32) {
        assert!(d.stats.sims >= 32, "{} simulations", d.stats.sims);
        // The last batch may overshoot the budget by at most a batch.
        assert!(d.stats.sims < 32 + 16, "{} simulations", d.stats.sims);
    }
}

#[test]
fn gumbel_halving_spreads_the_visits_over_the_root_moves() {
    let game = Game::new();
    let mut tree = Tree::new(game.clone(), tree::Puct::default());
    tree.use_gumbel(56, Vec::new());
    let model = small();
    run_search(&mut tree, &model, 8, |t| t.visits() >= 57);
    let stats = tree.root_stats();
    assert_eq!(stats.len(), 7);
    // Seven moves, three phases of 18: every move gets two visits in the first phase (the
    // four kept get six in all by the end of the second), so no move is left unexplored as
    // PUCT may leave it.
    assert!(stats.iter().all(|s| s.1 >= 2), "{stats:?}");
    let (best, _) = tree.best().expect("a move");
    assert!(game.legal_moves().contains(&best));
}

#[test]
fn a_budget_smaller_than_the_moves_still_halves_to_one() {
    let children: Vec<(u32, f32, u32)> = (0..10).map(|i| (i, 0.1, 0)).collect();
    let h = gumbel::Halving::new(&children, &[], 4);
    assert_eq!(h.remaining(), 4, "as many moves considered as simulations");
}

fn db3() -> Arc<crate::endgame::EndgameDb> {
    Arc::new(crate::endgame::EndgameDb::build(3, 2))
}

#[test]
fn with_a_database_it_plays_the_shortest_win() {
    use crate::endgame::Outcome;
    let db = db3();
    // Two men against a lone king, won in more plies than a few visits could see.
    let (pos, plies) = db.long_win(7).expect("a long win");
    let mut p = ZeroPlanner::new(small(), 0).with_endgame(Arc::clone(&db));
    let limits = Limits {
        sims: Some(8),
        ..Limits::default()
    };
    let d = p
        .choose(&Game::from_position(pos), &limits, &Control::default())
        .expect("a move");
    assert_eq!(d.win_probability, 1.0);
    assert_eq!(
        db.probe(&pos.after(&d.best)),
        Some(Outcome::Loss(plies - 1))
    );
}

#[test]
fn a_walk_values_what_the_database_knows_without_the_network() {
    // White's only move, the capture, leaves three pieces: the database's to value.
    let game = Game::from_fen("W:W22:B18,K3,K4").expect("fen");
    let db = db3();
    let after = game.position().after(&game.legal_moves()[0]);
    let known = match db.probe(&after).expect("three pieces") {
        crate::endgame::Outcome::Loss(_) => 1.0,
        crate::endgame::Outcome::Draw => 0.0,
        crate::endgame::Outcome::Win(_) => -1.0,
    };
    let mut tree = Tree::new(game.clone(), Puct::default()).with_endgame(Some(db));
    let mut input = vec![0.0f32; zero::encode::INPUT_LEN];
    assert!(matches!(tree.gather(&mut input), Gathered::Terminal));
    let (_, q) = tree.best().expect("the root was expanded");
    assert!((q - known).abs() < 0.1, "{q} against {known}");
    // Without the database the position after the capture goes to the network.
    let mut plain = Tree::new(game, Puct::default());
    assert!(matches!(plain.gather(&mut input), Gathered::Leaf(_)));
}

fn solving() -> Puct {
    Puct {
        solver: true,
        ..Puct::default()
    }
}

#[test]
fn the_solver_proves_a_won_root_and_plays_the_win_at_once() {
    // Black's one man, on a3, is blocked: h2-g3 leaves Black without a move, while b2-c3 and
    // c1-d2 set it free.
    let game = Game::from_fen("W:Wb2,c1,h2:Ba3").expect("fen");
    let mut p = ZeroPlanner::new(small(), 0).with_puct(solving());
    let limits = Limits {
        sims: Some(100_000),
        ..Limits::default()
    };
    let d = p
        .choose(&game, &limits, &Control::default())
        .expect("a move");
    let mut after = game.clone();
    after.play(&d.best).expect("legal");
    assert!(
        matches!(after.result(), GameResult::Win { .. }),
        "{}",
        d.best
    );
    assert_eq!(d.win_probability, 1.0);
    assert!(d.stats.sims < 1_000, "{} simulations", d.stats.sims);
}

#[test]
fn the_solver_never_plays_a_proven_loss_while_another_move_is_open() {
    // c3-b4 loses White's only man to a5xc3; c3-d4 plays on.
    let game = Game::from_fen("W:Wc3:Ba5").expect("fen");
    let model = small();
    let mut tree = Tree::new(game.clone(), solving());
    run_search(&mut tree, &model, BATCH, |t| t.visits() >= 200);
    let (best, _) = tree.best().expect("the root was expanded");
    let mut after = game.clone();
    after.play(&best).expect("legal");
    assert_eq!(
        after
            .legal_moves()
            .iter()
            .filter(|m| m.is_capture())
            .count(),
        0,
        "{best}"
    );
    assert_eq!(tree.root_solved(), None, "c3-d4 is not proven");
}

/// Runs `walks` simulations one leaf at a time, the network's value always `value`, and returns
/// each root child's sum of values (its mean times its visits).
fn root_value_sums(puct: Puct, walks: usize, value: f32) -> Vec<f32> {
    let mut tree = Tree::new(Game::new(), puct);
    let mut input = vec![0.0; INPUT_LEN];
    let logits = vec![0.0; zero::encode::ACTIONS];
    for _ in 0..walks {
        match tree.gather(&mut input) {
            Gathered::Leaf(leaf) => tree.expand(leaf, &logits, value),
            other => panic!("no game ends this close to the start: {other:?}"),
        }
    }
    tree.root_stats()
        .into_iter()
        .map(|(_, visits, q)| q * visits as f32)
        .collect()
}

#[test]
fn a_full_rollout_share_values_each_leaf_by_its_playout_alone() {
    let whole = |sums: &[f32]| sums.iter().all(|s| (s - s.round()).abs() < 1e-4);
    // Playouts end in 1, 0 or -1, so with only them every sum is a whole number...
    let playouts = Puct {
        rollout: 1.0,
        ..Puct::default()
    };
    assert!(whole(&root_value_sums(playouts, 40, 0.37)));
    // ...and with only the network's 0.37 some are not.
    assert!(!whole(&root_value_sums(Puct::default(), 40, 0.37)));
}
