use super::*;

fn spec(s: &str) -> PlannerSpec {
    s.parse().expect("valid spec")
}

#[test]
fn parses_the_documented_examples() {
    let a = spec("alphabeta:time=1s");
    assert_eq!(a.algorithm(), Algorithm::AlphaBeta);
    assert_eq!(a.limits().time, Some(Duration::from_secs(1)));
    assert_eq!(spec("mcts:sims=2000").limits().sims, Some(2000));
    assert_eq!(spec("minimax:depth=6").limits().depth, Some(6));
    let b = spec("alphabeta:depth=12,time=500ms");
    assert_eq!(b.limits().depth, Some(12));
    assert_eq!(b.limits().time, Some(Duration::from_millis(500)));
    assert_eq!(spec("random:seed=3").seed(), 3);
    assert_eq!(spec(" Heuristic ").algorithm(), Algorithm::Heuristic);
    assert!(matches!(
        spec("mcts:time=0.25,threads=1"),
        PlannerSpec::Mcts(MctsSpec {
            threads: Some(1),
            ..
        })
    ));
}

#[test]
fn display_round_trips() {
    for s in [
        "alphabeta:depth=12,time=500ms",
        "alphabeta:time=1.5s",
        "alphabeta:time=1s,threads=2,endgame=4",
        "alphabeta:depth=8,net=1",
        "alphabeta:depth=8,patterns=1",
        "alphabeta:depth=8,patterns=1,prune=deeper+futility",
        "alphabeta:depth=8,patterns=1,prune=futility+log,contempt=20",
        "alphabeta:time=1s,threads=2,endgame=5,net=1,book=1,ponder=1",
        "mcts:time=2s,sims=100,threads=2,seed=9",
        "random",
        "minimax:depth=6",
        "zero:gen=9,sims=800,cpuct=2.5,fpu=0,pst=1.6",
        "zero:gen=10,time=1s,endgame=5,solve=1",
        "zero:gen=10,sims=800,rollout=0.5",
    ] {
        let p = spec(s);
        assert_eq!(p.to_string(), s);
        assert_eq!(spec(&p.to_string()), p);
    }
}

#[test]
fn errors_say_what_is_wrong() {
    let err = |s: &str| s.parse::<PlannerSpec>().expect_err(s);
    assert_eq!(err(""), SpecError::Empty);
    assert!(matches!(err("chess"), SpecError::UnknownAlgorithm(n) if n == "chess"));
    assert!(err("alphabeta:sims=5")
        .to_string()
        .contains("depth, time, nodes"));
    assert_eq!(
        err("minimax:depth"),
        SpecError::MissingValue("depth".into())
    );
    assert!(matches!(
        err("minimax:depth=deep"),
        SpecError::BadValue { .. }
    ));
    assert!(matches!(err("minimax:depth=0"), SpecError::BadValue { .. }));
    assert!(matches!(
        err("alphabeta:time=-1s"),
        SpecError::BadValue { .. }
    ));
    assert!(matches!(
        err("alphabeta:time=fast"),
        SpecError::BadValue { .. }
    ));
    assert!(matches!(
        err("alphabeta:endgame=6"),
        SpecError::BadValue { .. }
    ));
    assert!(matches!(
        err("zero:gen=9,pst=0"),
        SpecError::BadValue { .. }
    ));
    assert!(matches!(
        err("zero:gen=9,rollout=1.5"),
        SpecError::BadValue { .. }
    ));
    assert!(matches!(
        err("zero:gen=9,cpuct=lots"),
        SpecError::BadValue { .. }
    ));
    assert!(matches!(
        err("mcts:endgame=4"),
        SpecError::UnknownKey { .. }
    ));
    assert!(matches!(
        err("alphabeta:net=maybe"),
        SpecError::BadValue { .. }
    ));
    assert!(matches!(err("mcts:net=1"), SpecError::UnknownKey { .. }));
    assert!(matches!(
        err("alphabeta:ponder=always"),
        SpecError::BadValue { .. }
    ));
    assert!(matches!(err("mcts:ponder=1"), SpecError::UnknownKey { .. }));
    assert!(matches!(
        err("alphabeta:contempt=101"),
        SpecError::BadValue { .. }
    ));
    assert_eq!(
        err("mcts:sims=1,sims=2"),
        SpecError::Repeated("sims".into())
    );
}

#[test]
fn builds_every_algorithm() {
    for a in Algorithm::ALL {
        let p = PlannerSpec::new(a).build();
        // A generation that is not on disk is replaced by alpha-beta.
        assert!(
            p.name().starts_with(a.name())
                || (a == Algorithm::Zero && p.name().starts_with("alphabeta"))
        );
    }
}

#[test]
fn pruning_is_named_switches() {
    let PlannerSpec::AlphaBeta(s) = spec("alphabeta:prune=malus+futility+log") else {
        panic!("alpha-beta");
    };
    assert!(s.pruning.futility && s.pruning.log_reductions && s.pruning.history_malus);
    assert!(!s.pruning.deeper_reductions);
    assert_eq!(
        spec("alphabeta:prune=malus+futility+log").to_string(),
        "alphabeta:prune=futility+log+malus"
    );
    assert_eq!(spec("alphabeta:prune=none").to_string(), "alphabeta");
    for bad in [
        "alphabeta:prune=14",
        "alphabeta:prune=futility+futility",
        "alphabeta:prune=lmr",
    ] {
        assert!(
            matches!(bad.parse::<PlannerSpec>(), Err(SpecError::BadValue { .. })),
            "{bad}"
        );
    }
}

#[test]
fn every_key_of_every_planner_is_set_shown_and_documented() {
    let values = [
        ("depth", "7"),
        ("time", "250ms"),
        ("nodes", "5000"),
        ("threads", "2"),
        ("endgame", "4"),
        ("net", "1"),
        ("patterns", "1"),
        ("prune", "deeper+malus"),
        ("contempt", "15"),
        ("book", "1"),
        ("ponder", "1"),
        ("seed", "9"),
        ("sims", "300"),
        ("gen", "7"),
        ("forced", "3"),
        ("gumbel", "1"),
        ("solve", "1"),
        ("cpuct", "2.5"),
        ("fpu", "0.2"),
        ("pst", "1.5"),
        ("rollout", "0.25"),
    ];
    for a in Algorithm::ALL {
        let mut s = PlannerSpec::new(a);
        let mut expected = Vec::new();
        for key in a.keys() {
            let value = values
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| *v)
                .unwrap_or_else(|| panic!("a test value for `{key}`"));
            s.set(key, value).expect(key);
            expected.push(format!("{key}={value}"));
        }
        assert_eq!(s.to_string(), format!("{a}:{}", expected.join(",")));
        assert_eq!(spec(&s.to_string()), s);
        assert!(a.docs().iter().all(|(_, _, doc)| !doc.is_empty()));
    }
}

#[test]
fn the_planners_document_carries_the_reference_of_every_key() {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/planners.md"
    ))
    .expect("docs/planners.md");
    assert!(
        doc.contains(&reference()),
        "docs/planners.md must hold the table of keys exactly as `search::reference()` writes it:\n{}",
        reference()
    );
}

#[test]
fn a_time_is_set_only_where_a_planner_takes_one() {
    let mut ab = PlannerSpec::new(Algorithm::AlphaBeta);
    assert!(ab.set_time(Duration::from_secs(2)));
    assert_eq!(ab.limits().time, Some(Duration::from_secs(2)));
    let mut minimax = PlannerSpec::new(Algorithm::Minimax);
    assert!(!minimax.set_time(Duration::from_secs(2)));
    assert_eq!(minimax, PlannerSpec::new(Algorithm::Minimax));
    assert!(Algorithm::Zero.takes_time() && !Algorithm::Random.takes_time());
}

#[test]
fn a_level_files_longer_names_set_the_same_keys() {
    let mut by_param = PlannerSpec::new(Algorithm::AlphaBeta);
    for (param, value) in [
        ("endgame_pieces", "5"),
        ("eval_net", "true"),
        ("eval_patterns", "1"),
    ] {
        by_param.set_param(param, value).expect(param);
    }
    assert_eq!(by_param, spec("alphabeta:endgame=5,net=1,patterns=1"));
    let mut zero = PlannerSpec::new(Algorithm::Zero);
    zero.set_param("generation", "7").expect("generation");
    assert_eq!(zero, spec("zero:gen=7"));
    assert!(matches!(
        zero.set_param("gen", "7"),
        Err(SpecError::UnknownKey { .. })
    ));
}
