//! The arm controller: three joint steppers and the suction pump. Joint angles follow the
//! Dobot's convention, as the arm node does: J1 base yaw (left positive), J2 the rear arm from
//! vertical (forward positive), J3 the forearm from horizontal (down positive).
//! Host-to-controller codes 0x30..=0x37, controller-to-host 0x38..=0x3F.

use crate::units::CentiDeg;
use crate::wire::{DecodeError, Message, Reader, Writer};

/// Type code of [`ArmCommand::MoveJoints`].
pub const MOVE_JOINTS: u8 = 0x30;
/// Type code of [`ArmCommand::SetPump`].
pub const SET_PUMP: u8 = 0x31;
/// Type code of [`ArmCommand::Home`].
pub const HOME: u8 = 0x32;
/// Type code of [`ArmCommand::Stop`].
pub const STOP: u8 = 0x33;
/// Type code of [`ArmCommand::ClearAlarm`].
pub const CLEAR_ALARM: u8 = 0x34;
/// Type code of [`ArmCommand::StatusRequest`].
pub const STATUS_REQUEST: u8 = 0x35;
/// Type code of [`ArmCommand::SetReportPeriod`].
pub const SET_REPORT_PERIOD: u8 = 0x36;
/// Type code of [`ArmReport::Position`].
pub const POSITION: u8 = 0x38;
/// Type code of [`ArmReport::Status`].
pub const STATUS: u8 = 0x39;
/// Type code of [`ArmReport::Alarm`].
pub const ALARM: u8 = 0x3A;

/// Number of joints.
pub const JOINTS: usize = 3;

/// Value of [`Alarm::joint`] when the alarm concerns no single joint.
pub const NO_JOINT: u8 = 0xFF;

/// What the arm is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArmState {
    /// At rest, ready for a command.
    Idle,
    /// Moving toward a `MoveJoints` target.
    Moving,
    /// Running the homing sequence.
    Homing,
    /// Stopped by an alarm; only `ClearAlarm`, `StatusRequest`, `SetPump` and `SetReportPeriod`
    /// are obeyed until it is cleared.
    Alarm,
}

impl ArmState {
    /// The wire code.
    pub fn code(self) -> u8 {
        match self {
            Self::Idle => 0,
            Self::Moving => 1,
            Self::Homing => 2,
            Self::Alarm => 3,
        }
    }

    /// The state with this wire code.
    pub fn from_code(code: u8) -> Option<Self> {
        match code {
            0 => Some(Self::Idle),
            1 => Some(Self::Moving),
            2 => Some(Self::Homing),
            3 => Some(Self::Alarm),
            _ => None,
        }
    }
}

/// Why the arm stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AlarmCode {
    /// A limit switch closed outside homing.
    Limit,
    /// A stepper lost steps or stalled.
    Stall,
    /// The emergency stop was pressed.
    EStop,
    /// A `MoveJoints` target lies outside the joint limits; the move was not started.
    OutOfRange,
    /// A `MoveJoints` arrived before the arm was homed; the move was not started.
    NotHomed,
    /// The pump or its pressure sensor failed.
    Pump,
    /// The host went silent and the controller stopped the arm.
    HostLost,
    /// A code this version does not define.
    Other(u8),
}

impl AlarmCode {
    /// The wire code.
    pub fn code(self) -> u8 {
        match self {
            Self::Limit => 1,
            Self::Stall => 2,
            Self::EStop => 3,
            Self::OutOfRange => 4,
            Self::NotHomed => 5,
            Self::Pump => 6,
            Self::HostLost => 7,
            Self::Other(c) => c,
        }
    }

    /// The alarm for a wire code.
    pub fn from_code(code: u8) -> Self {
        match code {
            1 => Self::Limit,
            2 => Self::Stall,
            3 => Self::EStop,
            4 => Self::OutOfRange,
            5 => Self::NotHomed,
            6 => Self::Pump,
            7 => Self::HostLost,
            c => Self::Other(c),
        }
    }
}

/// A joint-space motion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveJoints {
    /// Chosen by the host; reported back in `Status` so the host knows which move finished.
    pub move_id: u16,
    /// Target angles of J1, J2, J3.
    pub target: [CentiDeg; JOINTS],
    /// Top speed of the fastest joint in hundredths of a degree per second; the others are
    /// scaled so all joints arrive together. 0: the controller's default.
    pub speed: u32,
}

/// The arm's state, sent whenever it changes and on request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArmStatus {
    /// What it is doing.
    pub state: ArmState,
    /// Whether homing has completed since power-up.
    pub homed: bool,
    /// Whether the pump is on.
    pub pump_on: bool,
    /// The `move_id` of the current move, or of the last one if idle.
    pub move_id: u16,
    /// Joint angles now.
    pub joints: [CentiDeg; JOINTS],
}

/// An alarm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Alarm {
    /// What happened.
    pub code: AlarmCode,
    /// The joint concerned (0 = J1), or [`NO_JOINT`].
    pub joint: u8,
    /// Code-specific detail, for example the angle at which a limit closed, in centidegrees.
    pub detail: i32,
}

/// Host to arm controller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArmCommand {
    /// 0x30: move the joints; replaces any move in progress.
    MoveJoints(MoveJoints),
    /// 0x31: pump on or off.
    SetPump {
        /// On.
        on: bool,
    },
    /// 0x32, no payload: run the homing sequence.
    Home,
    /// 0x33, no payload: decelerate and hold position; the pump is left as it is.
    Stop,
    /// 0x34, no payload: leave the alarm state if its cause is gone.
    ClearAlarm,
    /// 0x35, no payload: answer with `Status`.
    StatusRequest,
    /// 0x36: send `Position` every `period_ms` milliseconds; 0 stops the reports.
    SetReportPeriod {
        /// The period.
        period_ms: u16,
    },
}

/// Arm controller to host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArmReport {
    /// 0x38: joint angles now; periodic, sent unreliably (a lost one is replaced by the next).
    Position {
        /// J1, J2, J3.
        joints: [CentiDeg; JOINTS],
    },
    /// 0x39: the arm's state.
    Status(ArmStatus),
    /// 0x3A: an alarm was raised.
    Alarm(Alarm),
}

fn write_joints(w: &mut Writer<'_>, joints: &[CentiDeg; JOINTS]) {
    for j in joints {
        w.i32(j.0);
    }
}

fn read_joints(r: &mut Reader<'_>) -> Result<[CentiDeg; JOINTS], DecodeError> {
    Ok([CentiDeg(r.i32()?), CentiDeg(r.i32()?), CentiDeg(r.i32()?)])
}

impl Message for ArmCommand {
    fn msg_type(&self) -> u8 {
        match self {
            Self::MoveJoints(_) => MOVE_JOINTS,
            Self::SetPump { .. } => SET_PUMP,
            Self::Home => HOME,
            Self::Stop => STOP,
            Self::ClearAlarm => CLEAR_ALARM,
            Self::StatusRequest => STATUS_REQUEST,
            Self::SetReportPeriod { .. } => SET_REPORT_PERIOD,
        }
    }

    fn write_payload(&self, w: &mut Writer<'_>) {
        match self {
            Self::MoveJoints(m) => {
                w.u16(m.move_id);
                write_joints(w, &m.target);
                w.u32(m.speed);
            }
            Self::SetPump { on } => {
                w.bool(*on);
            }
            Self::Home | Self::Stop | Self::ClearAlarm | Self::StatusRequest => {}
            Self::SetReportPeriod { period_ms } => {
                w.u16(*period_ms);
            }
        }
    }

    fn read_payload(msg_type: u8, r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok(match msg_type {
            MOVE_JOINTS => Self::MoveJoints(MoveJoints {
                move_id: r.u16()?,
                target: read_joints(r)?,
                speed: r.u32()?,
            }),
            SET_PUMP => Self::SetPump { on: r.bool("on")? },
            HOME => Self::Home,
            STOP => Self::Stop,
            CLEAR_ALARM => Self::ClearAlarm,
            STATUS_REQUEST => Self::StatusRequest,
            SET_REPORT_PERIOD => Self::SetReportPeriod {
                period_ms: r.u16()?,
            },
            t => return Err(DecodeError::UnknownType(t)),
        })
    }
}

impl Message for ArmReport {
    fn msg_type(&self) -> u8 {
        match self {
            Self::Position { .. } => POSITION,
            Self::Status(_) => STATUS,
            Self::Alarm(_) => ALARM,
        }
    }

    fn write_payload(&self, w: &mut Writer<'_>) {
        match self {
            Self::Position { joints } => write_joints(w, joints),
            Self::Status(s) => {
                w.u8(s.state.code())
                    .bool(s.homed)
                    .bool(s.pump_on)
                    .u16(s.move_id);
                write_joints(w, &s.joints);
            }
            Self::Alarm(a) => {
                w.u8(a.code.code()).u8(a.joint).i32(a.detail);
            }
        }
    }

    fn read_payload(msg_type: u8, r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok(match msg_type {
            POSITION => Self::Position {
                joints: read_joints(r)?,
            },
            STATUS => {
                let code = r.u8()?;
                let state =
                    ArmState::from_code(code).ok_or_else(|| r.invalid("state", code.into()))?;
                Self::Status(ArmStatus {
                    state,
                    homed: r.bool("homed")?,
                    pump_on: r.bool("pump_on")?,
                    move_id: r.u16()?,
                    joints: read_joints(r)?,
                })
            }
            ALARM => {
                let code = AlarmCode::from_code(r.u8()?);
                let joint = r.u8()?;
                if usize::from(joint) >= JOINTS && joint != NO_JOINT {
                    return Err(r.invalid("joint", joint.into()));
                }
                Self::Alarm(Alarm {
                    code,
                    joint,
                    detail: r.i32()?,
                })
            }
            t => return Err(DecodeError::UnknownType(t)),
        })
    }
}
