//! Angles on the wire: hundredths of a degree, signed integers.
//!
//! Integers keep the layout exact and firmware free of floating point; 0.01 degree is finer than
//! the steppers and hobby servos on this robot can resolve. The ROS side works in radians, so
//! conversions live here, once.

/// Rounds half away from zero, as `f64::round`, which `core` lacks.
fn round(x: f64) -> f64 {
    // Truncation by `as` happens at the call; NaN stays NaN and becomes 0 there.
    if x >= 0.0 {
        x + 0.5
    } else {
        x - 0.5
    }
}

/// An arm joint angle or speed in hundredths of a degree (i32 on the wire).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct CentiDeg(pub i32);

impl CentiDeg {
    /// The nearest value to `rad` radians, saturating at the ends of the range.
    pub fn from_radians(rad: f64) -> Self {
        // `as` from f64 saturates and maps NaN to 0, which is what a wire value needs.
        Self(round(rad.to_degrees() * 100.0) as i32)
    }

    /// The nearest value to `deg` degrees, saturating.
    pub fn from_degrees(deg: f64) -> Self {
        Self(round(deg * 100.0) as i32)
    }

    /// The angle in radians.
    pub fn radians(self) -> f64 {
        (f64::from(self.0) / 100.0).to_radians()
    }

    /// The angle in degrees.
    pub fn degrees(self) -> f64 {
        f64::from(self.0) / 100.0
    }
}

/// A servo angle in hundredths of a degree (i16 on the wire: +-327.67 degrees).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct ServoAngle(pub i16);

impl ServoAngle {
    /// The nearest value to `rad` radians, saturating.
    pub fn from_radians(rad: f64) -> Self {
        Self(round(rad.to_degrees() * 100.0) as i16)
    }

    /// The nearest value to `deg` degrees, saturating.
    pub fn from_degrees(deg: f64) -> Self {
        Self(round(deg * 100.0) as i16)
    }

    /// The angle in radians.
    pub fn radians(self) -> f64 {
        (f64::from(self.0) / 100.0).to_radians()
    }

    /// The angle in degrees.
    pub fn degrees(self) -> f64 {
        f64::from(self.0) / 100.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn degrees_and_radians_agree() {
        assert_eq!(CentiDeg::from_degrees(90.0), CentiDeg(9000));
        assert_eq!(
            CentiDeg::from_radians(std::f64::consts::FRAC_PI_2),
            CentiDeg(9000)
        );
        assert_eq!(ServoAngle::from_degrees(-12.345), ServoAngle(-1235));
        assert_eq!(ServoAngle::from_degrees(1e9), ServoAngle(i16::MAX));
        assert_eq!(CentiDeg::from_radians(f64::NAN), CentiDeg(0));
    }

    proptest! {
        #[test]
        fn radians_survive_the_wire_within_half_a_step(rad in -3.0f64..3.0) {
            let back = CentiDeg::from_radians(rad).radians();
            prop_assert!((back - rad).abs() <= 0.005f64.to_radians() + 1e-12);
        }

        #[test]
        fn wire_values_survive_radians(v: i32) {
            prop_assert_eq!(CentiDeg::from_radians(CentiDeg(v).radians()), CentiDeg(v));
        }
    }
}
