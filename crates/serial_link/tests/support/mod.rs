//! A deterministic simulated serial line between a host link and a controller link: both ends
//! run on a virtual clock, and every frame crossing the line can be dropped, corrupted or
//! duplicated by a seeded generator, so a failing run repeats exactly.

#![allow(dead_code)]

use std::time::{Duration, Instant};

use serial_link::{Event, Link, Message};

/// A small seeded generator (xorshift64), so runs repeat without an RNG dependency.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u32) -> bool {
        (self.next() % 100) < u64::from(percent)
    }
}

/// What the line does to frames, in percent per frame.
#[derive(Debug, Clone, Copy, Default)]
pub struct Faults {
    pub drop: u32,
    pub corrupt: u32,
    pub duplicate: u32,
    /// Chance of a burst of random bytes on the line before a frame.
    pub noise: u32,
}

/// One direction of the line.
#[derive(Debug)]
pub struct Line {
    pub faults: Faults,
    pub cut: bool,
    rng: Rng,
    pub frames: u64,
    pub dropped: u64,
}

impl Line {
    pub fn new(faults: Faults, seed: u64) -> Self {
        Self {
            faults,
            cut: false,
            rng: Rng::new(seed),
            frames: 0,
            dropped: 0,
        }
    }

    /// Passes `bytes` (whole frames, each ending in 0x00) through the line.
    pub fn carry(&mut self, bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        if self.cut {
            return out;
        }
        for frame in bytes.split_inclusive(|&b| b == 0) {
            self.frames += 1;
            if self.rng.chance(self.faults.noise) {
                let n = self.rng.next() % 20;
                for _ in 0..n {
                    out.push(self.rng.next() as u8);
                }
            }
            if self.rng.chance(self.faults.drop) {
                self.dropped += 1;
                continue;
            }
            let mut f = frame.to_vec();
            if self.rng.chance(self.faults.corrupt) && f.len() > 1 {
                let i = (self.rng.next() as usize) % (f.len() - 1);
                f[i] ^= (self.rng.next() as u8) | 1;
            }
            out.extend_from_slice(&f);
            if self.rng.chance(self.faults.duplicate) {
                out.extend_from_slice(frame);
            }
        }
        out
    }
}

/// Two ends, a line each way and a virtual clock. The controller's message sets are normally
/// the host's mirrored; a test of a confused peer can make them differ.
pub struct Bench<HTx, HRx, CTx = HRx, CRx = HTx> {
    pub host: Link<HTx, HRx, Instant>,
    pub ctrl: Link<CTx, CRx, Instant>,
    pub to_ctrl: Line,
    pub to_host: Line,
    pub t0: Instant,
    pub now: Instant,
    pub host_events: Vec<Event<HRx>>,
    pub ctrl_events: Vec<Event<CRx>>,
}

pub const STEP: Duration = Duration::from_millis(5);

impl<HTx: Message, HRx: Message, CTx: Message, CRx: Message> Bench<HTx, HRx, CTx, CRx> {
    pub fn new(
        host: Link<HTx, HRx, Instant>,
        ctrl: Link<CTx, CRx, Instant>,
        t0: Instant,
        faults: Faults,
        seed: u64,
    ) -> Self {
        Self {
            host,
            ctrl,
            to_ctrl: Line::new(faults, seed),
            to_host: Line::new(faults, seed ^ 0xABCD),
            t0,
            now: t0,
            host_events: Vec::new(),
            ctrl_events: Vec::new(),
        }
    }

    /// Moves bytes both ways and fires due timers at the current time; collects events.
    pub fn pump(&mut self) {
        let now = self.now;
        if self.host.poll_timeout().is_some_and(|t| t <= now) {
            self.host.handle_timeout(now);
        }
        if self.ctrl.poll_timeout().is_some_and(|t| t <= now) {
            self.ctrl.handle_timeout(now);
        }
        // A few rounds so replies to replies (an ack of a retransmission, say) flow within one
        // step, as they would on a real line in 5 ms.
        for _ in 0..3 {
            let h = self.host.take_transmit();
            let bytes = self.to_ctrl.carry(&h);
            self.ctrl.receive(&bytes, now);
            let c = self.ctrl.take_transmit();
            let bytes = self.to_host.carry(&c);
            self.host.receive(&bytes, now);
        }
        while let Some(e) = self.host.poll_event() {
            self.host_events.push(e);
        }
        while let Some(e) = self.ctrl.poll_event() {
            self.ctrl_events.push(e);
        }
    }

    /// Advances the clock by one step and pumps.
    pub fn step(&mut self) {
        self.now += STEP;
        self.pump();
    }

    /// Steps until `done` holds or `limit` of virtual time passes; returns whether it held.
    pub fn run_until(&mut self, limit: Duration, mut done: impl FnMut(&Self) -> bool) -> bool {
        let end = self.now + limit;
        self.pump();
        while self.now < end {
            if done(self) {
                return true;
            }
            self.step();
        }
        done(self)
    }

    pub fn run_for(&mut self, d: Duration) {
        let end = self.now + d;
        while self.now < end {
            self.step();
        }
    }

    pub fn both_connected(&self) -> bool {
        self.host.is_connected() && self.ctrl.is_connected()
    }
}
