//! Debouncing up to 32 inputs read together: a bit takes a new value only after the raw reading
//! has shown that value for `needed` scans in a row. Hall sensors flicker when a magnet sits
//! near their threshold (a piece off-centre), buttons bounce for a few milliseconds.

/// Debounced state of up to 32 inputs.
#[derive(Debug, Clone)]
pub struct Debouncer {
    stable: u32,
    /// Consecutive scans each bit has disagreed with `stable`.
    counts: [u8; 32],
    needed: u8,
    /// The first reading is taken as is: at power-up there is nothing to debounce against.
    primed: bool,
}

impl Debouncer {
    /// A change must persist `needed` scans (0 and 1: accepted at once).
    pub const fn new(needed: u8) -> Debouncer {
        Debouncer {
            stable: 0,
            counts: [0; 32],
            needed,
            primed: false,
        }
    }

    /// The debounced state.
    pub fn state(&self) -> u32 {
        self.stable
    }

    /// Takes one scan's raw reading; returns the bits that changed state.
    pub fn update(&mut self, raw: u32) -> u32 {
        if !self.primed {
            self.primed = true;
            self.stable = raw;
            return 0;
        }
        let mut changed = 0;
        for (bit, count) in self.counts.iter_mut().enumerate() {
            let mask = 1u32 << bit;
            if (raw ^ self.stable) & mask == 0 {
                *count = 0;
                continue;
            }
            *count = count.saturating_add(1);
            if *count >= self.needed {
                *count = 0;
                self.stable ^= mask;
                changed |= mask;
            }
        }
        changed
    }
}
