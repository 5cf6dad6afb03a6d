//! The head controller: two 8x8 LED eyes, two brow servos, neck pan and tilt servos.
//! Host-to-controller codes 0x50..=0x57, controller-to-host 0x58..=0x5F.

use crate::units::ServoAngle;
use crate::wire::{DecodeError, Message, Reader, Writer};

/// Type code of [`HeadCommand::SetEyes`].
pub const SET_EYES: u8 = 0x50;
/// Type code of [`HeadCommand::SetBrows`].
pub const SET_BROWS: u8 = 0x51;
/// Type code of [`HeadCommand::SetNeck`].
pub const SET_NECK: u8 = 0x52;
/// Type code of [`HeadCommand::SetBrightness`].
pub const SET_BRIGHTNESS: u8 = 0x53;
/// Type code of [`HeadCommand::StatusRequest`].
pub const STATUS_REQUEST: u8 = 0x54;
/// Type code of [`HeadReport::Status`].
pub const STATUS: u8 = 0x58;

/// The highest LED brightness level (MAX7219-style drivers have 16 levels).
pub const MAX_BRIGHTNESS: u8 = 15;

/// One 8x8 eye: byte r is row r counted from the top; in each byte bit 7 is the leftmost LED as
/// seen by someone facing the robot, bit 0 the rightmost. A set bit is a lit LED.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct EyeBitmap(pub [u8; 8]);

impl EyeBitmap {
    /// Whether the LED at `row` (0 top) and `col` (0 left, as seen facing the robot) is lit;
    /// positions off the matrix are dark.
    pub fn get(&self, row: usize, col: usize) -> bool {
        col < 8 && self.0.get(row).is_some_and(|r| r & (0x80 >> col) != 0)
    }

    /// Lights or darkens one LED; positions off the matrix are ignored.
    pub fn set(&mut self, row: usize, col: usize, on: bool) {
        if col >= 8 {
            return;
        }
        if let Some(r) = self.0.get_mut(row) {
            if on {
                *r |= 0x80 >> col;
            } else {
                *r &= !(0x80 >> col);
            }
        }
    }
}

/// Where the head's servos are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeadStatus {
    /// Neck pan now (positive: the head turns to its left).
    pub pan: ServoAngle,
    /// Neck tilt now (positive: the head looks up).
    pub tilt: ServoAngle,
    /// Left brow now.
    pub brow_left: ServoAngle,
    /// Right brow now.
    pub brow_right: ServoAngle,
    /// Whether any servo is still moving toward its target.
    pub moving: bool,
}

/// Host to head controller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeadCommand {
    /// 0x50: show these bitmaps.
    SetEyes {
        /// The robot's left eye (on the viewer's right).
        left: EyeBitmap,
        /// The robot's right eye.
        right: EyeBitmap,
    },
    /// 0x51: brow servo angles, 0 = neutral, positive = raised.
    SetBrows {
        /// Left brow.
        left: ServoAngle,
        /// Right brow.
        right: ServoAngle,
    },
    /// 0x52: neck angles, 0 = straight ahead and level.
    SetNeck {
        /// Pan, positive to the head's left.
        pan: ServoAngle,
        /// Tilt, positive up.
        tilt: ServoAngle,
        /// Servo speed in hundredths of a degree per second; 0: as fast as the servo goes.
        speed: u16,
    },
    /// 0x53: LED brightness, 0..=15.
    SetBrightness {
        /// The level.
        level: u8,
    },
    /// 0x54, no payload: answer with `Status`.
    StatusRequest,
}

/// Head controller to host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeadReport {
    /// 0x58: where the servos are.
    Status(HeadStatus),
}

impl Message for HeadCommand {
    fn msg_type(&self) -> u8 {
        match self {
            Self::SetEyes { .. } => SET_EYES,
            Self::SetBrows { .. } => SET_BROWS,
            Self::SetNeck { .. } => SET_NECK,
            Self::SetBrightness { .. } => SET_BRIGHTNESS,
            Self::StatusRequest => STATUS_REQUEST,
        }
    }

    fn write_payload(&self, w: &mut Writer<'_>) {
        match self {
            Self::SetEyes { left, right } => {
                w.bytes(&left.0).bytes(&right.0);
            }
            Self::SetBrows { left, right } => {
                w.i16(left.0).i16(right.0);
            }
            Self::SetNeck { pan, tilt, speed } => {
                w.i16(pan.0).i16(tilt.0).u16(*speed);
            }
            Self::SetBrightness { level } => {
                w.u8(*level);
            }
            Self::StatusRequest => {}
        }
    }

    fn read_payload(msg_type: u8, r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok(match msg_type {
            SET_EYES => Self::SetEyes {
                left: EyeBitmap(r.array()?),
                right: EyeBitmap(r.array()?),
            },
            SET_BROWS => Self::SetBrows {
                left: ServoAngle(r.i16()?),
                right: ServoAngle(r.i16()?),
            },
            SET_NECK => Self::SetNeck {
                pan: ServoAngle(r.i16()?),
                tilt: ServoAngle(r.i16()?),
                speed: r.u16()?,
            },
            SET_BRIGHTNESS => {
                let level = r.u8()?;
                if level > MAX_BRIGHTNESS {
                    return Err(r.invalid("level", level.into()));
                }
                Self::SetBrightness { level }
            }
            STATUS_REQUEST => Self::StatusRequest,
            t => return Err(DecodeError::UnknownType(t)),
        })
    }
}

impl Message for HeadReport {
    fn msg_type(&self) -> u8 {
        match self {
            Self::Status(_) => STATUS,
        }
    }

    fn write_payload(&self, w: &mut Writer<'_>) {
        match self {
            Self::Status(s) => {
                w.i16(s.pan.0)
                    .i16(s.tilt.0)
                    .i16(s.brow_left.0)
                    .i16(s.brow_right.0)
                    .bool(s.moving);
            }
        }
    }

    fn read_payload(msg_type: u8, r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        match msg_type {
            STATUS => Ok(Self::Status(HeadStatus {
                pan: ServoAngle(r.i16()?),
                tilt: ServoAngle(r.i16()?),
                brow_left: ServoAngle(r.i16()?),
                brow_right: ServoAngle(r.i16()?),
                moving: r.bool("moving")?,
            })),
            t => Err(DecodeError::UnknownType(t)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitmap_bit_order_is_row_major_msb_left() {
        let mut eye = EyeBitmap::default();
        eye.set(0, 0, true);
        eye.set(7, 7, true);
        eye.set(9, 0, true);
        assert_eq!(eye.0, [0x80, 0, 0, 0, 0, 0, 0, 0x01]);
        assert!(eye.get(0, 0) && eye.get(7, 7) && !eye.get(0, 1) && !eye.get(8, 0));
        eye.set(0, 0, false);
        assert_eq!(eye.0[0], 0);
    }
}
