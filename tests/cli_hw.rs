//! `checkers-robot hw`, the bring-up tools, against the simulated controllers (`--sim`: the
//! firmware core over simulated electronics), and their errors for a missing or wrong device.

mod cli_support;
mod pico_support;

use cli_support::{cli, stderr, stdout};
use pico_support::pico_built;

#[test]
fn ports_finds_the_three_controllers_with_their_firmware_ids() {
    let o = cli(&["hw", "--sim", "ports"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for kind in ["field", "arm", "head"] {
        assert!(
            out.lines().any(|l| l.ends_with(&format!(
                "/{kind}  {kind} controller  firmware \"sim-{kind} {}\"  protocol 1",
                env!("CARGO_PKG_VERSION")
            ))),
            "{out}"
        );
    }
    assert!(!stderr(&o).contains("WARN"), "{}", stderr(&o));
}

#[test]
fn the_field_shows_the_start_position_and_the_buttons() {
    let o = cli(&["hw", "--sim", "field", "--count", "2", "--every", "10ms"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(
        out.matches("pieces 24  confirm up (0 presses)").count(),
        2,
        "{out}"
    );
    assert!(out.contains("8    o   o   o   o\n"), "{out}");
    assert!(out.contains("4    .   .   .   .\n"), "{out}");
}

#[test]
fn the_arm_homes_against_its_switches_and_jogs_a_joint() {
    let o = cli(&["hw", "--sim", "arm", "status"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("state idle  homed no"),
        "{}",
        stdout(&o)
    );

    let o = cli(&["hw", "--sim", "arm", "jog", "--joint", "1", "--by", "10"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("the arm is not homed"),
        "{}",
        stderr(&o)
    );

    let o = cli(&[
        "hw", "--sim", "arm", "jog", "--home", "--joint", "2", "--by", "12.5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).trim(),
        "state idle  homed yes  pump off  J1 0.00°  J2 12.50°  J3 0.00°"
    );

    // Below J2's soft limit: refused, with the reason.
    let o = cli(&[
        "hw", "--sim", "arm", "jog", "--home", "--joint", "2", "--by", "-5",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("outside the soft limits on J2"),
        "{}",
        stderr(&o)
    );

    let o = cli(&["hw", "--sim", "arm", "pump", "on"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("pump on"), "{}", stdout(&o));
}

#[test]
fn the_head_sweeps_its_servos() {
    let o = cli(&["hw", "--sim", "head", "sweep", "--range", "15"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("neck pan left     pan   15.0°"), "{out}");
    assert!(
        out.contains("brows down        pan    0.0°  tilt    0.0°  brows  -15.0°  -15.0°"),
        "{out}"
    );
    let o = cli(&["hw", "--sim", "head", "eyes"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).ends_with("face\n"), "{}", stdout(&o));
}

#[test]
fn a_missing_or_wrong_device_is_a_clear_error() {
    let o = cli(&["hw", "arm", "--port", "/nonexistent/ttyACM9", "status"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("/nonexistent/ttyACM9: no such port"),
        "{}",
        stderr(&o)
    );
    let o = cli(&["hw", "--sim", "arm", "--port", "field", "status"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("expected the arm controller, found the field controller"),
        "{}",
        stderr(&o)
    );
    let o = cli(&["hw", "ports", "/dev/null"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).starts_with("/dev/null  -  "), "{}", stdout(&o));
}

#[test]
fn the_emulated_picos_answer_as_hardware_does() {
    if !pico_built() {
        return;
    }
    let emulated = ["hw", "--sim", "--firmware", "emulated"];
    let with = |rest: &[&str]| cli(&[&emulated[..], rest].concat());

    let o = with(&["ports"]);
    assert!(o.status.success(), "{}", stderr(&o));
    for kind in ["field", "arm", "head"] {
        assert!(
            stdout(&o).contains(&format!(
                "/{kind}  {kind} controller  firmware \"pico-{kind} 0.1.0\"  protocol 1"
            )),
            "{}",
            stdout(&o)
        );
    }

    // The start position through the 74HC165 chain, scanned by the compiled firmware.
    let o = with(&["field", "--count", "1", "--every", "10ms"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("pieces 24  confirm up (0 presses)"),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("8    o   o   o   o\n"),
        "{}",
        stdout(&o)
    );

    // Homing seeks the simulated switches with real step pulses, then a joint is jogged.
    let o = with(&["arm", "jog", "--home", "--joint", "2", "--by", "12.5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).lines().last().unwrap_or_default().trim(),
        "state idle  homed yes  pump off  J1 0.00°  J2 12.50°  J3 0.00°"
    );
    assert!(!stderr(&o).contains("WARN"), "{}", stderr(&o));
}
