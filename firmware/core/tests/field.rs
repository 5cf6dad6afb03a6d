//! The field: the fresh-scan rule for snapshots, debouncing, button presses, and the 74HC165
//! chain's bit order.

use std::cell::RefCell;
use std::convert::Infallible;
use std::rc::Rc;

use embedded_hal::delay::DelayNs;
use embedded_hal::digital::{ErrorType, InputPin, OutputPin};
use firmware_core::field::{
    occupied, Button, Field, FieldConfig, FieldInputs, FieldReport, Hc165Field, RawInputs,
};

/// Inputs that read whatever the test sets, counting latches.
#[derive(Default)]
struct Board {
    now: RawInputs,
    latched: RawInputs,
    latches: u32,
}

impl FieldInputs for Board {
    fn latch(&mut self) {
        self.latched = self.now;
        self.latches += 1;
    }
    fn read(&mut self) -> RawInputs {
        self.latched
    }
}

const PERIOD: u64 = 5_000;

fn field() -> Field {
    Field::new(FieldConfig::default())
}

/// Ticks at each scan time for `scans` scans, starting at `*now`.
fn scan(f: &mut Field, b: &mut Board, now: &mut u64, scans: u32) {
    for _ in 0..scans {
        f.tick(*now, b);
        *now += PERIOD;
    }
}

fn snapshots(f: &mut Field) -> Vec<firmware_core::field::Snapshot> {
    std::iter::from_fn(|| f.next_report())
        .filter_map(|r| match r {
            FieldReport::Snapshot(s) => Some(s),
            _ => None,
        })
        .collect()
}

#[test]
fn a_request_is_never_answered_by_a_scan_that_began_before_it() {
    let mut f = field();
    let first = f.begin_scan();
    // The request arrives while scan 0 reads out: scan 0 may not answer it.
    f.request_snapshot();
    f.end_scan(RawInputs {
        sensors: 0b1,
        buttons: 0,
    });
    assert!(f.next_report().is_none());
    let second = f.begin_scan();
    assert_eq!((first, second), (0, 1));
    f.end_scan(RawInputs {
        sensors: 0b11,
        buttons: 0,
    });
    let s = snapshots(&mut f);
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].scan, 2, "the second complete scan");
    // Answered once only.
    f.begin_scan();
    f.end_scan(RawInputs::default());
    assert!(f.next_report().is_none());
}

#[test]
fn two_requests_get_two_scans() {
    let mut f = field();
    let mut b = Board::default();
    let mut now = 0;
    scan(&mut f, &mut b, &mut now, 3);
    f.request_snapshot();
    assert!(f.next_report().is_none(), "not from a scan already done");
    scan(&mut f, &mut b, &mut now, 1);
    let a = snapshots(&mut f);
    f.request_snapshot();
    scan(&mut f, &mut b, &mut now, 1);
    let c = snapshots(&mut f);
    assert_eq!((a[0].scan, c[0].scan), (4, 5));
    assert_eq!(b.latches, 5);
}

#[test]
fn a_new_request_waits_for_a_scan_after_it_too() {
    let mut f = field();
    f.request_snapshot();
    f.begin_scan();
    f.request_snapshot(); // during scan 0: scan 0 answers neither
    f.end_scan(RawInputs::default());
    assert!(f.next_report().is_none());
    f.begin_scan();
    f.end_scan(RawInputs::default());
    assert_eq!(snapshots(&mut f).len(), 1, "one later scan answers both");
}

#[test]
fn sensors_change_only_after_n_stable_scans() {
    let mut f = field(); // 3 scans
    let mut b = Board::default();
    let mut now = 0;
    b.now.sensors = 0xFFF0_0FFF; // the start position, already there at power-up
    scan(&mut f, &mut b, &mut now, 1);
    assert_eq!(f.presence(), 0xFFF0_0FFF, "the first scan is taken as is");
    // A piece lifted from square 12: a flicker of two scans is ignored ...
    b.now.sensors &= !(1 << 11);
    scan(&mut f, &mut b, &mut now, 2);
    b.now.sensors |= 1 << 11;
    scan(&mut f, &mut b, &mut now, 1);
    assert!(occupied(f.presence(), 12));
    // ... three in a row count.
    b.now.sensors &= !(1 << 11);
    scan(&mut f, &mut b, &mut now, 2);
    assert!(occupied(f.presence(), 12));
    scan(&mut f, &mut b, &mut now, 1);
    assert!(!occupied(f.presence(), 12));
    assert!(occupied(f.presence(), 1) && occupied(f.presence(), 32));
    assert!(!occupied(f.presence(), 0) && !occupied(f.presence(), 33));
}

#[test]
fn a_bouncing_button_counts_one_press_and_reports_it() {
    let mut f = field(); // 6 scans x 5 ms = 30 ms
    let mut b = Board::default();
    let mut now = 0;
    scan(&mut f, &mut b, &mut now, 2);
    for level in [1, 0, 1, 1, 0, 1] {
        b.now.buttons = level;
        scan(&mut f, &mut b, &mut now, 1);
    }
    assert_eq!(f.presses(Button::Confirm), 0, "bouncing");
    // Down since the last scan of the bounce: four more make 25 ms, not yet stable.
    scan(&mut f, &mut b, &mut now, 4);
    assert_eq!(f.buttons_held(), 0, "25 ms is not yet stable");
    scan(&mut f, &mut b, &mut now, 1);
    assert_eq!(f.buttons_held(), 1);
    assert_eq!(f.presses(Button::Confirm), 1);
    assert_eq!(
        f.next_report(),
        Some(FieldReport::ButtonPressed {
            button: Button::Confirm,
            presses: 1
        })
    );
    assert_eq!(f.next_report(), None);
    // Held on: no more presses. Released and pressed again: the second.
    scan(&mut f, &mut b, &mut now, 20);
    b.now.buttons = 0;
    scan(&mut f, &mut b, &mut now, 6);
    b.now.buttons = 0b10; // new game this time
    scan(&mut f, &mut b, &mut now, 6);
    assert_eq!(
        (f.presses(Button::Confirm), f.presses(Button::NewGame)),
        (1, 1)
    );
    f.request_snapshot();
    scan(&mut f, &mut b, &mut now, 1);
    let s = snapshots(&mut f)[0];
    assert_eq!(
        (s.buttons_held, s.confirm_presses, s.new_game_presses),
        (0b10, 1, 1)
    );
}

#[test]
fn presses_missed_between_reports_show_in_the_counter() {
    let mut f = field();
    let mut b = Board::default();
    let mut now = 0;
    scan(&mut f, &mut b, &mut now, 1);
    for _ in 0..2 {
        b.now.buttons = 1;
        scan(&mut f, &mut b, &mut now, 6);
        b.now.buttons = 0;
        scan(&mut f, &mut b, &mut now, 6);
    }
    let reports: Vec<_> = std::iter::from_fn(|| f.next_report()).collect();
    assert_eq!(
        reports,
        [FieldReport::ButtonPressed {
            button: Button::Confirm,
            presses: 2
        }]
    );
}

#[test]
fn a_button_held_at_power_up_is_not_a_press_and_a_new_session_forgets_requests() {
    let mut f = field();
    let mut b = Board::default();
    let mut now = 0;
    b.now.buttons = 1;
    scan(&mut f, &mut b, &mut now, 10);
    assert_eq!((f.buttons_held(), f.presses(Button::Confirm)), (1, 0));
    f.request_snapshot();
    f.session_started(now);
    scan(&mut f, &mut b, &mut now, 2);
    assert!(f.next_report().is_none());
}

#[test]
fn a_press_made_while_no_host_listened_is_reported_to_the_next_session_if_recent() {
    use firmware_core::field::PRESS_KEPT_US;
    let press = |f: &mut Field, b: &mut Board, now: &mut u64| {
        b.now.buttons = 1;
        scan(f, b, now, 6);
        b.now.buttons = 0;
        scan(f, b, now, 6);
    };
    let mut f = field();
    let mut b = Board::default();
    let mut now = 0;
    scan(&mut f, &mut b, &mut now, 1);
    // No session: nobody takes the report, and the next session gets it.
    press(&mut f, &mut b, &mut now);
    f.session_started(now + PRESS_KEPT_US / 2);
    assert_eq!(
        f.next_report(),
        Some(FieldReport::ButtonPressed {
            button: Button::Confirm,
            presses: 1
        })
    );
    // A press older than that shows only in the counter.
    press(&mut f, &mut b, &mut now);
    f.session_started(now + PRESS_KEPT_US + PERIOD);
    assert_eq!(f.next_report(), None);
    assert_eq!(f.presses(Button::Confirm), 2);
}

/// A simulated chain of four 74HC165s, wired as the field PCB is.
#[derive(Default)]
struct Chain {
    /// Magnet over square s (bit s - 1).
    magnets: u32,
    buttons_down: u8,
    /// The shift registers, U1 (next to the microcontroller) first; bit 7 is QH.
    regs: [u8; 4],
    clock_high: bool,
    clocks: u32,
}

impl Chain {
    /// SH/LD low: every input into its register. Square s sits on U((s-1)/8 + 1), input H
    /// for the first of each eight; the Hall outputs are low with a magnet.
    fn load(&mut self) {
        for (r, reg) in self.regs.iter_mut().enumerate() {
            *reg = (0..8).fold(0, |acc, i| {
                let square = r * 8 + i;
                let level_high = self.magnets & (1 << square) == 0;
                acc | (u8::from(level_high) << (7 - i))
            });
        }
    }

    fn clock_rise(&mut self) {
        self.clocks += 1;
        for r in 0..4 {
            let next = if r + 1 < 4 { self.regs[r + 1] >> 7 } else { 0 };
            self.regs[r] = (self.regs[r] << 1) | next;
        }
    }
}

type Shared = Rc<RefCell<Chain>>;

struct Load(Shared);
struct Clock(Shared);
struct Data(Shared);
struct ButtonPin(Shared, u8);
struct NoDelay;

impl ErrorType for Load {
    type Error = Infallible;
}
impl ErrorType for Clock {
    type Error = Infallible;
}
impl ErrorType for Data {
    type Error = Infallible;
}
impl ErrorType for ButtonPin {
    type Error = Infallible;
}

impl OutputPin for Load {
    fn set_low(&mut self) -> Result<(), Infallible> {
        self.0.borrow_mut().load();
        Ok(())
    }
    fn set_high(&mut self) -> Result<(), Infallible> {
        Ok(())
    }
}

impl OutputPin for Clock {
    fn set_low(&mut self) -> Result<(), Infallible> {
        self.0.borrow_mut().clock_high = false;
        Ok(())
    }
    fn set_high(&mut self) -> Result<(), Infallible> {
        let mut c = self.0.borrow_mut();
        if !c.clock_high {
            c.clock_rise();
        }
        c.clock_high = true;
        Ok(())
    }
}

impl InputPin for Data {
    fn is_high(&mut self) -> Result<bool, Infallible> {
        Ok(self.0.borrow().regs[0] & 0x80 != 0)
    }
    fn is_low(&mut self) -> Result<bool, Infallible> {
        self.is_high().map(|h| !h)
    }
}

impl InputPin for ButtonPin {
    fn is_high(&mut self) -> Result<bool, Infallible> {
        // To ground when pressed, with a pull-up.
        Ok(self.0.borrow().buttons_down & (1 << self.1) == 0)
    }
    fn is_low(&mut self) -> Result<bool, Infallible> {
        self.is_high().map(|h| !h)
    }
}

impl DelayNs for NoDelay {
    fn delay_ns(&mut self, _ns: u32) {}
}

#[test]
fn the_shift_register_chain_reads_square_s_into_bit_s_minus_1() {
    let chain: Shared = Rc::default();
    let mut inputs = Hc165Field::new(
        Load(chain.clone()),
        Clock(chain.clone()),
        Data(chain.clone()),
        [ButtonPin(chain.clone(), 0), ButtonPin(chain.clone(), 1)],
        NoDelay,
        true,
        true,
    );
    for (magnets, buttons) in [
        (0xFFF0_0FFFu32, 0u8),
        (1 << 0 | 1 << 8 | 1 << 31, 0b01),
        (0, 0b10),
    ] {
        chain.borrow_mut().magnets = magnets;
        chain.borrow_mut().buttons_down = buttons;
        chain.borrow_mut().clocks = 0;
        inputs.latch();
        let raw = inputs.read();
        assert_eq!(raw.sensors, magnets, "{magnets:#010x}");
        assert_eq!(raw.buttons, buttons);
        assert_eq!(chain.borrow().clocks, 32);
    }
    // And through the controller: squares 1, 9 and 32 occupied.
    let mut f = Field::new(FieldConfig {
        sensor_debounce: 1,
        ..FieldConfig::default()
    });
    chain.borrow_mut().magnets = 1 << 0 | 1 << 8 | 1 << 31;
    f.tick(0, &mut inputs);
    let occupied_squares: Vec<u8> = (1..=32).filter(|&s| occupied(f.presence(), s)).collect();
    assert_eq!(occupied_squares, [1, 9, 32]);
}
