//! Executing a plan on the arm: the plan's joint-space waypoints go to the controller one
//! `MoveJoints` at a time, each at the speed the trajectory gives its fastest joint, each
//! awaited until the controller reports it done; pump switches and dwells in between.
//!
//! Why waypoints and not 50 Hz set-points: the protocol's `MoveJoints` is point-to-point with
//! the controller's own acceleration, and a new one replaces the move in progress. Set-points
//! streamed over the stop-and-wait link would cut every move short mid-acceleration; the
//! waypoints (descents already split until straight within 0.2 mm) give the same path.
//!
//! Cancel: the arm decelerates to a standstill (`Stop`), then, if the cup is below travel
//! height, rises straight up to it, the pump left as it was: a piece in the cup stays there
//! (dropped mid-move it would land off any square, and the board could no longer be read).
//! `/arm/home` lets it go at the rest pose, off the board.

use std::time::Duration;

use nalgebra::Point3;

use super::error::HomeError;
use super::motion::{CancelFlag, Guard, Motion, MotionError};
use crate::pick_place::{Action, PickPlace, Plan};
use arm_kinematics::joints::Joints;
use arm_kinematics::trajectory::Segment;

/// Lifting after a cancel: a third of the plan's joint speed limit, and straight in this many
/// pieces (a 30 mm lift as one joint-space line bows up to 1 mm).
const LIFT_SPEED_FRACTION: f64 = 0.3;
const LIFT_PIECES: usize = 3;

/// Why a plan stopped, and in which step.
#[derive(Debug, Clone)]
pub struct Failure {
    pub step: String,
    pub error: MotionError,
}

/// The speed of the fastest joint at the middle of `seg`, where the trapezoid peaks, rad/s.
fn peak_speed(seg: &Segment) -> f64 {
    let (_, qd, _) = seg.sample(seg.duration() / 2.0);
    qd.amax()
}

/// Runs `plan` from its first step; `on_step(i, description)` is awaited as each step starts
/// (the action's feedback), `after_step(i)` as each ends.
pub async fn run_plan<F, Fut>(
    motion: &Motion,
    plan: &Plan,
    cancel: &CancelFlag,
    mut on_step: F,
) -> Result<(), Failure>
where
    F: FnMut(usize) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    for (i, step) in plan.steps.iter().enumerate() {
        on_step(i).await;
        let fail = |error| Failure {
            step: step.description.clone(),
            error,
        };
        let guard = Guard::now(&motion.link).map_err(fail)?;
        for action in &step.actions {
            match action {
                Action::Move {
                    joints, segment, ..
                } => {
                    if segment.duration() <= 0.0 {
                        continue;
                    }
                    let expected = Duration::from_secs_f64(segment.duration());
                    motion
                        .move_to(joints, peak_speed(segment), expected, guard, cancel)
                        .await
                        .map_err(fail)?;
                }
                Action::Pump { on } => motion.pump(*on, guard, cancel).await.map_err(fail)?,
                Action::Dwell { seconds } => {
                    motion.dwell(*seconds, guard, cancel).await.map_err(fail)?
                }
            }
        }
    }
    Ok(())
}

/// After a cancel: stop, then rise straight up to travel height, the pump as it was. Returns
/// what was done, for the result's message.
pub async fn stop_safely(motion: &Motion, planner: &PickPlace) -> String {
    let guard = match Guard::now(&motion.link) {
        Ok(g) => g,
        Err(e) => return format!("could not stop the arm: {e}"),
    };
    if let Err(e) = motion.stop(guard).await {
        return format!("could not stop the arm: {e}");
    }
    let pump = if motion.link.state().status.is_some_and(|s| s.pump_on) {
        "the pump is on, the piece still held"
    } else {
        "the cup is empty"
    };
    let Some(mut q) = motion.joints() else {
        return format!("the arm stopped; {pump}");
    };
    let ik = planner.ik();
    let here = ik.forward(&q);
    let top = planner.travel_z();
    if here.z >= top - 1e-3 {
        return format!("the arm stopped where it was; {pump}");
    }
    let limits = planner.limits();
    let speed = limits
        .velocity
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min)
        * LIFT_SPEED_FRACTION;
    for k in 1..=LIFT_PIECES {
        let z = here.z + (top - here.z) * k as f64 / LIFT_PIECES as f64;
        let target = match ik.solve(Point3::new(here.x, here.y, z), &q) {
            Ok(sol) => sol.joints,
            Err(e) => return format!("the arm stopped; cannot lift the cup: {e}; {pump}"),
        };
        let expected = Duration::from_secs_f64(Segment::new(q, target, limits).duration() * 2.0);
        if let Err(e) = motion.move_to(&target, speed, expected, guard, &None).await {
            return format!("the arm stopped; lifting the cup failed: {e}; {pump}");
        }
        q = target;
    }
    format!(
        "the arm stopped and lifted the cup straight up to {:.0} mm; {pump}",
        top * 1e3
    )
}

/// The rest pose from wherever the arm is, the pump off at the end (`/arm/home`).
pub async fn go_home(
    motion: &Motion,
    planner: &PickPlace,
    homing: bool,
) -> Result<String, HomeError> {
    motion.clear_alarm().await?;
    motion.home_sequence(homing).await?;
    let start = motion.joints().ok_or(HomeError::NoJoints)?;
    let plan = planner.plan_home(&start)?;
    run_plan(motion, &plan, &None, |_| async {})
        .await
        .map_err(|f| f.error)?;
    let guard = Guard::now(&motion.link)?;
    motion.pump(false, guard, &None).await?;
    Ok("at the rest pose".into())
}

/// Where the arm is, in degrees, for messages.
pub fn degrees(q: &Joints) -> String {
    let a = q.array();
    format!(
        "J1 {:.1} J2 {:.1} J3 {:.1} deg",
        a[0].to_degrees(),
        a[1].to_degrees(),
        a[2].to_degrees()
    )
}
