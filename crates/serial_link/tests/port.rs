//! Ports: a host opens a pseudo-terminal's device end with `port::open`, as a driver node opens
//! the simulator's controller, and a link runs over it; the device can be closed and opened
//! again; the host sees the end of the stream when the controller's side goes away.
#![cfg(all(feature = "port", unix))]

use std::time::Instant;

use serial_link::field::Snapshot;
use serial_link::port::{self, Pty, DEFAULT_BAUD};
use serial_link::transport::spawn;
use serial_link::{
    ControllerKind, Event, FieldCommand, FieldController, FieldHost, FieldReport, FirmwareId,
    LinkConfig,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::time::{timeout, Duration};

/// A guard against a hang, not a timing assertion.
const GUARD: Duration = Duration::from_secs(20);

async fn next_matching<R: std::fmt::Debug>(
    events: &mut tokio::sync::mpsc::Receiver<Event<R>>,
    mut want: impl FnMut(&Event<R>) -> bool,
) -> Event<R> {
    loop {
        match events.recv().await {
            Some(e) if want(&e) => return e,
            Some(_) => {}
            None => panic!("link task ended"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn raw_bytes_pass_both_ways_unchanged() {
    let Pty { mut master, slave } = Pty::open().expect("pty");
    let mut dev = port::open(slave.path(), DEFAULT_BAUD).expect("open the device end");
    // Every byte value, CR, LF, XON/XOFF and ^C included: raw mode must not touch any.
    let all: Vec<u8> = (0..=255u8).collect();
    let io = async {
        dev.write_all(&all).await.expect("write");
        let mut got = vec![0u8; all.len()];
        master.read_exact(&mut got).await.expect("read");
        assert_eq!(got, all);
        master.write_all(&all).await.expect("write back");
        let mut back = vec![0u8; all.len()];
        dev.read_exact(&mut back).await.expect("read back");
        assert_eq!(back, all);
    };
    timeout(GUARD, io).await.expect("bytes in time");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_runs_over_a_pty_and_survives_the_host_reopening() {
    let Pty { master, slave } = Pty::open().expect("pty");
    let now = Instant::now();
    let mut ctrl = spawn(
        master,
        FieldController::controller(
            ControllerKind::Field,
            FirmwareId::new("pty-field"),
            LinkConfig::default(),
            now,
        ),
    );
    // A symlink, as the simulator publishes one per controller.
    let dir = tempfile::tempdir().expect("temp dir");
    let link = dir.path().join("field");
    port::publish_link(slave.path(), &link).expect("symlink");

    let exchange = async {
        for round in 0..2u16 {
            let dev = port::open(&link, DEFAULT_BAUD).expect("open via the symlink");
            let mut host = spawn(
                dev,
                FieldHost::host(ControllerKind::Field, LinkConfig::default(), Instant::now()),
            );
            next_matching(&mut host.events, |e| matches!(e, Event::Connected(_))).await;
            host.sender
                .send(FieldCommand::SnapshotRequest)
                .await
                .expect("connected");
            next_matching(&mut ctrl.events, |e| {
                *e == Event::Received(FieldCommand::SnapshotRequest)
            })
            .await;
            let snapshot = Snapshot {
                scan: round,
                presence: 0x00F0_000F,
                buttons_held: 0,
                confirm_presses: 0,
                new_game_presses: 0,
            };
            ctrl.sender
                .send(FieldReport::Snapshot(snapshot))
                .await
                .expect("controller connected");
            let got = next_matching(&mut host.events, |e| matches!(e, Event::Received(_))).await;
            assert_eq!(got, Event::Received(FieldReport::Snapshot(snapshot)));
            // Closing the device: the next round opens it again, as a restarted node would.
            drop(host);
        }
    };
    timeout(GUARD, exchange).await.expect("both rounds in time");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_sees_the_end_when_the_pty_goes_away() {
    let pty = Pty::open().expect("pty");
    let mut dev = port::open(pty.slave.path(), DEFAULT_BAUD).expect("open");
    drop(pty);
    let mut buf = [0u8; 16];
    let n = timeout(GUARD, dev.read(&mut buf))
        .await
        .expect("an answer in time")
        .expect("end of stream, not an error");
    assert_eq!(n, 0);
}

#[tokio::test]
async fn opening_what_is_not_a_terminal_says_so() {
    let file = tempfile::NamedTempFile::new().expect("temp file");
    let e = port::open(file.path(), DEFAULT_BAUD).expect_err("a plain file is no port");
    assert!(e.to_string().contains("not a serial device"), "{e}");
    let e = port::open("/nonexistent/ttyX", DEFAULT_BAUD).expect_err("no such device");
    assert!(e.to_string().contains("/nonexistent/ttyX"), "{e}");
    assert!(port::open(file.path(), 12_345).is_err());
}
