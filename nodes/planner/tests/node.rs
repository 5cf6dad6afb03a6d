//! The planner node in a graph: a goal answered with a legal move, feedback and an evaluation;
//! a cancel honoured at once; a difficulty file loaded as its params file.

use std::time::Duration;

use checkers_msgs::action::{PlanMove, PlanMove_Goal};
use checkers_msgs::convert::{find_move, position_msg};
use checkers_msgs::msg::{Evaluation, GameState};
use draughts::Position;
use futures::StreamExt;
use ros::env::{DiscoveryRange, RosEnv};
use ros::{GoalOutcome, Node, Qos, RosArgs};

fn node(name: &str, domain: u16, args: &[&str]) -> Node {
    let mut all = vec!["test".to_string(), "--ros-args".to_string()];
    all.extend(args.iter().map(|a| a.to_string()));
    let env = RosEnv {
        domain_id: domain,
        discovery: DiscoveryRange::Localhost,
        security: None,
    };
    Node::new(name, RosArgs::parse(all).expect("arguments"), env).expect("node")
}

fn domain(offset: u16) -> u16 {
    120 + ((std::process::id() as u16)
        .wrapping_mul(5)
        .wrapping_add(offset))
        % 30
}

fn start_planner(domain: u16, args: &[&str]) {
    let n = node("planner", domain, args);
    tokio::spawn(async move {
        if let Err(e) = planner::run(n).await {
            panic!("the planner node stopped: {e}");
        }
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_goal_gets_a_legal_move_with_feedback_and_an_evaluation() {
    let d = domain(0);
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../config/difficulty/medium.yaml"
    );
    start_planner(d, &["--params-file", file]);
    let mut me = node("arbiter", d, &[]);
    let client = me
        .action_client::<PlanMove>("/planner/plan")
        .expect("client");
    let evaluations = me
        .subscription::<Evaluation>("/planner/evaluation", Qos::Events)
        .expect("evaluations");
    let mut evaluations = evaluations.stream();

    let start = Position::start();
    let goal = client
        .send_goal(
            PlanMove_Goal {
                position: position_msg(&start),
                ..PlanMove_Goal::default()
            },
            Duration::from_secs(20),
        )
        .await
        .expect("accepted");
    let (outcome, result) = goal.result(Duration::from_secs(20)).await.expect("result");
    assert_eq!(outcome, GoalOutcome::Succeeded, "{}", result.message);
    assert!(find_move(&start, &result.best_move).is_ok(), "{result:?}");
    let level = search::load_level_file(std::path::Path::new(file)).expect("level");
    assert_eq!(result.algorithm, level.spec.algorithm().name());
    assert!(result.depth >= 1);
    let e = tokio::time::timeout(Duration::from_secs(10), evaluations.next())
        .await
        .expect("an evaluation in time")
        .expect("stream open");
    assert!(e.win_probability > 0.0 && e.win_probability < 1.0);
    assert_eq!(e.best_move_text, result.best_move.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_stops_the_search_at_once() {
    let d = domain(13);
    start_planner(d, &["-p", "algorithm:=mcts", "-p", "time_budget_s:=30.0"]);
    let mut me = node("arbiter", d, &[]);
    let client = me
        .action_client::<PlanMove>("/planner/plan")
        .expect("client");
    let goal = client
        .send_goal(
            PlanMove_Goal {
                position: position_msg(&Position::start()),
                ..PlanMove_Goal::default()
            },
            Duration::from_secs(20),
        )
        .await
        .expect("accepted");
    let mut feedback = std::pin::pin!(goal.feedback());
    tokio::time::timeout(Duration::from_secs(10), feedback.next())
        .await
        .expect("feedback while it searches")
        .expect("stream open");
    assert!(goal
        .cancel(Duration::from_secs(5))
        .await
        .expect("cancel answered"));
    // The result comes long before the 30 s budget: the search stopped on the cancel.
    let (outcome, _) = goal.result(Duration::from_secs(10)).await.expect("result");
    assert_eq!(outcome, GoalOutcome::Canceled);
}

/// The depth a node-limited goal reaches in the position after c3-d4 and Black's most likely
/// reply, the planner having seen the human on move after c3-d4 for a while.
async fn depth_with_ponder(d: u16, ponder: bool) -> u32 {
    let ponder = format!("ponder:={ponder}");
    start_planner(
        d,
        &[
            "-p",
            "algorithm:=alphabeta",
            "-p",
            "time_budget_s:=0.0",
            "-p",
            "nodes:=5000",
            "-p",
            &ponder,
        ],
    );
    let mut me = node("arbiter", d, &[]);
    let states = me
        .publisher::<GameState>("/game/state", Qos::State)
        .expect("publisher");
    let client = me
        .action_client::<PlanMove>("/planner/plan")
        .expect("client");
    let mut game = draughts::Game::new();
    game.play_text("c3-d4").expect("legal");
    let state = GameState {
        game_id: 7,
        status: GameState::STATUS_WAITING_FOR_HUMAN,
        robot_color: GameState::SIDE_WHITE,
        ply: 1,
        position: position_msg(game.position()),
        ..GameState::default()
    };
    states.publish(state).await.expect("published");
    // The human thinks.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut replies = search::score_moves(
        &game,
        &mut search::AlphaBeta::new(),
        6,
        &search::Control::default(),
    )
    .expect("replies");
    replies.sort_by(|a, b| b.score.total_cmp(&a.score));
    game.play(&replies[0].mv).expect("legal");
    let goal = client
        .send_goal(
            PlanMove_Goal {
                position: position_msg(game.position()),
                history: game.moves().iter().map(|m| m.text()).collect(),
                ..PlanMove_Goal::default()
            },
            Duration::from_secs(20),
        )
        .await
        .expect("accepted");
    let (outcome, result) = goal.result(Duration::from_secs(20)).await.expect("result");
    assert_eq!(outcome, GoalOutcome::Succeeded, "{}", result.message);
    assert!(find_move(game.position(), &result.best_move).is_ok());
    result.depth
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_planner_that_ponders_on_the_humans_time_answers_deeper() {
    let without = depth_with_ponder(domain(7), false).await;
    let with = depth_with_ponder(domain(11), true).await;
    assert!(
        with > without,
        "with ponder depth {with}, without {without}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_limit_the_algorithm_does_not_have_is_a_clear_error() {
    let n = node(
        "planner",
        domain(23),
        &["-p", "algorithm:=random", "-p", "depth:=4"],
    );
    let err = planner::run(n).await.expect_err("refused");
    assert!(err.to_string().contains("depth"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generation_that_will_not_load_is_replaced_by_alpha_beta() {
    let d = domain(19);
    start_planner(
        d,
        &[
            "-p",
            "algorithm:=zero",
            "-p",
            "generation:=987",
            "-p",
            "sims:=50",
        ],
    );
    let mut me = node("arbiter", d, &[]);
    let client = me
        .action_client::<PlanMove>("/planner/plan")
        .expect("client");
    let start = Position::start();
    let goal = client
        .send_goal(
            PlanMove_Goal {
                position: position_msg(&start),
                time_budget_s: 0.2,
                ..PlanMove_Goal::default()
            },
            Duration::from_secs(20),
        )
        .await
        .expect("accepted");
    let (outcome, result) = goal.result(Duration::from_secs(20)).await.expect("result");
    assert_eq!(outcome, GoalOutcome::Succeeded, "{}", result.message);
    assert!(find_move(&start, &result.best_move).is_ok(), "{result:?}");
    assert_eq!(result.algorithm, "alphabeta");
    assert!(
        result.message.contains("zero") && result.message.contains("alphabeta"),
        "{}",
        result.message
    );
}
