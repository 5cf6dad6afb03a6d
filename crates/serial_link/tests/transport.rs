//! The tokio transport: a host and a controller task over an in-memory pipe, as the driver node
//! and the simulator will run over a pseudo-terminal.

use std::time::Instant;

use serial_link::field::Snapshot;
use serial_link::transport::{spawn, TransportError};
use serial_link::{
    ControllerKind, Event, FieldCommand, FieldController, FieldHost, FieldReport, FirmwareId,
    LinkConfig, SendError,
};
use tokio::time::{timeout, Duration};

/// A guard against a hang, not a timing assertion: the exchange takes milliseconds.
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
async fn host_and_controller_talk_over_a_pipe() {
    let (a, b) = tokio::io::duplex(256);
    let now = Instant::now();
    let mut host = spawn(
        a,
        FieldHost::host(ControllerKind::Field, LinkConfig::default(), now),
    );
    let mut ctrl = spawn(
        b,
        FieldController::controller(
            ControllerKind::Field,
            FirmwareId::new("sim-field"),
            LinkConfig::default(),
            now,
        ),
    );
    let exchange = async {
        let connected = next_matching(&mut host.events, |e| matches!(e, Event::Connected(_))).await;
        assert!(
            matches!(connected, Event::Connected(p) if p.kind == ControllerKind::Field && p.firmware.text() == "sim-field")
        );
        let id = host
            .sender
            .send(FieldCommand::SnapshotRequest)
            .await
            .expect("connected");
        next_matching(&mut host.events, |e| *e == Event::Delivered(id)).await;
        let got = next_matching(&mut ctrl.events, |e| matches!(e, Event::Received(_))).await;
        assert_eq!(got, Event::Received(FieldCommand::SnapshotRequest));
        let snapshot = FieldReport::Snapshot(Snapshot {
            scan: 7,
            presence: 0xFFF0_0FFF,
            buttons_held: 0,
            confirm_presses: 1,
            new_game_presses: 0,
        });
        ctrl.sender.send(snapshot).await.expect("connected");
        let got = next_matching(&mut host.events, |e| matches!(e, Event::Received(_))).await;
        assert_eq!(got, Event::Received(snapshot));
    };
    timeout(GUARD, exchange).await.expect("exchange finished");

    // Dropping the controller's handle ends its task, which closes its end of the pipe; the
    // host's task then ends at the end of its stream, and its event stream closes, which is how
    // a driver node learns that it must reopen the port.
    drop(ctrl.sender);
    drop(ctrl.events);
    let ended = timeout(GUARD, ctrl.task)
        .await
        .expect("controller task ended");
    assert!(matches!(ended, Ok(Ok(()))));
    let drained = timeout(GUARD, async { while host.events.recv().await.is_some() {} }).await;
    assert!(drained.is_ok());
    let ended = timeout(GUARD, host.task).await.expect("host task ended");
    assert!(matches!(ended, Ok(Ok(()))));
}

#[tokio::test]
async fn sending_before_the_handshake_is_refused() {
    let (a, _b) = tokio::io::duplex(256);
    let host = spawn(
        a,
        FieldHost::host(ControllerKind::Field, LinkConfig::default(), Instant::now()),
    );
    let r = host.sender.send(FieldCommand::SnapshotRequest).await;
    assert!(matches!(
        r,
        Err(TransportError::Send(SendError::NotConnected))
    ));
}
