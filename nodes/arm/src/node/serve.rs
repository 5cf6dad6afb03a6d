//! The node's ROS side: the action server, the home service and the joint_states publisher.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use checkers_msgs::action::{ExecuteMove, ExecuteMove_Feedback, ExecuteMove_Result};
use checkers_msgs::msg::Move as MoveMsg;
use checkers_msgs::sensor_msgs::msg::JointState;
use checkers_msgs::srv::{ArmHome, ArmHome_Response};
use ros::{Node, Qos, RunningGoal};

use super::controller::ArmLink;
use super::error::MoveError;
use super::execute::{self, Failure};
use super::goal;
use super::health::{self, Work};
use super::motion::{Motion, MotionError};
use super::{NodeError, Settings};
use crate::pick_place::{PickPlace, SpareKings};
use arm_kinematics::joints::{ARM_JOINTS, WRIST_MIMICS};

struct Ctx {
    motion: Motion,
    planner: PickPlace,
    tray: Mutex<SpareKings>,
    /// One motion at a time: a goal, or a home request.
    busy: tokio::sync::Mutex<()>,
    /// What the arm is doing, and how its moves went, for `/diagnostics`.
    work: Mutex<Work>,
}

impl Ctx {
    fn work(&self, change: impl FnOnce(&mut Work)) {
        change(&mut self.work.lock().unwrap_or_else(|p| p.into_inner()));
    }
}

/// How long a goal or a home request waits for a link being reopened.
const LINK_GRACE: Duration = Duration::from_secs(5);

enum End {
    Succeeded,
    Canceled,
    Aborted,
}

pub(super) async fn serve(
    mut node: Node,
    settings: Settings,
    link: ArmLink,
) -> Result<(), NodeError> {
    let planner = PickPlace::new(&settings.arm, &settings.board);
    let mut tray = planner.full_tray();
    if let Some(kings) = settings.spare_kings {
        for slot in kings..settings.board.tray_slots() {
            tray.take(slot);
        }
    }
    let ctx = Arc::new(Ctx {
        motion: Motion {
            link,
            time_scale: settings.time_scale,
        },
        planner,
        tray: Mutex::new(tray),
        busy: tokio::sync::Mutex::new(()),
        work: Mutex::new(Work {
            activity: "idle".into(),
            ..Work::default()
        }),
    });
    let (c, port) = (Arc::clone(&ctx), settings.port.clone());
    ros::diagnostics::publish_periodically(&mut node, move || {
        let work = c.work.lock().unwrap_or_else(|p| p.into_inner()).clone();
        vec![health::report(
            &port,
            &c.motion.link.state(),
            &c.motion.link.link_health(),
            &work,
        )]
    });

    let joint_states = node.publisher::<JointState>("/joint_states", Qos::Sensor)?;
    let home = node.service_server::<ArmHome>("/arm/home")?;
    let actions = node.action_server::<ExecuteMove>("/arm/execute")?;
    let period = Duration::from_secs_f64(settings.arm.motion.sample_period_s);
    let node = Arc::new(node);

    let (n, c) = (Arc::clone(&node), Arc::clone(&ctx));
    node.spawn(async move { publish_joint_states(&n, &c.motion, joint_states, period).await });
    let c = Arc::clone(&ctx);
    node.spawn(async move {
        home.serve(|req| {
            let c = Arc::clone(&c);
            async move {
                let Ok(_busy) = c.busy.try_lock() else {
                    return ArmHome_Response {
                        success: false,
                        message: "the arm is executing a move".into(),
                    };
                };
                c.motion.wait_connected(LINK_GRACE).await;
                c.work(|w| w.activity = "homing".into());
                let homed = execute::go_home(&c.motion, &c.planner, req.homing_sequence).await;
                c.work(|w| w.activity = "idle".into());
                match homed {
                    Ok(message) => ArmHome_Response {
                        success: true,
                        message,
                    },
                    Err(e) => {
                        tracing::warn!("/arm/home failed: {e}");
                        ArmHome_Response {
                            success: false,
                            message: e.to_string(),
                        }
                    }
                }
            }
        })
        .await
    });

    // Before any goal: a cup still holding on is a piece the last arm node left in it.
    let c = Arc::clone(&ctx);
    let (locked, first) = tokio::sync::oneshot::channel();
    node.spawn(async move {
        let _busy = c.busy.lock().await;
        let _ = locked.send(());
        if !c.motion.wait_connected(LINK_GRACE).await {
            return;
        }
        match c.motion.release_left_piece().await {
            Ok(true) => tracing::warn!(
                "the cup held a piece at start (the last arm node stopped mid-move): let go \
                 where the arm stands; the board is checked before play goes on"
            ),
            Ok(false) => {}
            Err(e) => tracing::warn!("cannot switch off the pump left on: {e}"),
        }
    });
    let _ = first.await;
    tracing::info!(time_scale = settings.time_scale, "arm node running");
    loop {
        let new = actions.next_goal().await;
        let mv = new.goal().game_move.clone();
        let goal = match new.accept().await {
            Ok(g) => g,
            Err(e) => {
                tracing::warn!("cannot accept a goal: {e}");
                continue;
            }
        };
        let _busy = ctx.busy.lock().await;
        ctx.work(|w| w.activity = format!("executing {}", goal::name(&mv)));
        let (end, result) = execute_goal(&ctx, &goal, &mv).await;
        ctx.work(|w| {
            w.activity = "idle".into();
            match end {
                End::Succeeded => w.moves_done += 1,
                End::Canceled => {}
                End::Aborted => {
                    w.moves_failed += 1;
                    w.last_failure = result.message.clone();
                }
            }
        });
        match end {
            End::Succeeded => {
                tracing::info!(mv = %goal::name(&mv), "move done");
                goal.succeed(result);
            }
            End::Canceled => {
                tracing::info!(mv = %goal::name(&mv), "{}", result.message);
                goal.canceled(result);
            }
            End::Aborted => {
                tracing::warn!(mv = %goal::name(&mv), "{}", result.message);
                goal.abort(result);
            }
        }
    }
}

fn result(code: u8, message: String) -> ExecuteMove_Result {
    ExecuteMove_Result {
        success: code == ExecuteMove_Result::ERROR_NONE,
        message,
        error_code: code,
    }
}

async fn execute_goal(
    ctx: &Ctx,
    goal: &RunningGoal<ExecuteMove>,
    mv: &MoveMsg,
) -> (End, ExecuteMove_Result) {
    let name = goal::name(mv);
    let failed = |e: MoveError| result(e.code(), format!("{name}: {e}"));
    let aborted = |e: MoveError| (End::Aborted, failed(e));
    let squares = match goal::check(mv) {
        Ok(s) => s,
        Err(e) => return aborted(e.into()),
    };
    let motion = &ctx.motion;
    // The port reopens every 2 s: a goal sent during a reconnection waits for it.
    motion.wait_connected(LINK_GRACE).await;
    // A controller left in an alarm (a lost host, an e-stop released) is cleared first; one
    // that has not homed since power-up homes first: a move before homing is refused anyway.
    let ready = async {
        motion.clear_alarm().await?;
        motion.home_sequence(false).await
    };
    if let Err(e) = ready.await {
        return aborted(MoveError::NotReady(e));
    }
    let Some(start) = motion.joints() else {
        return aborted(MoveError::NoJoints(motion.link.state().last_loss));
    };
    // The tray's slot is committed only once its king has been picked.
    let mut trial = ctx.tray.lock().unwrap_or_else(|p| p.into_inner()).clone();
    let (from, to) = (squares.from, squares.to);
    let plan = match ctx.planner.plan(
        from,
        to,
        &squares.captured,
        squares.promotes,
        &start,
        &mut trial,
    ) {
        Ok(p) => p,
        Err(e) => return aborted(e.into()),
    };
    let total = plan.steps.len();
    let commit = |done: usize| {
        let king = plan.steps[..done]
            .iter()
            .any(|s| s.description.starts_with("king from tray"));
        if let (true, Some(slot)) = (king, plan.king_slot) {
            ctx.tray
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .take(slot);
        }
    };
    let cancel = Some(goal.cancel_flag());
    let run = execute::run_plan(motion, &plan, &cancel, |i| {
        commit(i);
        let feedback = ExecuteMove_Feedback {
            step: (i + 1) as u32,
            total_steps: total as u32,
            description: plan.steps[i].description.clone(),
        };
        // "pick c3 (1/4)": what the arm is doing, for `/diagnostics` and the web window.
        ctx.work(|w| w.activity = format!("{} ({}/{total})", feedback.description, i + 1));
        async move {
            if let Err(e) = goal.feedback(feedback).await {
                tracing::warn!("feedback not sent: {e}");
            }
        }
    })
    .await;
    commit(total);
    match run {
        Ok(()) => (
            End::Succeeded,
            result(
                ExecuteMove_Result::ERROR_NONE,
                format!("{name}: {total} steps done"),
            ),
        ),
        Err(Failure {
            step,
            error: MotionError::Cancelled,
        }) => {
            let how = execute::stop_safely(motion, &ctx.planner).await;
            (End::Canceled, failed(MoveError::Cancelled { step, how }))
        }
        Err(Failure { step, error }) => {
            if let MotionError::Timeout { .. } = error {
                // The controller may still be moving towards a stale target.
                if let Ok(g) = super::motion::Guard::now(&motion.link) {
                    let _ = motion.stop(g).await;
                }
            }
            aborted(MoveError::Step {
                step,
                error,
                at: motion.joints(),
            })
        }
    }
}

/// `/joint_states` from the controller's reported joints (nothing while it reports none: a
/// stale pose would lie), with the parallelogram's mimic joints filled in too, so any
/// robot_state_publisher shows the tool plate level.
async fn publish_joint_states(
    node: &Node,
    motion: &Motion,
    publisher: ros::Publisher<JointState>,
    period: Duration,
) {
    let mut tick = tokio::time::interval(period);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let names: Vec<String> = ARM_JOINTS
        .iter()
        .chain(WRIST_MIMICS.iter())
        .map(|s| s.to_string())
        .collect();
    loop {
        tick.tick().await;
        let Some(q) = motion.joints() else { continue };
        let [j1, j2, elbow] = q.urdf_positions();
        let mut msg = JointState {
            name: names.clone(),
            position: vec![j1, j2, elbow, -j2, -elbow],
            ..JointState::default()
        };
        msg.header.stamp = node.now();
        if let Err(e) = publisher.publish(msg).await {
            tracing::debug!("joint_states: {e}");
        }
    }
}
