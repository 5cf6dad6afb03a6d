//! Turning raw scans into readings: a reading is trusted only when two consecutive scans agree
//! (a flipped bit or a piece still moving makes them differ), and a scan of several readings is
//! their majority per square.

/// Feeds scans in order; says when two consecutive ones agree.
#[derive(Debug, Clone, Default)]
pub struct Agreement {
    last: Option<u32>,
}

impl Agreement {
    /// The trusted reading once `presence` equals the scan before it.
    pub fn push(&mut self, presence: u32) -> Option<u32> {
        let agreed = (self.last == Some(presence)).then_some(presence);
        self.last = Some(presence);
        agreed
    }
}

/// Per bit, set when more than half of `readings` have it set.
pub fn majority(readings: &[u32]) -> u32 {
    (0..32).fold(0u32, |mask, bit| {
        let votes = readings.iter().filter(|r| *r & (1 << bit) != 0).count();
        if 2 * votes > readings.len() {
            mask | 1 << bit
        } else {
            mask
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reading_needs_two_equal_scans_in_a_row() {
        let mut a = Agreement::default();
        assert_eq!(a.push(0b1011), None);
        assert_eq!(a.push(0b1111), None, "a flipped bit");
        assert_eq!(a.push(0b1011), None, "equal to an older scan, not the last");
        assert_eq!(a.push(0b1011), Some(0b1011));
    }

    #[test]
    fn majority_is_per_square() {
        assert_eq!(majority(&[0b011, 0b110, 0b010]), 0b010);
        assert_eq!(majority(&[0b1, 0b0]), 0, "a tie is not a majority");
        assert_eq!(majority(&[]), 0);
    }
}
