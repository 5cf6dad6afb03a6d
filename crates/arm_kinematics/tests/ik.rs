//! The Jacobian IK against the closed form: same answer on every reachable target from any
//! start, a clear error on every unreachable one, never a wrong pose.

use arm_kinematics::closed_form;
use arm_kinematics::{ArmConfig, BoardConfig, Ik, IkError, Joints};
use draughts::Square;
use nalgebra::Point3;
use proptest::prelude::*;

fn ik() -> Ik {
    Ik::new(&ArmConfig::builtin().expect("arm.yaml"))
}

fn assert_same(a: &Joints, b: &Joints, tol: f64) {
    assert!((a.0 - b.0).amax() < tol, "{:?} vs {:?}", a.0, b.0);
}

/// Joint triples inside every limit, the coupled one included.
fn joints_in_limits() -> impl Strategy<Value = Joints> {
    (-90.0f64..=90.0, 0.0f64..=85.0, 0.0f64..=1.0).prop_map(|(j1, j2, t)| {
        let lo = (-10.0f64).max(j2 - 60.0);
        let hi = 95.0f64.min(j2 + 80.0);
        Joints::from_degrees(j1, j2, lo + t * (hi - lo))
    })
}

/// Every place the arm goes in a game: squares at board and approach heights, the bin, the
/// tray slots.
fn work_points() -> Vec<Point3<f64>> {
    let arm = ArmConfig::builtin().expect("arm.yaml");
    let board = BoardConfig::builtin().expect("board.yaml");
    let piece = board.pieces.height_m;
    let lift = arm.motion.approach_height_m;
    let mut pts = Vec::new();
    for sq in Square::all() {
        let c = board.square_center(sq);
        for dz in [0.0, piece, piece + lift] {
            pts.push(c + nalgebra::Vector3::z() * dz);
        }
    }
    pts.push(board.bin_drop_point());
    for i in 0..board.tray_slots() {
        let s = board.tray_slot(i).expect("slot");
        pts.push(s + nalgebra::Vector3::z() * piece);
        pts.push(s + nalgebra::Vector3::z() * (piece + lift));
    }
    pts
}

#[test]
fn every_work_point_converges_to_the_closed_form_from_rest() {
    let arm = ArmConfig::builtin().expect("arm.yaml");
    let ik = ik();
    let rest = {
        let r = arm.rest();
        Joints::new(r[0], r[1], r[2])
    };
    for p in work_points() {
        let sol = ik.solve(p, &rest).expect("reachable");
        let exact = closed_form::solve(ik.geometry(), ik.limits(), p).expect("closed form");
        assert_same(&sol.joints, &exact, 1e-6);
        assert!(sol.residual < 1e-6 * 1e-3, "under a micrometre");
        assert!((ik.forward(&sol.joints) - p).norm() < 1e-9);
    }
}

type ErrorKind = fn(&IkError) -> bool;

#[test]
fn unreachable_targets_say_why() {
    let ik = ik();
    let seed = Joints::from_degrees(0.0, 30.0, 40.0);
    let cases: [(Point3<f64>, ErrorKind); 6] = [
        // Far beyond the arm's span.
        (Point3::new(0.6, 0.0, 0.1), |e| {
            matches!(e, IkError::OutOfReach { .. })
        }),
        // Behind the base: J1 would pass 90 degrees.
        (Point3::new(-0.15, 0.05, 0.1), |e| {
            matches!(e, IkError::JointLimit { joint: "J1", .. })
        }),
        // Under the table, close in: J3 - J2 or J3 would go too far.
        (Point3::new(0.12, 0.0, -0.05), |e| {
            matches!(e, IkError::JointLimit { .. })
        }),
        // Straight up over the base, within the span: needs J2 < 0.
        (Point3::new(0.08, 0.0, 0.33), |e| {
            matches!(e, IkError::JointLimit { .. } | IkError::OutOfReach { .. })
        }),
        (Point3::new(0.0, 0.0, 0.1), |e| {
            matches!(
                e,
                IkError::OnAxis { .. } | IkError::JointLimit { .. } | IkError::OutOfReach { .. }
            )
        }),
        (Point3::new(f64::NAN, 0.0, 0.1), |e| {
            matches!(e, IkError::NotFinite)
        }),
    ];
    for (p, ok) in cases {
        let err = ik.solve(p, &seed).expect_err("unreachable");
        assert!(ok(&err), "{p:?}: {err}");
        assert!(!err.to_string().is_empty());
        assert!(closed_form::solve(ik.geometry(), ik.limits(), p).is_err());
    }
}

#[test]
fn a_seed_a_turn_away_is_wrapped_not_clamped() {
    let ik = ik();
    let p = ik.forward(&Joints::from_degrees(20.0, 40.0, 50.0));
    let seed = Joints::from_degrees(20.0 + 720.0, 40.0, 50.0);
    let sol = ik.solve(p, &seed).expect("reachable");
    assert_same(&sol.joints, &Joints::from_degrees(20.0, 40.0, 50.0), 1e-9);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any pose in the limits is found again from any start in (or outside) the limits,
    /// and it is the closed form's elbow-up answer.
    #[test]
    fn jacobian_ik_agrees_with_closed_form(
        q in joints_in_limits(),
        seed in (-400.0f64..400.0, -30.0f64..120.0, -60.0f64..150.0),
    ) {
        let ik = ik();
        let p = ik.forward(&q);
        let seed = Joints::from_degrees(seed.0, seed.1, seed.2);
        let sol = ik.solve(p, &seed).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let exact = closed_form::solve(ik.geometry(), ik.limits(), p)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!((sol.joints.0 - exact.0).amax() < 1e-6, "{:?} vs {:?}", sol.joints, exact);
        prop_assert!((sol.joints.0 - q.0).amax() < 1e-6);
        prop_assert!(sol.residual <= 1e-9);
        let elbow = sol.joints.j3() - sol.joints.j2();
        prop_assert!(elbow.abs() < std::f64::consts::FRAC_PI_2, "elbow up");
    }

    /// Any point at all: either a pose in the limits that reaches it, or an error, and the
    /// closed form agrees which.
    #[test]
    fn never_a_wrong_pose(
        x in -0.4f64..0.5, y in -0.4f64..0.4, z in -0.2f64..0.5,
        seed in joints_in_limits(),
    ) {
        let ik = ik();
        let p = Point3::new(x, y, z);
        let exact = closed_form::solve(ik.geometry(), ik.limits(), p);
        match ik.solve(p, &seed) {
            Ok(sol) => {
                prop_assert!((ik.forward(&sol.joints) - p).norm() < 1e-9);
                prop_assert!(ik.limits().contains(sol.joints.array()));
                let exact = exact.map_err(|e| TestCaseError::fail(format!("closed form: {e}")))?;
                prop_assert!((sol.joints.0 - exact.0).amax() < 1e-6);
            }
            Err(e) => {
                prop_assert!(exact.is_err(), "IK failed ({e}) where the closed form found {exact:?}");
            }
        }
    }
}
