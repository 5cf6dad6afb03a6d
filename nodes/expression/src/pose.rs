//! Brow servo angles and the neck's pose. Angles in degrees, 0 = the neutral pose; brows:
//! positive raised; neck tilt: positive looking down (`FaceExpression`'s conventions).

use crate::emotion::Emotion;
use crate::eyes::Gaze;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose {
    pub left_brow_deg: f32,
    pub right_brow_deg: f32,
    pub neck_pan_deg: f32,
    pub neck_tilt_deg: f32,
}

/// How far the head bows to look at the board.
pub const BOARD_TILT_DEG: f32 = 25.0;

/// Brows for an emotion at full intensity, scaled by `intensity` (0..1).
pub fn brows(emotion: Emotion, intensity: f32) -> (f32, f32) {
    let (left, right) = match emotion {
        Emotion::Neutral => (0.0, 0.0),
        Emotion::Happy => (10.0, 10.0),
        Emotion::Sad => (15.0, 15.0),
        Emotion::Angry => (-25.0, -25.0),
        Emotion::Surprise => (30.0, 30.0),
        Emotion::Fear => (20.0, 25.0),
        // One brow down, one up: the asymmetry reads as distaste.
        Emotion::Disgust => (-15.0, 5.0),
    };
    let k = intensity.clamp(0.0, 1.0);
    (left * k, right * k)
}

/// The whole pose: the neck bows toward the board while the arm works and is upright while the
/// robot waits or speaks.
pub fn pose(emotion: Emotion, intensity: f32, gaze: Gaze) -> Pose {
    let (left_brow_deg, right_brow_deg) = brows(emotion, intensity);
    Pose {
        left_brow_deg,
        right_brow_deg,
        neck_pan_deg: 0.0,
        neck_tilt_deg: match gaze {
            Gaze::Board => BOARD_TILT_DEG,
            Gaze::Player => 0.0,
        },
    }
}

/// How fast the neck's servos turn (degrees per second): the head controller limits them to it,
/// so this is where the head is while it moves to a new pose.
pub const NECK_RATE_DEG_S: f32 = 120.0;

/// One step of at most `max_step` from `current` toward `target`.
pub fn slew(current: f32, target: f32, max_step: f32) -> f32 {
    current + (target - current).clamp(-max_step.abs(), max_step.abs())
}

/// The neck's joints as the URDF names them (`neck_pan`, `neck_tilt`), in radians, from the pose's
/// degrees: both conventions agree (pan positive to the robot's left, tilt positive looking down).
pub const NECK_JOINTS: [&str; 2] = ["neck_pan", "neck_tilt"];

pub fn neck_positions(pan_deg: f32, tilt_deg: f32) -> [f64; 2] {
    [
        f64::from(pan_deg).to_radians(),
        f64::from(tilt_deg).to_radians(),
    ]
}
