//! A level means one planner: every `config/difficulty/*.yaml`, read as `level:NAME` reads it
//! (the arena, `best`, `watch`) and as the planner node reads its `--params-file`, gives the
//! same spec.

use std::path::Path;

use planner::spec_from_params;
use search::{load_all, load_level_file};

#[test]
fn every_shipped_level_is_the_same_planner_on_the_robot_and_in_the_arena() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/difficulty");
    let levels = load_all(&dir).expect("the shipped levels");
    assert!(levels.len() >= 17, "{} levels", levels.len());
    for entry in std::fs::read_dir(&dir).expect("the levels' directory") {
        let path = entry.expect("an entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("yaml") {
            continue;
        }
        let cli = load_level_file(&path).expect("a level");
        let given = ros::params::load_params_file(&path, "/planner").expect("a params file");
        let mut params = ros::Params::with_overrides(given);
        let (node, _) =
            spec_from_params(&mut params).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(node, cli.spec, "{}", path.display());
        assert!(params.unused_overrides().is_empty(), "{}", path.display());
    }
}

#[test]
fn a_key_the_algorithm_lacks_is_an_error_naming_it() {
    let mut params = ros::Params::with_overrides(vec![
        (
            "algorithm".to_string(),
            ros::ParamValue::String("mcts".into()),
        ),
        (
            "prune".to_string(),
            ros::ParamValue::String("futility+log".into()),
        ),
    ]);
    let err = spec_from_params(&mut params).expect_err("mcts has no prune");
    assert!(err.to_string().contains("prune"), "{err}");
}

#[test]
fn a_level_key_beyond_the_old_fixed_list_reaches_the_planner() {
    // `pst` (the AlphaZero player's policy temperature) was ignored by the node before.
    let mut params = ros::Params::with_overrides(vec![
        (
            "algorithm".to_string(),
            ros::ParamValue::String("zero".into()),
        ),
        ("time_budget_s".to_string(), ros::ParamValue::Double(1.0)),
        ("pst".to_string(), ros::ParamValue::Double(1.5)),
    ]);
    let (spec, _) = spec_from_params(&mut params).expect("a zero spec");
    assert!(
        matches!(spec, search::PlannerSpec::Zero(z) if z.pst == Some(150)),
        "{spec}"
    );
}
