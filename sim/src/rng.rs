//! A small seeded generator for faults and the human's random choices: runs repeat when the
//! seed does, and the sim needs no dependency for it.

/// xorshift64*.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// Seed 0 draws a seed from the process's random state.
    pub fn new(seed: u64) -> Rng {
        let seed = if seed == 0 {
            use std::hash::BuildHasher;
            std::collections::hash_map::RandomState::new().hash_one(0u8)
        } else {
            seed
        };
        // xorshift needs a non-zero state.
        Rng(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in 0..1.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        p > 0.0 && self.unit() < p
    }

    /// Uniform in 0..n (0 when n is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }
}
