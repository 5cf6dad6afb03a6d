//! Motions on the real arm: each sends one command and waits, on the controller state, for the
//! controller to report it done, while watching for what ends a motion early: the link lost
//! (another session or none), an alarm, a cancel, a deadline.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serial_link::arm::{Alarm, AlarmCode, ArmState, MoveJoints, NO_JOINT};
use serial_link::ArmCommand;
use thiserror::Error;
use tokio::time::Instant;

use super::controller::{to_centideg, ArmLink, ControllerState};
use arm_kinematics::joints::Joints;

/// A move counts as arrived when every joint is this close to its target (the steppers and the
/// centidegree encoding resolve far finer; more means steps were lost).
const ARRIVED_RAD: f64 = 0.5 * std::f64::consts::PI / 180.0;
/// How long the controller may take to confirm a pump switch or a stop.
const CONFIRM: Duration = Duration::from_secs(2);
/// State changes wake a waiter; this wakes it anyway, to see a cancel or a deadline.
const POLL: Duration = Duration::from_millis(20);
/// A joint that turned more than this since the last report is moving.
const MOVED_RAD: f64 = 0.05 * std::f64::consts::PI / 180.0;
/// Homing stands still this long at most (between phases); longer, and it is stuck.
const HOMING_STALL: Duration = Duration::from_secs(10);

/// When a wait gives up: at `at`; with `stall`, not before the arm has stood still that long.
/// The plan's times are a real arm's: a controller slower than real time (the emulated Picos on
/// a loaded machine) still arrives, and only an arm that stopped moving runs out of time.
#[derive(Debug, Clone, Copy)]
struct Deadline {
    at: Instant,
    stall: Option<Duration>,
}

impl Deadline {
    fn fixed(at: Instant) -> Deadline {
        Deadline { at, stall: None }
    }
}

#[derive(Debug, Error, Clone, PartialEq)]
pub enum MotionError {
    #[error("{0}")]
    LinkLost(String),
    #[error("arm controller alarm: {}", describe_alarm(.0))]
    Alarm(Alarm),
    #[error("{what} did not finish within {after:.1} s")]
    Timeout { what: String, after: f64 },
    #[error("the arm stopped {off_deg:.1} degrees short of its target")]
    StoppedShort { off_deg: f64 },
    #[error("cancelled")]
    Cancelled,
}

pub fn describe_alarm(a: &Alarm) -> String {
    let what = match a.code {
        AlarmCode::Limit => "a limit switch closed".to_string(),
        AlarmCode::Stall => "a stepper stalled or lost steps".to_string(),
        AlarmCode::EStop => "the emergency stop is pressed".to_string(),
        AlarmCode::OutOfRange => "a target outside the controller's joint limits".to_string(),
        AlarmCode::NotHomed => "the arm has not been homed".to_string(),
        AlarmCode::Pump => "the pump or its vacuum failed".to_string(),
        AlarmCode::HostLost => "the controller lost the host and stopped".to_string(),
        AlarmCode::Other(c) => format!("alarm code {c}"),
    };
    if a.joint == NO_JOINT {
        format!("{what} (detail {})", a.detail)
    } else {
        format!("{what} on J{} (detail {})", a.joint + 1, a.detail)
    }
}

/// Cancel requests: the running goal's flag, or none.
pub type CancelFlag = Option<Arc<AtomicBool>>;

/// What a motion must not see change under it.
#[derive(Debug, Clone, Copy)]
pub struct Guard {
    session: u64,
    /// None: alarms do not end the wait (clearing one may raise it again).
    alarms: Option<u64>,
}

impl Guard {
    /// The current session, failing at once when there is none.
    pub fn now(link: &ArmLink) -> Result<Guard, MotionError> {
        let s = link.state();
        if !s.connected {
            return Err(MotionError::LinkLost(s.last_loss));
        }
        Ok(Guard {
            session: s.session,
            alarms: Some(s.alarms),
        })
    }

    fn check(&self, s: &ControllerState) -> Result<(), MotionError> {
        if !s.connected || s.session != self.session {
            return Err(MotionError::LinkLost(s.last_loss.clone()));
        }
        if let (Some(seen), Some(a)) = (self.alarms, s.last_alarm) {
            if s.alarms != seen {
                return Err(MotionError::Alarm(a));
            }
        }
        Ok(())
    }
}

/// Runs motions on one link, at one time scale.
#[derive(Debug, Clone)]
pub struct Motion {
    pub link: ArmLink,
    /// How many times faster than real time: joint speeds are multiplied, dwells and deadlines
    /// divided. 1 on the real arm; more in tests and the simulation.
    pub time_scale: f64,
}

impl Motion {
    /// Waits until `done` answers, the guard fails, `cancel` is set, or `deadline` passes
    /// (`on_deadline` is then the answer).
    async fn wait<F>(
        &self,
        guard: Guard,
        cancel: &CancelFlag,
        deadline: Deadline,
        on_deadline: Result<(), MotionError>,
        mut done: F,
    ) -> Result<(), MotionError>
    where
        F: FnMut(&ControllerState) -> Option<Result<(), MotionError>>,
    {
        let mut rx = self.link.watch();
        let mut deadline_at = deadline.at;
        let mut last_seen: Option<Joints> = None;
        loop {
            {
                let s = rx.borrow_and_update();
                guard.check(&s)?;
                if let Some(r) = done(&s) {
                    return r;
                }
                if let (Some(stall), Some(at)) = (deadline.stall, s.joints) {
                    let moved = last_seen.is_none_or(|l| (at.0 - l.0).amax() > MOVED_RAD);
                    if moved {
                        last_seen = Some(at);
                        deadline_at = deadline_at.max(Instant::now() + stall);
                    }
                }
            }
            let deadline = deadline_at;
            if cancel.as_ref().is_some_and(|c| c.load(Ordering::Acquire)) {
                return Err(MotionError::Cancelled);
            }
            if Instant::now() >= deadline {
                return on_deadline;
            }
            tokio::select! {
                changed = rx.changed() => if changed.is_err() {
                    return Err(MotionError::LinkLost("the arm controller's link task stopped".into()));
                },
                _ = tokio::time::sleep(POLL) => {}
                _ = tokio::time::sleep_until(deadline) => {}
            }
        }
    }

    async fn send(&self, cmd: ArmCommand) -> Result<(), MotionError> {
        self.link
            .send(cmd)
            .await
            .map_err(|e| MotionError::LinkLost(e.to_string()))
    }

    /// Moves the joints to `target`, the fastest joint at `speed` rad/s (real time), and waits
    /// for the controller to report the move done and the arm there.
    pub async fn move_to(
        &self,
        target: &Joints,
        speed: f64,
        expected: Duration,
        guard: Guard,
        cancel: &CancelFlag,
    ) -> Result<(), MotionError> {
        let id = self.link.new_move_id();
        let centideg_s = (speed * self.time_scale).to_degrees() * 100.0;
        self.send(ArmCommand::MoveJoints(MoveJoints {
            move_id: id,
            target: to_centideg(target),
            speed: centideg_s.round().clamp(1.0, u32::MAX as f64) as u32,
        }))
        .await?;
        // The controller's own acceleration may differ from the plan's: generous, but bounded.
        let after = expected.as_secs_f64() / self.time_scale * 3.0 + 1.0;
        let deadline = Deadline {
            at: Instant::now() + Duration::from_secs_f64(after),
            stall: Some(Duration::from_secs_f64(after)),
        };
        let timeout = Err(MotionError::Timeout {
            what: "a joint move".into(),
            after,
        });
        let target = *target;
        self.wait(guard, cancel, deadline, timeout, |s| {
            let st = s.status?;
            if st.move_id != id || st.state != ArmState::Idle {
                return None;
            }
            let at = super::controller::to_joints(&st.joints);
            let off = (at.0 - target.0).amax();
            Some(if off <= ARRIVED_RAD {
                Ok(())
            } else {
                Err(MotionError::StoppedShort {
                    off_deg: off.to_degrees(),
                })
            })
        })
        .await
    }

    pub async fn pump(
        &self,
        on: bool,
        guard: Guard,
        cancel: &CancelFlag,
    ) -> Result<(), MotionError> {
        self.send(ArmCommand::SetPump { on }).await?;
        let deadline = Instant::now() + CONFIRM;
        let timeout = Err(MotionError::Timeout {
            what: format!("switching the pump {}", if on { "on" } else { "off" }),
            after: CONFIRM.as_secs_f64(),
        });
        self.wait(guard, cancel, Deadline::fixed(deadline), timeout, |s| {
            s.status.filter(|st| st.pump_on == on).map(|_| Ok(()))
        })
        .await
    }

    /// Holds still for `seconds` (real time), watching the link.
    pub async fn dwell(
        &self,
        seconds: f64,
        guard: Guard,
        cancel: &CancelFlag,
    ) -> Result<(), MotionError> {
        let deadline = Instant::now() + Duration::from_secs_f64(seconds.max(0.0) / self.time_scale);
        self.wait(guard, cancel, Deadline::fixed(deadline), Ok(()), |_| None)
            .await
    }

    /// Decelerates to a standstill and holds; the pump stays as it is (a piece dropped
    /// mid-air lands who knows where).
    pub async fn stop(&self, guard: Guard) -> Result<(), MotionError> {
        self.send(ArmCommand::Stop).await?;
        let deadline = Instant::now() + CONFIRM;
        let timeout = Err(MotionError::Timeout {
            what: "stopping".into(),
            after: CONFIRM.as_secs_f64(),
        });
        self.wait(guard, &None, Deadline::fixed(deadline), timeout, |s| {
            s.status
                .filter(|st| st.state != ArmState::Moving)
                .map(|_| Ok(()))
        })
        .await
    }

    /// A pump found on when the node starts means its last run stopped mid-move (killed, or
    /// the host lost) with a piece in the cup, or about to be. The pump goes off and the piece
    /// drops where the cup is, most likely just over the board, where it was picking or placing:
    /// held on, it would ride along the next homing, and a person putting the board right
    /// could not set that square. Works in the Alarm state too. True if the pump was on.
    pub async fn release_left_piece(&self) -> Result<bool, MotionError> {
        let s = self.link.state();
        if !s.status.is_some_and(|st| st.pump_on) {
            return Ok(false);
        }
        let mut guard = Guard::now(&self.link)?;
        // The host-lost alarm may be reported just after the handshake.
        guard.alarms = None;
        self.pump(false, guard, &None).await?;
        Ok(true)
    }

    /// Leaves the Alarm state if the controller is in it and the cause is gone.
    pub async fn clear_alarm(&self) -> Result<(), MotionError> {
        let mut guard = Guard::now(&self.link)?;
        let s = self.link.state();
        if s.status.map(|st| st.state) != Some(ArmState::Alarm) {
            return Ok(());
        }
        guard.alarms = None;
        self.send(ArmCommand::ClearAlarm).await?;
        let deadline = Instant::now() + CONFIRM;
        let still = Err(s.last_alarm.map_or(
            MotionError::Timeout {
                what: "clearing the alarm".into(),
                after: CONFIRM.as_secs_f64(),
            },
            MotionError::Alarm,
        ));
        let seen = s.statuses;
        self.wait(guard, &None, Deadline::fixed(deadline), still, |st| {
            let status = st.status?;
            (st.statuses > seen && status.state != ArmState::Alarm).then_some(Ok(()))
        })
        .await
    }

    /// Runs the controller's homing sequence when `always` or when it has not homed since
    /// power-up.
    pub async fn home_sequence(&self, always: bool) -> Result<(), MotionError> {
        match self.home_once(always).await {
            // An alarm the link had not yet reported when it was cleared makes the controller
            // ignore Home: clear it now and home once more rather than wait out the deadline.
            Err(MotionError::Alarm(a)) => {
                tracing::warn!(
                    "homing met an alarm ({}); clearing it and homing again",
                    describe_alarm(&a)
                );
                self.clear_alarm().await?;
                self.home_once(always).await
            }
            r => r,
        }
    }

    async fn home_once(&self, always: bool) -> Result<(), MotionError> {
        let guard = Guard::now(&self.link)?;
        let s = self.link.state();
        if !always && s.status.is_some_and(|st| st.homed) {
            return Ok(());
        }
        tracing::info!("running the arm's homing sequence");
        self.send(ArmCommand::Home).await?;
        let seen = s.statuses;
        // Homing runs at the controller's own pace: time_scale does not shorten it.
        let after = 60.0;
        let deadline = Deadline {
            at: Instant::now() + Duration::from_secs_f64(after),
            stall: Some(HOMING_STALL),
        };
        let timeout = Err(MotionError::Timeout {
            what: "homing".into(),
            after,
        });
        self.wait(guard, &None, deadline, timeout, |st| {
            let status = st.status?;
            if st.statuses <= seen {
                return None;
            }
            if status.state == ArmState::Alarm {
                let alarm = st.last_alarm.unwrap_or(Alarm {
                    code: AlarmCode::Other(0),
                    joint: NO_JOINT,
                    detail: 0,
                });
                return Some(Err(MotionError::Alarm(alarm)));
            }
            (status.homed && status.state == ArmState::Idle).then_some(Ok(()))
        })
        .await
    }

    /// Waits, at most `within`, for a session in which the controller has reported its joints:
    /// a goal that arrives while the link is being reopened waits for it rather than fail.
    pub async fn wait_connected(&self, within: Duration) -> bool {
        let mut rx = self.link.watch();
        let ready =
            tokio::time::timeout(within, rx.wait_for(|s| s.connected && s.joints.is_some()))
                .await
                .is_ok_and(|r| r.is_ok());
        ready
    }

    /// The joints now, if the controller has reported them in this session.
    pub fn joints(&self) -> Option<Joints> {
        let s = self.link.state();
        if s.connected {
            s.joints
        } else {
            None
        }
    }
}
