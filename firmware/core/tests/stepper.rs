//! The step generator: pulse timing against the ideal trapezoid, the acceleration profile, the
//! rate limit, stopping, soft limits and late polling.

use firmware_core::profile::{Demand, Profile};
use firmware_core::stepper::{Direction, OutOfRange, Stepper};

const RATE: u32 = 10_000; // steps/s: 100 us per step at cruise
const ACCEL: u32 = 50_000; // steps/s^2: 0.2 s to top speed, over 1000 steps

/// Runs a stepper to rest, polling exactly when each step is due; the step times.
fn run(s: &mut Stepper) -> Vec<u64> {
    let mut times = Vec::new();
    while let Some(t) = s.next_step_at() {
        assert!(s.poll(t).is_some(), "a due step is taken");
        times.push(t);
    }
    times
}

fn intervals(times: &[u64]) -> Vec<u64> {
    times.windows(2).map(|w| w[1] - w[0]).collect()
}

#[test]
fn a_long_move_accelerates_cruises_and_brakes_symmetrically() {
    let mut s = Stepper::new();
    s.move_to(10_000, RATE, ACCEL, 0)
        .expect("within the limits");
    let t = run(&mut s);
    assert_eq!(t.len(), 10_000, "every step, no more");
    assert_eq!(s.position(), 10_000);
    assert!(!s.is_moving());

    // Accelerating: step k at the moment the ideal position a t^2 / 2 reaches k.
    for k in 1..=1000usize {
        let ideal = (2.0 * k as f64 / f64::from(ACCEL)).sqrt() * 1e6;
        let got = t[k - 1] as f64;
        assert!((got - ideal).abs() <= 1.0, "step {k}: {got} vs {ideal}");
    }
    let iv = intervals(&t);
    // Shrinking while accelerating (within a microsecond of rounding) ...
    for k in 1..999 {
        assert!(
            iv[k] <= iv[k - 1] + 1,
            "interval {k} grows while accelerating"
        );
    }
    assert!(iv[0] > 2 * iv[998], "the ramp really ramps");
    // ... then constant at the top rate ...
    assert!(iv[999..8999].iter().all(|&i| i == 100), "cruise at 100 us");
    // ... the top rate never exceeded ...
    assert!(
        iv.iter().all(|&i| i >= 99),
        "min {}",
        iv.iter().min().expect("steps taken")
    );
    // ... and braking mirrors accelerating, ending exactly at the profile's end.
    let end = *t.last().expect("steps taken");
    assert_eq!(
        end, 1_200_000,
        "0.2 s ramps around 1 s of cruise-equivalent time"
    );
    for j in 1..1000 {
        let from_end = end - t[t.len() - 1 - j];
        assert!(from_end.abs_diff(t[j - 1]) <= 1, "braking step {j}");
    }
    // The acceleration measured from the pulse train.
    let rate = |k: usize| 1e6 / iv[k] as f64;
    let mid = |k: usize| (t[k] + t[k + 1]) as f64 / 2e6;
    let a = (rate(800) - rate(200)) / (mid(800) - mid(200));
    assert!((a / f64::from(ACCEL) - 1.0).abs() < 0.02, "accel {a}");
}

#[test]
fn a_short_move_is_a_triangle_below_the_top_rate() {
    let mut s = Stepper::new();
    s.move_to(-500, RATE, ACCEL, 1_000)
        .expect("within the limits");
    assert_eq!(s.direction(), Some(Direction::Reverse));
    let t = run(&mut s);
    assert_eq!((t.len(), s.position()), (500, -500));
    let iv = intervals(&t);
    let fastest = *iv.iter().min().expect("steps taken");
    // Peak sqrt(a n) = 5000 steps/s: about 200 us, never the 100 us of the top rate.
    assert!((195..=205).contains(&fastest), "fastest {fastest}");
    // No cruise: it shrinks to the middle, then grows.
    let at = iv.iter().position(|&i| i == fastest).expect("the peak");
    assert!((240..260).contains(&at), "peak at step {at}");
    assert_eq!(*t.last().expect("steps taken"), 1_000 + 200_000);
}

#[test]
fn stopping_brakes_at_the_same_rate_and_ends_short() {
    let mut s = Stepper::new();
    s.move_to(10_000, RATE, ACCEL, 0)
        .expect("within the limits");
    let mut t = Vec::new();
    while let Some(due) = s.next_step_at() {
        if due > 500_000 {
            break;
        }
        s.poll(due);
        t.push(due);
    }
    assert_eq!(s.position(), 4_000, "mid-cruise at 0.5 s");
    s.stop(500_000);
    t.extend(run(&mut s));
    // v^2 / 2a = 1000 steps to stand still.
    assert_eq!(s.position(), 5_000);
    let iv = intervals(&t);
    let braking = &iv[4_000..];
    for w in braking.windows(2) {
        assert!(w[1] + 1 >= w[0], "braking never speeds up");
    }
    assert_eq!(
        *t.last().expect("steps taken"),
        500_000 + 200_000,
        "stops after v / a"
    );
}

#[test]
fn stopping_while_accelerating_brakes_from_the_speed_reached() {
    let mut s = Stepper::new();
    s.move_to(10_000, RATE, ACCEL, 0)
        .expect("within the limits");
    while s.next_step_at().expect("moving") <= 100_000 {
        s.poll(s.next_step_at().expect("moving"));
    }
    // 0.1 s in: 250 steps, 5000 steps/s; braking takes as long and as far again.
    assert_eq!(s.position(), 250);
    s.stop(100_000);
    let t = run(&mut s);
    assert_eq!(s.position(), 500);
    assert_eq!(*t.last().expect("steps taken"), 200_000);
}

#[test]
fn emergency_stop_takes_no_further_step() {
    let mut s = Stepper::new();
    s.move_to(1_000, RATE, ACCEL, 0).expect("within the limits");
    let due = s.next_step_at().expect("moving");
    s.poll(due);
    s.emergency_stop();
    assert_eq!(s.next_step_at(), None);
    assert_eq!(s.poll(u64::MAX), None);
    assert_eq!(s.position(), 1);
}

#[test]
fn soft_limits_refuse_targets_beyond_them() {
    let mut s = Stepper::new();
    s.set_limits(Some((-100, 100)));
    assert_eq!(
        s.move_to(101, RATE, ACCEL, 0),
        Err(OutOfRange { target: 101 })
    );
    assert!(!s.is_moving());
    s.move_to(100, RATE, ACCEL, 0).expect("within the limits");
    run(&mut s);
    assert_eq!(s.position(), 100);
    s.set_limits(None);
    assert!(s.allows(1_000_000));
}

#[test]
fn late_polls_delay_steps_by_at_most_the_poll_period_and_lose_none() {
    let mut ideal = Stepper::new();
    ideal
        .move_to(3_000, RATE, ACCEL, 0)
        .expect("within the limits");
    let ideal = run(&mut ideal);

    let mut s = Stepper::new();
    s.move_to(3_000, RATE, ACCEL, 0).expect("within the limits");
    let mut got = Vec::new();
    let mut now = 0;
    while s.is_moving() {
        now += 37;
        if s.poll(now).is_some() {
            got.push(now);
        }
    }
    assert_eq!(got.len(), ideal.len());
    for (g, i) in got.iter().zip(&ideal) {
        assert!(*g >= *i && g - i < 37, "{g} vs {i}");
    }
}

#[test]
fn joints_on_one_profile_end_on_the_same_microsecond() {
    let demands = [
        Demand {
            steps: 3_000,
            max_rate: RATE,
            max_accel: ACCEL,
        },
        Demand {
            steps: 1_234,
            max_rate: RATE,
            max_accel: ACCEL,
        },
        Demand {
            steps: 7,
            max_rate: RATE,
            max_accel: ACCEL,
        },
    ];
    let p = Profile::plan(&demands);
    let ends: Vec<u64> = demands
        .iter()
        .map(|d| p.step_time(p.track(d.steps), d.steps).expect("reached"))
        .collect();
    assert!(
        ends.iter().all(|&e| e == p.end()),
        "{ends:?} vs {}",
        p.end()
    );
    // The longest move sets the pace: it reaches the top rate, the others a share of it.
    let lead = p.track(3_000);
    assert_eq!(p.rate_at(lead, p.accel_end()), u64::from(RATE));
    assert_eq!(p.rate_at(p.track(1_234), p.accel_end()), 4_113);
}

mod pins {
    use std::cell::RefCell;
    use std::convert::Infallible;
    use std::rc::Rc;

    use embedded_hal::delay::DelayNs;
    use embedded_hal::digital::{ErrorType, OutputPin};
    use firmware_core::stepper::{Direction, StepDir};

    type Log = Rc<RefCell<Vec<String>>>;

    struct Pin(&'static str, Log);
    struct Delay(Log);

    impl ErrorType for Pin {
        type Error = Infallible;
    }

    impl OutputPin for Pin {
        fn set_low(&mut self) -> Result<(), Infallible> {
            self.1.borrow_mut().push(format!("{} low", self.0));
            Ok(())
        }
        fn set_high(&mut self) -> Result<(), Infallible> {
            self.1.borrow_mut().push(format!("{} high", self.0));
            Ok(())
        }
    }

    impl DelayNs for Delay {
        fn delay_ns(&mut self, ns: u32) {
            self.0.borrow_mut().push(format!("wait {ns}"));
        }
    }

    #[test]
    fn the_direction_is_set_and_settled_only_when_it_changes() {
        let log = Log::default();
        let mut d = StepDir::new(Pin("step", log.clone()), Pin("dir", log.clone()), true);
        let mut delay = Delay(log.clone());
        d.pulse(Direction::Forward, &mut delay);
        d.pulse(Direction::Forward, &mut delay);
        d.pulse(Direction::Reverse, &mut delay);
        let got = log.borrow().join(", ");
        assert_eq!(
            got,
            "dir low, wait 1000, step high, wait 2000, step low, \
             step high, wait 2000, step low, \
             dir high, wait 1000, step high, wait 2000, step low"
        );
    }
}
