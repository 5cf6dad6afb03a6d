//! The link state machine, host and controller ends driven through a simulated line on a
//! virtual clock: handshake, exactly-once in-order delivery over a lossy line, duplicates,
//! refusals, a dead line, a controller reboot and incompatible peers.

mod support;

use std::time::{Duration, Instant};

use proptest::prelude::*;
use serial_link::arm::{ArmState, ArmStatus, MoveJoints};
use serial_link::common::NackReason;
use serial_link::{
    ArmCommand, ArmController, ArmHost, CentiDeg, ControllerKind, DisconnectReason, Event,
    FieldCommand, FieldReport, FirmwareId, HandshakeError, HeadCommand, Link, LinkConfig,
    MessageId, SendError,
};
use support::{Bench, Faults};

fn config(seed: u64) -> LinkConfig {
    LinkConfig {
        nonce_seed: Some(seed),
        ..LinkConfig::default()
    }
}

fn arm_bench(
    faults: Faults,
    seed: u64,
    cfg: LinkConfig,
) -> Bench<ArmCommand, serial_link::ArmReport> {
    let t0 = Instant::now();
    let host = ArmHost::host(ControllerKind::Arm, cfg.clone(), t0);
    let ctrl =
        ArmController::controller(ControllerKind::Arm, FirmwareId::new("sim-arm 0.1"), cfg, t0);
    Bench::new(host, ctrl, t0, faults, seed)
}

fn move_to(id: u16) -> ArmCommand {
    ArmCommand::MoveJoints(MoveJoints {
        move_id: id,
        target: [CentiDeg(i32::from(id)), CentiDeg(4500), CentiDeg(-1000)],
        speed: 3000,
    })
}

fn status(id: u16) -> serial_link::ArmReport {
    serial_link::ArmReport::Status(ArmStatus {
        state: ArmState::Idle,
        homed: true,
        pump_on: false,
        move_id: id,
        joints: [CentiDeg(0); 3],
    })
}

fn received_move_ids(events: &[Event<ArmCommand>]) -> Vec<u16> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Received(ArmCommand::MoveJoints(m)) => Some(m.move_id),
            _ => None,
        })
        .collect()
}

fn received_status_ids(events: &[Event<serial_link::ArmReport>]) -> Vec<u16> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Received(serial_link::ArmReport::Status(s)) => Some(s.move_id),
            _ => None,
        })
        .collect()
}

fn delivered<R>(events: &[Event<R>]) -> Vec<MessageId> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Delivered(id) => Some(*id),
            _ => None,
        })
        .collect()
}

fn disconnects<R>(events: &[Event<R>]) -> Vec<DisconnectReason> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Disconnected { reason, .. } => Some(*reason),
            _ => None,
        })
        .collect()
}

#[test]
fn handshake_connects_both_ends_with_peer_info() {
    let mut b = arm_bench(Faults::default(), 1, config(1));
    assert!(!b.host.is_connected());
    assert_eq!(
        b.host.send(ArmCommand::Home, b.now),
        Err(SendError::NotConnected)
    );
    assert!(b.run_until(Duration::from_secs(1), |b| b.both_connected()));
    let peer = b.host.peer().expect("host has a peer");
    assert_eq!(peer.kind, ControllerKind::Arm);
    assert_eq!(peer.firmware.text(), "sim-arm 0.1");
    assert_eq!(b.ctrl.peer().map(|p| p.kind), Some(ControllerKind::Host));
    assert!(matches!(b.host_events.as_slice(), [Event::Connected(_)]));
    assert!(matches!(b.ctrl_events.as_slice(), [Event::Connected(_)]));
}

#[test]
fn reliable_messages_arrive_once_in_order_on_a_clean_line() {
    let mut b = arm_bench(Faults::default(), 2, config(2));
    assert!(b.run_until(Duration::from_secs(1), |b| b.both_connected()));
    let ids: Vec<_> = (0..20)
        .map(|i| b.host.send(move_to(i), b.now).expect("queue has room"))
        .collect();
    assert!(
        b.run_until(Duration::from_secs(2), |b| delivered(&b.host_events).len()
            == 20)
    );
    assert_eq!(delivered(&b.host_events), ids);
    assert_eq!(
        received_move_ids(&b.ctrl_events),
        (0..20).collect::<Vec<_>>()
    );
    assert_eq!(b.host.stats().retransmits, 0);
    assert_eq!(b.ctrl.stats().duplicates, 0);
}

/// Sends `n` messages each way through a line with the given faults and returns the bench
/// after everything was acknowledged.
fn exchange(faults: Faults, seed: u64, n: u16) -> Bench<ArmCommand, serial_link::ArmReport> {
    let cfg = LinkConfig {
        max_retries: 12,
        ..config(seed)
    };
    let mut b = arm_bench(faults, seed, cfg);
    assert!(b.run_until(Duration::from_secs(5), |b| b.both_connected()));
    // On a bad line the controller may time out and restart during the handshake; that is
    // legitimate, and what follows is what is tested.
    b.host_events.clear();
    b.ctrl_events.clear();
    let (mut next_cmd, mut next_rep) = (0u16, 0u16);
    for _ in 0..200_000 {
        if delivered(&b.host_events).len() == usize::from(n)
            && delivered(&b.ctrl_events).len() == usize::from(n)
        {
            break;
        }
        if next_cmd < n
            && b.host.unacknowledged() < 4
            && b.host.send(move_to(next_cmd), b.now).is_ok()
        {
            next_cmd += 1;
        }
        if next_rep < n
            && b.ctrl.unacknowledged() < 4
            && b.ctrl.send(status(next_rep), b.now).is_ok()
        {
            next_rep += 1;
        }
        b.step();
    }
    b
}

#[test]
fn lossy_line_delivers_everything_exactly_once_in_order() {
    let faults = Faults {
        drop: 20,
        corrupt: 10,
        duplicate: 10,
        noise: 10,
    };
    let b = exchange(faults, 42, 100);
    let all: Vec<u16> = (0..100).collect();
    assert_eq!(received_move_ids(&b.ctrl_events), all);
    assert_eq!(received_status_ids(&b.host_events), all);
    let downs: Vec<_> = disconnects(&b.host_events)
        .into_iter()
        .chain(disconnects(&b.ctrl_events))
        .collect();
    assert!(downs.is_empty(), "{downs:?}");
    // The line really was hostile, and the link really did its work.
    assert!(b.to_ctrl.dropped > 0 && b.to_host.dropped > 0);
    assert!(b.host.stats().retransmits > 0 && b.ctrl.stats().retransmits > 0);
    assert!(b.host.stats().duplicates > 0 && b.ctrl.stats().duplicates > 0);
    assert!(b.host.stats().crc_errors + b.ctrl.stats().crc_errors > 0);
}

#[test]
fn lost_acks_make_duplicates_that_are_dropped() {
    // Drop every controller-to-host frame for a while: the host's frame arrives, its ack does
    // not, the host retransmits, and the controller must not deliver the command twice.
    let mut b = arm_bench(Faults::default(), 3, config(3));
    assert!(b.run_until(Duration::from_secs(1), |b| b.both_connected()));
    b.to_host.cut = true;
    let id = b.host.send(ArmCommand::Home, b.now).expect("connected");
    b.run_for(Duration::from_millis(350));
    b.to_host.cut = false;
    assert!(
        b.run_until(Duration::from_secs(1), |b| delivered(&b.host_events)
            == vec![id])
    );
    let homes = b
        .ctrl_events
        .iter()
        .filter(|e| matches!(e, Event::Received(ArmCommand::Home)))
        .count();
    assert_eq!(homes, 1);
    assert!(b.ctrl.stats().duplicates >= 2);
    assert!(b.host.stats().retransmits >= 2);
}

#[test]
fn dead_line_ends_the_session_and_the_host_reconnects() {
    let mut b = arm_bench(Faults::default(), 4, config(4));
    assert!(b.run_until(Duration::from_secs(1), |b| b.both_connected()));
    b.to_ctrl.cut = true;
    b.to_host.cut = true;
    let id = b.host.send(ArmCommand::Home, b.now).expect("connected");
    let queued = b.host.send(ArmCommand::Stop, b.now).expect("connected");
    assert!(
        b.run_until(Duration::from_secs(5), |b| !b.host.is_connected()
            && !b.ctrl.is_connected())
    );
    let lost = b.host_events.iter().find_map(|e| match e {
        Event::Disconnected { reason, lost } => Some((*reason, lost.to_vec())),
        _ => None,
    });
    assert_eq!(lost, Some((DisconnectReason::NoAck, vec![id, queued])));
    assert!(b.ctrl_events.iter().any(|e| matches!(
        e,
        Event::Disconnected {
            reason: DisconnectReason::PeerSilent,
            ..
        }
    )));
    b.to_ctrl.cut = false;
    b.to_host.cut = false;
    b.host_events.clear();
    assert!(b.run_until(Duration::from_secs(2), |b| b.both_connected()));
    assert!(matches!(b.host_events.as_slice(), [Event::Connected(_)]));
    // The new session works from sequence zero on both ends.
    let id = b.host.send(ArmCommand::Home, b.now).expect("connected");
    assert!(
        b.run_until(Duration::from_secs(1), |b| delivered(&b.host_events)
            == vec![id])
    );
}

#[test]
fn idle_session_is_kept_alive_by_pings() {
    let mut b = arm_bench(Faults::default(), 5, config(5));
    assert!(b.run_until(Duration::from_secs(1), |b| b.both_connected()));
    b.run_for(Duration::from_secs(10));
    assert!(b.both_connected());
    assert!(b.host.stats().last_rtt.is_some());
    assert_eq!(b.host_events.len(), 1);
}

#[test]
fn one_way_traffic_does_not_starve_the_keepalive() {
    // The controller streams unreliable position reports; the host sends nothing of its own.
    // The controller must still hear the host, or it would end the session.
    let mut b = arm_bench(Faults::default(), 6, config(6));
    assert!(b.run_until(Duration::from_secs(1), |b| b.both_connected()));
    for _ in 0..1000 {
        b.ctrl
            .send_unreliable(
                serial_link::ArmReport::Position {
                    joints: [CentiDeg(1); 3],
                },
                b.now,
            )
            .expect("connected");
        b.step();
    }
    assert!(b.both_connected());
    let positions = b
        .host_events
        .iter()
        .filter(|e| matches!(e, Event::Received(serial_link::ArmReport::Position { .. })))
        .count();
    assert_eq!(positions, 1000);
}

#[test]
fn controller_reboot_is_noticed_and_a_new_session_made() {
    let mut b = arm_bench(Faults::default(), 7, config(7));
    assert!(b.run_until(Duration::from_secs(1), |b| b.both_connected()));
    b.ctrl = ArmController::controller(
        ControllerKind::Arm,
        FirmwareId::new("sim-arm 0.2"),
        config(8),
        b.now,
    );
    let id = b
        .host
        .send(ArmCommand::Home, b.now)
        .expect("host still thinks it is up");
    assert!(b.run_until(Duration::from_secs(2), |b| b.both_connected()
        && b.host.peer().map(|p| p.firmware.text()) == Some("sim-arm 0.2".into())));
    assert!(b.host_events.iter().any(|e| matches!(
        e,
        Event::Disconnected { reason: DisconnectReason::PeerReset, lost } if lost[..] == [id]
    )));
}

#[test]
fn host_restart_resets_the_controller_session() {
    let mut b = arm_bench(Faults::default(), 9, config(9));
    assert!(b.run_until(Duration::from_secs(1), |b| b.both_connected()));
    let id = b.host.send(move_to(1), b.now).expect("connected");
    assert!(
        b.run_until(Duration::from_secs(1), |b| delivered(&b.host_events)
            == vec![id])
    );
    // A new host process: new nonce, sequence numbers from zero again. Its first command must
    // not be mistaken for a duplicate of the old session's.
    b.host = ArmHost::host(ControllerKind::Arm, config(10), b.now);
    b.host_events.clear();
    assert!(b.run_until(Duration::from_secs(1), |b| b.host.is_connected()));
    let id = b.host.send(move_to(2), b.now).expect("connected");
    assert!(
        b.run_until(Duration::from_secs(1), |b| delivered(&b.host_events)
            == vec![id])
    );
    assert_eq!(received_move_ids(&b.ctrl_events), vec![1, 2]);
    assert!(b.ctrl_events.iter().any(|e| matches!(
        e,
        Event::Disconnected {
            reason: DisconnectReason::PeerReset,
            ..
        }
    )));
}

#[test]
fn wrong_controller_on_the_port_is_reported_not_connected() {
    let t0 = Instant::now();
    // The host expects the field controller but the cable leads to the head controller. The
    // link types differ too, so use the raw sets that share nothing: the handshake is what
    // decides.
    let host: Link<FieldCommand, FieldReport, Instant> =
        Link::host(ControllerKind::Field, config(11), t0);
    let ctrl: Link<FieldReport, FieldCommand, Instant> = Link::controller(
        ControllerKind::Head,
        FirmwareId::new("head"),
        config(12),
        t0,
    );
    let mut b = Bench::new(host, ctrl, t0, Faults::default(), 11);
    b.run_for(Duration::from_secs(1));
    assert!(!b.host.is_connected());
    assert!(b
        .host_events
        .contains(&Event::HandshakeFailed(HandshakeError::WrongKind {
            expected: ControllerKind::Field,
            found: ControllerKind::Head
        })));
}

#[test]
fn unknown_message_type_is_refused_with_a_nack() {
    // A head command sent down the arm line: the arm controller cannot read it and says so.
    let t0 = Instant::now();
    let host: Link<HeadCommand, serial_link::ArmReport, Instant> =
        Link::host(ControllerKind::Arm, config(13), t0);
    let ctrl =
        ArmController::controller(ControllerKind::Arm, FirmwareId::new("arm"), config(14), t0);
    let mut b = Bench::new(host, ctrl, t0, Faults::default(), 13);
    assert!(b.run_until(Duration::from_secs(1), |b| b.both_connected()));
    let id = b
        .host
        .send(HeadCommand::StatusRequest, b.now)
        .expect("connected");
    assert!(
        b.run_until(Duration::from_secs(1), |b| !b.host_events.is_empty()
            && b.host_events
                .iter()
                .any(|e| matches!(e, Event::Rejected { .. })))
    );
    assert!(b.host_events.contains(&Event::Rejected {
        id,
        reason: NackReason::UnknownType
    }));
    assert_eq!(b.host.stats().retransmits, 0);
    assert!(b.both_connected());
}

#[test]
fn queue_is_bounded() {
    let cfg = LinkConfig {
        max_queue: 3,
        ..config(15)
    };
    let mut b = arm_bench(Faults::default(), 15, cfg);
    assert!(b.run_until(Duration::from_secs(1), |b| b.both_connected()));
    // One goes in flight at once, three wait behind it.
    for i in 0..4 {
        b.host.send(move_to(i), b.now).expect("room");
    }
    assert_eq!(b.host.send(move_to(9), b.now), Err(SendError::QueueFull));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Garbage thrown into a live session, at both ends, is dropped: nothing panics, nothing is
    /// delivered, and the session carries on.
    #[test]
    fn garbage_into_a_live_session_is_harmless(
        chunks in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..200), 1..20),
    ) {
        let mut b = arm_bench(Faults::default(), 21, config(21));
        prop_assert!(b.run_until(Duration::from_secs(1), |b| b.both_connected()));
        b.host_events.clear();
        b.ctrl_events.clear();
        for c in &chunks {
            b.host.receive(c, b.now);
            b.ctrl.receive(c, b.now);
            b.step();
        }
        // End whatever partial frame the garbage left, as the next sender's delimiter would.
        b.host.receive(&[0], b.now);
        b.ctrl.receive(&[0], b.now);
        prop_assert!(b.both_connected());
        prop_assert!(received_move_ids(&b.ctrl_events).is_empty());
        let id = b.host.send(move_to(5), b.now).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(b.run_until(Duration::from_secs(1), |b| delivered(&b.host_events) == vec![id]));
        prop_assert_eq!(received_move_ids(&b.ctrl_events), vec![5]);
    }

    /// Whatever the line does, even when it kills the session: nothing is delivered twice or
    /// out of order, and whatever the sender was told was delivered really was.
    #[test]
    fn no_duplicates_no_reordering_no_false_delivery(
        seed: u64,
        drop in 0u32..60,
        corrupt in 0u32..30,
        duplicate in 0u32..30,
        noise in 0u32..30,
    ) {
        let faults = Faults { drop, corrupt, duplicate, noise };
        let mut b = arm_bench(faults, seed, config(seed));
        let mut sent: Vec<(MessageId, u16)> = Vec::new();
        let mut next = 0u16;
        for _ in 0..4000 {
            if b.host.is_connected() && b.host.unacknowledged() < 3 {
                if let Ok(id) = b.host.send(move_to(next), b.now) {
                    sent.push((id, next));
                    next += 1;
                }
            }
            b.step();
        }
        let got = received_move_ids(&b.ctrl_events);
        prop_assert!(got.windows(2).all(|w| w[0] < w[1]), "duplicate or reordered: {:?}", got);
        for id in delivered(&b.host_events) {
            let (_, move_id) = sent.iter().find(|(i, _)| *i == id).copied().ok_or_else(|| TestCaseError::fail("unknown id"))?;
            prop_assert!(got.contains(&move_id));
        }
        // Every message sent has exactly one fate, or is still pending.
        let mut fates = delivered(&b.host_events);
        for e in &b.host_events {
            match e {
                Event::Disconnected { lost, .. } => fates.extend(lost),
                Event::Rejected { id, .. } => fates.push(*id),
                _ => {}
            }
        }
        prop_assert_eq!(fates.len() + b.host.unacknowledged(), sent.len());
    }
}
