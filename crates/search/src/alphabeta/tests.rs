use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use super::*;

fn decide(fen: &str, limits: Limits) -> Decision {
    let game = Game::from_fen(fen).expect("fen");
    AlphaBeta::new()
        .choose(&game, &limits, &Control::default())
        .expect("a move")
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn searches_to_the_requested_depth_with_its_move_first_in_the_line() {
    let fen = "W:Wc1,e3,g3,h2:Bc7,e7,f6,h6";
    let d = decide(fen, depth(8));
    let game = Game::from_fen(fen).expect("fen");
    assert!(game.legal_moves().contains(&d.best));
    assert_eq!(d.stats.depth, 8);
    assert_eq!(d.stats.pv.first(), Some(&d.best));
    assert!(d.stats.seldepth >= 8);
}

#[test]
fn sees_a_won_king_ending_as_a_win() {
    // White king and two men against a lone black man on the edge: it cannot escape.
    let d = decide("W:WKd4,c3,e3:Ba7", depth(12));
    assert!(d.value > 200, "{}", d.value);
    assert!(d.win_probability > 0.75);
}

#[test]
fn takes_the_only_capture_and_finds_mate() {
    // Black's last man is en prise; taking it ends the game.
    let d = decide("W:Wc3:Bd4", depth(4));
    assert_eq!(d.best.text(), "c3:e5");
    assert_eq!(d.value, WIN_SCORE - 1);
    assert_eq!(d.win_probability, 1.0);
}

#[test]
fn same_search_same_answer() {
    let a = decide(draughts::START_FEN, depth(9));
    let b = decide(draughts::START_FEN, depth(9));
    assert_eq!(a.best, b.best);
    assert_eq!(a.value, b.value);
    assert_eq!(a.stats.nodes, b.stats.nodes);
}

#[test]
fn cancelled_search_still_answers_a_legal_move() {
    let game = Game::new();
    let control = Control {
        cancel: Arc::new(AtomicBool::new(true)),
        progress: None,
    };
    let d = AlphaBeta::new()
        .choose(&game, &depth(30), &control)
        .expect("a move");
    assert!(game.legal_moves().contains(&d.best));
}

#[test]
fn reports_progress_each_iteration() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = seen.clone();
    let control = Control {
        cancel: Arc::default(),
        progress: Some(Arc::new(move |p: &Progress| {
            sink.lock()
                .expect("lock")
                .push((p.depth, p.nodes, p.best.is_some()));
        })),
    };
    AlphaBeta::new()
        .choose(&Game::new(), &depth(6), &control)
        .expect("a move");
    let seen = seen.lock().expect("lock");
    assert_eq!(
        seen.iter().map(|s| s.0).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6]
    );
    assert!(seen.windows(2).all(|w| w[0].1 <= w[1].1));
    assert!(seen.iter().all(|s| s.2));
}

#[test]
fn node_limit_stops_the_search() {
    let d = decide(
        draughts::START_FEN,
        Limits {
            nodes: Some(5_000),
            ..Limits::default()
        },
    );
    assert!(d.stats.nodes < 5_000 + 1024, "{}", d.stats.nodes);
}

#[test]
fn a_repetition_is_a_draw_to_the_search() {
    // Kings only: White is a king up but Black's king can keep repeating. Build a history in
    // which the position after White's best move has occurred before: the search must value a
    // move into that position as a draw (0), not as the material edge.
    let mut game = Game::from_fen("W:WKa1,Kc1:BKg1").expect("fen");
    for mv in ["a1-b2", "g1-h2", "b2-a1", "h2-g1"] {
        game.play_text(mv).expect("legal");
    }
    // a1-b2 now repeats the position after the first ply: with the opponent able to answer
    // g1-h2 (a third time), the search must not count on that line being winning.
    let d = AlphaBeta::new()
        .choose(&game, &depth(1), &Control::default())
        .expect("a move");
    assert_ne!(d.best.text(), "a1-b2");
}

#[test]
fn two_threads_share_the_table_and_agree_on_a_forced_win() {
    // Lazy SMP: the helper's results land in the shared table; the answer must still be the
    // single-thread one where the position has one right answer.
    let game = Game::from_fen("W:Wc3:Bd4").expect("fen");
    let d = AlphaBeta::with_threads(2)
        .choose(&game, &depth(6), &Control::default())
        .expect("a move");
    assert_eq!(d.best.text(), "c3:e5");
    assert_eq!(d.value, WIN_SCORE - 1);

    let d = AlphaBeta::with_threads(2)
        .choose(
            &Game::from_fen("W:WKd4,c3,e3:Ba7").expect("fen"),
            &depth(12),
            &Control::default(),
        )
        .expect("a move");
    assert!(d.value > 200, "{}", d.value);
    assert!(d.stats.depth >= 12);
}

#[test]
fn two_threads_stop_when_the_clock_or_the_cancel_flag_says() {
    // The helper has no clock check of its own beyond the deadline and the main thread's stop:
    // a helper that kept searching would make `choose` hang here.
    let limits = Limits {
        time: Some(std::time::Duration::from_millis(100)),
        ..Limits::default()
    };
    let d = AlphaBeta::with_threads(2)
        .choose(&Game::new(), &limits, &Control::default())
        .expect("a move");
    assert!(Game::new().legal_moves().contains(&d.best));
    assert!(d.stats.depth >= 1);

    let cancelled = Control {
        cancel: Arc::new(AtomicBool::new(true)),
        progress: None,
    };
    let d = AlphaBeta::with_threads(2)
        .choose(&Game::new(), &depth(60), &cancelled)
        .expect("a move");
    assert!(Game::new().legal_moves().contains(&d.best));
}

#[test]
fn the_learned_correction_changes_the_values_not_the_rules() {
    let fen = "W:W21,22,23,24,25,26,27,28,29,31:B1,2,3,4,5,6,7,9,10,12";
    let game = Game::from_fen(fen).expect("fen");
    let with = |net: Option<Arc<net::EvalNet>>| {
        let mut ab = AlphaBeta::new();
        if let Some(n) = net {
            ab = ab.with_net(n);
        }
        ab.choose(&game, &depth(8), &Control::default())
            .expect("a move")
    };
    let plain = with(None);
    // A zero network is the linear evaluation exactly.
    let zero =
        net::EvalNet::new(vec![0.0; net::INPUTS], vec![0.0], vec![0.0], 0.0).expect("zero net");
    let same = with(Some(Arc::new(zero)));
    assert_eq!((same.best, same.value), (plain.best, plain.value));
    // The shipped network moves the values, and the move stays legal and deterministic.
    let shipped = net::built_in().expect("built-in network");
    let learned = with(Some(shipped.clone()));
    assert!(game.legal_moves().contains(&learned.best));
    assert_eq!(with(Some(shipped)).best, learned.best);
    let start = Position::start();
    let e = evaluator::Evaluator {
        weights: WEIGHTS,
        net: Some(net::built_in().expect("net")),
        patterns: None,
    };
    assert_ne!(
        e.evaluate(&parse(fen)),
        eval::evaluate(&parse(fen), &WEIGHTS),
        "the shipped network is not the zero network"
    );
    // The correction is small next to a man at the start (both sides equal).
    assert!(e.evaluate(&start).abs() < 60, "{}", e.evaluate(&start));
}

#[test]
fn bolder_pruning_searches_fewer_nodes_and_keeps_the_forced_wins() {
    // Master's evaluation: with the linear one alone, the reductions' re-searches cost about
    // what they save at depth 10.
    let shipped = patterns::built_in().expect("shipped patterns");
    let run = |fen: &str, d: u32, prune: &str| {
        AlphaBeta::new()
            .with_patterns(shipped.clone())
            .with_pruning(prune.parse::<Pruning>().expect("switches"))
            .choose(
                &Game::from_fen(fen).expect("fen"),
                &depth(d),
                &Control::default(),
            )
            .expect("a move")
    };
    let plain = run(draughts::START_FEN, 10, "none");
    for prune in [
        "deeper",
        "futility",
        "log",
        "futility+log",
        "futility+log+malus",
    ] {
        let bold = run(draughts::START_FEN, 10, prune);
        assert_eq!(bold.stats.depth, 10);
        assert!(Game::new().legal_moves().contains(&bold.best));
        assert!(
            bold.stats.nodes < plain.stats.nodes,
            "prune={prune}: {} nodes against {}",
            bold.stats.nodes,
            plain.stats.nodes
        );
        let mate = run("W:Wc3:Bd4", 4, prune);
        assert_eq!(mate.best.text(), "c3:e5");
        assert_eq!(mate.value, WIN_SCORE - 1);
        let ending = run("W:WKd4,c3,e3:Ba7", 12, prune);
        assert!(ending.value > 200, "prune={prune}: {}", ending.value);
    }
}

#[test]
fn the_pattern_evaluation_replaces_the_linear_one() {
    let fen = "W:W21,22,23,24,25,26,27,28,29,31:B1,2,3,4,5,6,7,9,10,12";
    let game = Game::from_fen(fen).expect("fen");
    let search = |ab: AlphaBeta| {
        let mut ab = ab;
        ab.choose(&game, &depth(8), &Control::default())
            .expect("a move")
    };
    // Weights that hold only the linear evaluation search as the linear evaluation does
    // (up to rounding).
    let linear = search(AlphaBeta::new());
    let as_linear =
        search(AlphaBeta::new().with_patterns(Arc::new(patterns::Patterns::from_linear())));
    assert_eq!(as_linear.best, linear.best);
    assert!((as_linear.value - linear.value).abs() <= 2);
    // The shipped weights play legal moves, the same ones every time, and are not the linear
    // evaluation.
    let shipped = patterns::built_in().expect("shipped patterns");
    let learned = search(AlphaBeta::new().with_patterns(shipped.clone()));
    assert!(game.legal_moves().contains(&learned.best));
    assert_eq!(
        search(AlphaBeta::new().with_patterns(shipped.clone())).best,
        learned.best
    );
    assert_ne!(
        shipped.evaluate(&parse(fen)),
        eval::evaluate(&parse(fen), &WEIGHTS),
        "the shipped weights are fitted"
    );
    // Both sides equal at the start: close to level.
    let start = shipped.evaluate(&Position::start());
    assert!(start.abs() < 60, "{start}");
}

fn parse(fen: &str) -> Position {
    draughts::parse_fen(fen).expect("fen")
}

/// Pondering for `ms` on `game`, then cancelled.
fn ponder_for(ab: &mut AlphaBeta, game: &Game, ms: u64) {
    let control = Control::default();
    let cancel = Arc::clone(&control.cancel);
    std::thread::scope(|s| {
        s.spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(ms));
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        ab.ponder(game, &control);
    });
}

/// Depth reached with `nodes` nodes from the position after c3-d4 and Black's most likely
/// reply, having pondered the position before the reply for `ponder_ms` (0: not at all).
fn depth_after_ponder(ponder_ms: u64, nodes: u64) -> u32 {
    let mut game = Game::new();
    game.play_text("c3-d4").expect("legal");
    let mut ab = AlphaBeta::new();
    if ponder_ms > 0 {
        ponder_for(&mut ab, &game, ponder_ms);
    }
    let mut replies =
        crate::coach::score_moves(&game, &mut AlphaBeta::new(), 6, &Control::default())
            .expect("replies");
    replies.sort_by(|a, b| b.score.total_cmp(&a.score));
    game.play(&replies[0].mv).expect("legal");
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let d = ab
        .choose(&game, &limits, &Control::default())
        .expect("a move");
    assert!(game.legal_moves().contains(&d.best));
    d.stats.depth
}

#[test]
fn a_ponder_returns_on_cancel_and_its_table_deepens_the_next_search() {
    // A second of pondering is plenty even for an unoptimised build on a busy machine.
    let plain = depth_after_ponder(0, 5_000);
    let pondered = depth_after_ponder(1000, 5_000);
    assert!(
        pondered > plain,
        "after pondering depth {pondered}, without {plain}"
    );
}

#[test]
fn a_ponder_searches_the_reply_its_own_search_expected_deepest() {
    let mut game = Game::new();
    let mut ab = AlphaBeta::new();
    let d = ab
        .choose(&game, &depth(8), &Control::default())
        .expect("a move");
    let expected = d.stats.pv[1];
    game.play(&d.best).expect("legal");
    ponder_for(&mut ab, &game, 1500);
    let depth_after = |mv: &Move| {
        let mut after = game.clone();
        after.play(mv).expect("legal");
        ab.tt
            .probe(after.position().hash(), 0)
            .map_or(0, |h| h.depth)
    };
    let deepest = depth_after(&expected);
    for mv in game.legal_moves().iter().filter(|&&m| m != expected) {
        let other = depth_after(mv);
        assert!(
            deepest > other,
            "the expected reply's position searched to depth {deepest}, {mv} to {other}"
        );
    }
}

#[test]
fn contempt_scores_a_draw_by_the_rules_below_equal_for_the_root_side() {
    // Three kings against a lone king on the main diagonal: every White move leaves a drawn
    // position, and the lone king in the corner cannot be taken.
    let fen = "W:WKc1,Ke1,Kg1:BKa1";
    let pos = parse(fen);
    let counters = Game::from_fen(fen).expect("fen").counters();
    let value = |contempt: i32| {
        let tt = Table::new(10);
        let mut history = History::default();
        let eval = Evaluator::linear(WEIGHTS);
        let cancel = AtomicBool::new(false);
        let mut search = Search::new(&tt, &mut history, &eval, &cancel, Vec::new());
        search.contempt = contempt;
        search.negamax(&pos, counters, 3, -INF, INF, 0)
    };
    assert_eq!(value(0), 0);
    assert_eq!(value(25), -25);
}

#[test]
fn a_search_with_the_kept_network_sums_matches_one_that_sums_afresh() {
    let net = super::net::fixed_point_test_network(48, 2.0);
    let mut eval = Evaluator::linear(WEIGHTS);
    eval.net = Some(Arc::new(net));
    for fen in [
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "B:W17,21,22,25,27,28,30,31:B2,3,6,7,9,10,11,16",
        "W:WK1,18,22,25,30:B2,K3,9,14,19",
    ] {
        let pos = parse(fen);
        let counters = Game::from_fen(fen).expect("fen").counters();
        let run = |kept: bool| {
            let tt = Table::new(14);
            let mut history = History::default();
            let cancel = AtomicBool::new(false);
            let mut search = Search::new(&tt, &mut history, &eval, &cancel, Vec::new());
            if !kept {
                search.without_kept_sums();
            }
            let value = search.negamax(&pos, counters, 7, -INF, INF, 0);
            (value, search.nodes, search.pv[0].clone())
        };
        assert_eq!(run(true), run(false), "{fen}");
    }
}
