//! Which square each Hall sensor lies under. The field controller numbers its sensors in wiring
//! order; the board's wiring is configuration (`sensor_map` in config/board_sensor.yaml), so a
//! board wired differently needs no code change.

/// Sensor i (0..32, wiring order) lies under PDN square `squares[i]` (1..32).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SensorMap {
    squares: [u8; 32],
}

/// A `sensor_map` that does not name every square once.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MapError {
    #[error("expected 32 entries, got {0}")]
    Length(usize),
    #[error("entry {index}: {value} is not a square number 1..32")]
    NotASquare { index: usize, value: i64 },
    #[error("square {0} appears twice")]
    Twice(u8),
}

impl SensorMap {
    /// Sensor i under square i + 1.
    pub fn identity() -> SensorMap {
        let mut squares = [0u8; 32];
        for (i, s) in squares.iter_mut().enumerate() {
            *s = i as u8 + 1;
        }
        SensorMap { squares }
    }

    /// From the parameter: 32 square numbers, each once.
    pub fn new(values: &[i64]) -> Result<SensorMap, MapError> {
        if values.len() != 32 {
            return Err(MapError::Length(values.len()));
        }
        let mut squares = [0u8; 32];
        let mut seen = 0u32;
        for (index, &value) in values.iter().enumerate() {
            let n = u8::try_from(value)
                .ok()
                .filter(|n| (1..=32).contains(n))
                .ok_or(MapError::NotASquare { index, value })?;
            if seen & (1 << (n - 1)) != 0 {
                return Err(MapError::Twice(n));
            }
            seen |= 1 << (n - 1);
            squares[index] = n;
        }
        Ok(SensorMap { squares })
    }

    /// The occupancy mask (bit n-1 for square n) of a presence word (bit i for sensor i).
    pub fn occupancy(&self, presence: u32) -> u32 {
        self.squares
            .iter()
            .enumerate()
            .filter(|(i, _)| presence & (1 << i) != 0)
            .fold(0, |mask, (_, &n)| mask | 1 << (n - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_differently_wired_board_is_a_different_map() {
        assert_eq!(SensorMap::identity().occupancy(0b101), 0b101);
        // Wired in reverse: sensor 0 under square 32.
        let reversed: Vec<i64> = (1..=32).rev().collect();
        let map = SensorMap::new(&reversed).expect("a permutation");
        assert_eq!(map.occupancy(1), 1 << 31);
        assert_eq!(map.occupancy(1 << 31 | 1 << 1), 1 | 1 << 30);
    }

    #[test]
    fn maps_must_name_every_square_once() {
        let identity: Vec<i64> = (1..=32).collect();
        assert_eq!(SensorMap::new(&identity[..31]), Err(MapError::Length(31)));
        let mut twice = identity.clone();
        twice[3] = 1;
        assert_eq!(SensorMap::new(&twice), Err(MapError::Twice(1)));
        let mut zero = identity;
        zero[7] = 33;
        assert!(matches!(
            SensorMap::new(&zero),
            Err(MapError::NotASquare { index: 7, .. })
        ));
    }
}
