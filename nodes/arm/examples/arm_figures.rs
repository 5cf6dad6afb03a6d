//! The figures of docs/arm.md: IK convergence, error, iterations and time per solve on every
//! place the arm goes in a game (squares at board and approach heights, bin, tray), and the
//! time to plan a whole move.
//! `cargo run --release -p arm --example arm_figures`

use std::hint::black_box;
use std::time::Instant;

use arm::PickPlace;
use arm_kinematics::{closed_form, ArmConfig, BoardConfig, Ik, Joints};
use draughts::Square;
use nalgebra::{Point3, Vector3};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let arm = ArmConfig::builtin()?;
    let board = BoardConfig::builtin()?;
    let ik = Ik::new(&arm);
    let piece = board.pieces.height_m;
    let lift = arm.motion.approach_height_m;

    let mut points: Vec<Point3<f64>> = Vec::new();
    for sq in Square::all() {
        let c = board.square_center(sq);
        points.push(c + Vector3::z() * piece);
        points.push(c + Vector3::z() * (piece + lift));
    }
    points.push(board.bin_drop_point());
    for i in 0..board.tray_slots() {
        if let Some(s) = board.tray_slot(i) {
            points.push(s + Vector3::z() * piece);
            points.push(s + Vector3::z() * (piece + lift));
        }
    }
    let r = arm.rest();
    let rest = Joints::new(r[0], r[1], r[2]);

    // From rest to each point, and from each point's approach pose down to it (the common
    // case in a plan: the seed is the previous waypoint).
    let mut seeds = Vec::new();
    for (i, p) in points.iter().enumerate() {
        seeds.push((rest, *p));
        if i % 2 == 0 && i + 1 < points.len() {
            let above = ik.solve(points[i + 1], &rest)?.joints;
            seeds.push((above, *p));
        }
    }
    let (mut ok, mut worst_err, mut worst_rad, mut iters, mut max_iters) =
        (0, 0.0f64, 0.0f64, 0u64, 0);
    for (seed, p) in &seeds {
        if let Ok(sol) = ik.solve(*p, seed) {
            ok += 1;
            worst_err = worst_err.max((ik.forward(&sol.joints) - p).norm());
            let exact = closed_form::solve(ik.geometry(), ik.limits(), *p)?;
            worst_rad = worst_rad.max((sol.joints.0 - exact.0).amax());
            iters += u64::from(sol.iterations);
            max_iters = max_iters.max(sol.iterations);
        }
    }
    println!(
        "IK: {ok}/{} solves converged, worst error {:.2e} m, worst difference from the closed form {:.2e} rad",
        seeds.len(),
        worst_err,
        worst_rad
    );
    println!(
        "IK: {:.2} iterations on average, {max_iters} at most",
        iters as f64 / seeds.len() as f64
    );

    for (name, subset) in [
        (
            "from rest",
            seeds
                .iter()
                .filter(|(s, _)| *s == rest)
                .copied()
                .collect::<Vec<_>>(),
        ),
        (
            "from the approach pose",
            seeds.iter().filter(|(s, _)| *s != rest).copied().collect(),
        ),
    ] {
        let rounds = 20_000;
        let start = Instant::now();
        for _ in 0..rounds {
            for (seed, p) in &subset {
                let _ = black_box(ik.solve(black_box(*p), black_box(seed)));
            }
        }
        let per = start.elapsed().as_secs_f64() / (rounds * subset.len()) as f64;
        println!("IK {name}: {:.3} us per solve", per * 1e6);
    }
    let rounds = 200_000;
    let start = Instant::now();
    for _ in 0..rounds {
        for (_, p) in &seeds {
            let _ = black_box(closed_form::solve(
                ik.geometry(),
                ik.limits(),
                black_box(*p),
            ));
        }
    }
    let per = start.elapsed().as_secs_f64() / (rounds * seeds.len()) as f64;
    println!("closed form: {:.3} us per solve", per * 1e6);

    // A triple capture with promotion: the longest plan in the figures.
    let planner = PickPlace::new(&arm, &board);
    let pos = draughts::parse_fen("W:Wb4:Bc5,e7,g7")?;
    let mv = pos
        .legal_moves()
        .into_iter()
        .find(|m| m.text() == "b4:d6:f8:h6")
        .ok_or("b4:d6:f8:h6 is not legal")?;
    let plan = planner.plan_move(&mv, &rest, &mut planner.full_tray())?;
    let moves = plan.waypoints().count();
    let trajectory = plan.trajectory();
    println!(
        "plan b4:d6:f8:h6 (3 captures, promotion): {} steps, {moves} moves, {:.2} s of motion",
        plan.steps.len(),
        trajectory.duration()
    );
    let rounds = 2_000;
    let start = Instant::now();
    for _ in 0..rounds {
        let mut tray = planner.full_tray();
        let plan = planner.plan_move(black_box(&mv), black_box(&rest), &mut tray)?;
        black_box(plan.trajectory());
    }
    let per = start.elapsed().as_secs_f64() / f64::from(rounds);
    println!("plan and time it: {:.1} us per move", per * 1e6);
    let start = Instant::now();
    let mut n = 0;
    for _ in 0..20 {
        n += black_box(trajectory.samples(arm.motion.sample_period_s)).len();
    }
    println!(
        "sampling at {} s: {:.2} us per sample",
        arm.motion.sample_period_s,
        start.elapsed().as_secs_f64() / n as f64 * 1e6
    );
    Ok(())
}
