//! Move plans: the step lists of a quiet move, a multiple capture and a promotion; every
//! waypoint within limits and reached (FK); trajectories within velocity and acceleration
//! limits; the cup clear of the pieces when it travels.

use arm::{Action, MotionKind, PickPlace, Plan, PlanError, SpareKings};
use arm_kinematics::trajectory::Piece;
use arm_kinematics::{ArmConfig, BoardConfig, Joints};
use draughts::{parse_fen, Move, Position};

fn planner() -> (ArmConfig, BoardConfig, PickPlace) {
    let arm = ArmConfig::builtin().expect("arm.yaml");
    let board = BoardConfig::builtin().expect("board.yaml");
    let pp = PickPlace::new(&arm, &board);
    (arm, board, pp)
}

fn find_move(fen: &str, text: &str) -> Move {
    let pos: Position = parse_fen(fen).expect("FEN");
    pos.legal_moves()
        .into_iter()
        .find(|m| m.text() == text)
        .unwrap_or_else(|| panic!("{text} is not legal in {fen}"))
}

fn descriptions(plan: &Plan) -> Vec<&str> {
    plan.steps.iter().map(|s| s.description.as_str()).collect()
}

fn pump_switches(plan: &Plan) -> Vec<bool> {
    plan.steps
        .iter()
        .flat_map(|s| &s.actions)
        .filter_map(|a| match a {
            Action::Pump { on } => Some(*on),
            _ => None,
        })
        .collect()
}

#[test]
fn quiet_move_is_pick_place_rest() {
    let (_, _, pp) = planner();
    let mv = find_move(draughts::START_FEN, "c3-d4");
    let mut tray = pp.full_tray();
    let plan = pp.plan_move(&mv, &pp.rest(), &mut tray).expect("plan");
    assert_eq!(descriptions(&plan), ["pick c3", "place d4", "rest"]);
    assert_eq!(pump_switches(&plan), [true, false]);
    assert_eq!(plan.king_slot, None);
    assert_eq!(tray, pp.full_tray());
    check_plan(&plan);
}

#[test]
fn multiple_capture_takes_every_piece_to_the_bin() {
    let (_, board, pp) = planner();
    let mv = find_move("W:Wc3,a1:Bd4,f6,d6,b6,h2", "c3:e5:c7:a5");
    let mut tray = pp.full_tray();
    let plan = pp.plan_move(&mv, &pp.rest(), &mut tray).expect("plan");
    let steps = descriptions(&plan);
    assert_eq!(&steps[..2], ["pick c3", "place a5"]);
    assert_eq!(steps.last(), Some(&"rest"));
    let mut captured: Vec<&str> = steps[2..steps.len() - 1].to_vec();
    captured.sort();
    assert_eq!(
        captured,
        [
            "captured b6 to bin",
            "captured d4 to bin",
            "captured d6 to bin"
        ]
    );
    // Nearest first from a5: b6 is next to it.
    assert_eq!(steps[2], "captured b6 to bin");
    assert_eq!(
        pump_switches(&plan),
        [true, false, true, false, true, false, true, false]
    );
    // Each captured piece is released over the bin.
    let bin = board.bin_drop_point();
    let drops = plan.steps[2..5]
        .iter()
        .filter(|s| {
            s.actions
                .iter()
                .any(|a| matches!(a, Action::Move { target, .. } if (target - bin).norm() < 1e-12))
        })
        .count();
    assert_eq!(drops, 3);
    check_plan(&plan);
}

#[test]
fn promotion_swaps_the_man_for_a_king_from_the_tray() {
    let (_, board, pp) = planner();
    // A triple capture that crowns on f8 and goes on as a king.
    let mv = find_move("W:Wb4:Bc5,e7,g7", "b4:d6:f8:h6");
    assert!(mv.promotes());
    let mut tray = pp.full_tray();
    let plan = pp.plan_move(&mv, &pp.rest(), &mut tray).expect("plan");
    let steps = descriptions(&plan);
    assert_eq!(
        &steps[..4],
        [
            "pick b4",
            "man from b4 to bin",
            "king from tray slot 0",
            "place king on h6"
        ]
    );
    assert_eq!(steps.len(), 4 + 3 + 1);
    assert_eq!(plan.king_slot, Some(0));
    assert!(tray.is_used(0));
    assert_eq!(tray.left(), board.tray_slots() - 1);
    check_plan(&plan);

    // The next promotion takes the next slot; an empty tray is an error, and leaves the
    // tray as it was.
    let quiet_crown = find_move("W:Wc7:Bh4", "c7-d8");
    let plan = pp
        .plan_move(&quiet_crown, &pp.rest(), &mut tray)
        .expect("plan");
    assert_eq!(plan.king_slot, Some(1));
    assert_eq!(
        descriptions(&plan),
        [
            "pick c7",
            "man from c7 to bin",
            "king from tray slot 1",
            "place king on d8",
            "rest"
        ]
    );
    check_plan(&plan);
    for slot in 0..board.tray_slots() {
        tray.take(slot);
    }
    let before = tray.clone();
    let err = pp
        .plan_move(&quiet_crown, &pp.rest(), &mut tray)
        .expect_err("tray empty");
    assert!(matches!(err, PlanError::NoSpareKing { .. }), "{err}");
    assert_eq!(tray, before);
    tray.refill();
    assert_eq!(tray, SpareKings::full(board.tray_slots()));
}

#[test]
fn unreachable_squares_are_reported_not_planned() {
    let (arm, mut board, _) = planner();
    board.board.near_edge_x_m = 0.5;
    let pp = PickPlace::new(&arm, &board);
    let mv = find_move(draughts::START_FEN, "c3-d4");
    let err = pp
        .plan_move(&mv, &pp.rest(), &mut pp.full_tray())
        .expect_err("board out of reach");
    assert!(matches!(err, PlanError::Unreachable { .. }), "{err}");
    assert!(err.to_string().contains("c3"), "{err}");

    let (_, _, pp) = planner();
    let bad_start = Joints::from_degrees(0.0, 0.0, 95.0);
    let err = pp
        .plan_move(&mv, &bad_start, &mut pp.full_tray())
        .expect_err("start outside the coupled limit");
    assert!(matches!(err, PlanError::StartOutsideLimits { .. }), "{err}");
}

#[test]
fn every_legal_move_of_some_games_plans_cleanly() {
    // Robot's and human's moves alike: every square is a start, a landing or a capture.
    let (_, _, pp) = planner();
    for fen in [
        draughts::START_FEN,
        "W:Wc3,a1:Bd4,f6,d6,b6,h2",
        "B:WKa1,c3,e3,g3,b2:Bb6,d6,f6,h6,a7",
        "W:WKh2,a3,c1:Bg3,e5,c5,b6,f4",
    ] {
        let pos = parse_fen(fen).expect("FEN");
        for mv in pos.legal_moves() {
            let mut tray = pp.full_tray();
            let plan = pp.plan_move(&mv, &pp.rest(), &mut tray).expect("plan");
            check_plan(&plan);
        }
    }
}

#[test]
fn home_goes_to_rest() {
    let (_, _, pp) = planner();
    let plan = pp
        .plan_home(&Joints::from_degrees(20.0, 40.0, 50.0))
        .expect("plan");
    assert_eq!(descriptions(&plan), ["rest"]);
    let t = plan.trajectory();
    assert!((t.sample(t.duration()).q.0 - pp.rest().0).amax() < 1e-12);
}

/// Waypoints reached and within limits; the sampled trajectory within velocity and
/// acceleration limits, continuous, and clear of the pieces.
fn check_plan(plan: &Plan) {
    let (arm, board, pp) = planner();
    let limits = arm.limits();
    let ik = pp.ik();
    for (kind, target, q) in plan.waypoints() {
        assert!(limits.contains(q.array()), "{q:?}");
        if kind != MotionKind::Rest {
            assert!((ik.forward(&q) - target).norm() < 1e-9, "{target:?} missed");
        }
    }
    let traj = plan.trajectory();
    let dt = 1e-3;
    let samples = traj.samples(dt);
    assert!(samples.len() > 10);
    let slack = 1.0 + 1e-9;
    let mut pump_was = false;
    for w in samples.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        for i in 0..3 {
            assert!(
                b.qd[i].abs() <= limits.velocity[i] * slack,
                "J{} velocity {} at {}",
                i + 1,
                b.qd[i],
                b.t
            );
            assert!(
                b.qdd[i].abs() <= limits.acceleration[i] * slack,
                "J{} acceleration at {}",
                i + 1,
                b.t
            );
            // Positions move no faster than the velocity limit between samples.
            assert!(
                (b.q.0[i] - a.q.0[i]).abs() <= limits.velocity[i] * (b.t - a.t) * slack + 1e-12
            );
        }
        assert!(limits.contains(b.q.array()), "{:?} at {}", b.q, b.t);
        pump_was |= b.pump_on;
    }
    assert!(pump_was || plan.steps.len() == 1);
    assert!(
        !samples.last().expect("samples").pump_on,
        "pump off at the end"
    );

    // Clearance: while the cup travels over the board it stays above a carried piece's
    // height over the pieces standing there; descents and retreats are vertical.
    let h = board.pieces.height_m;
    let half = board.outer_size() / 2.0;
    let c = board.center();
    let mut actions = plan.steps.iter().flat_map(|s| &s.actions);
    for (_, piece) in traj.pieces() {
        let Piece::Move(seg) = piece else { continue };
        let kind = loop {
            match actions.next() {
                Some(Action::Move { kind, .. }) => break *kind,
                Some(_) => continue,
                None => panic!("more segments than moves"),
            }
        };
        let n = 50;
        let p0 = ik.forward(&seg.from);
        for k in 0..=n {
            let (q, _, _) = seg.sample(seg.duration() * k as f64 / n as f64);
            let p = ik.forward(&q);
            match kind {
                MotionKind::Travel | MotionKind::Rest => {
                    let over_board =
                        (p.x - c.x).abs() < half + 0.01 && (p.y - c.y).abs() < half + 0.01;
                    if over_board {
                        assert!(
                            p.z >= c.z + 2.0 * h + 0.005,
                            "cup at {p:?} too low over the board"
                        );
                    }
                }
                MotionKind::Descend | MotionKind::Retreat => {
                    let off = ((p.x - p0.x).powi(2) + (p.y - p0.y).powi(2)).sqrt();
                    // A joint-space line bows between its exact ends (up to a millimetre
                    // for a 30 mm descent); the planner splits it until the bow is within
                    // the configured tolerance.
                    let tol = arm.motion.straight_tolerance_m;
                    assert!(off < 1.5 * tol, "vertical move strays {off} m");
                }
            }
        }
    }
}
