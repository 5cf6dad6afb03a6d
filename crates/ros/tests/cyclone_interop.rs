//! Wire compatibility with an independent DDS implementation: Eclipse Cyclone DDS, through its
//! Python package, reads the `/game/state` our node publishes and publishes a
//! `/board/occupancy` our node reads, with the ROS 2 topic and type names.
//!
//! Needs a Python with `cyclonedds` (`pip install cyclonedds`): `CYCLONE_PYTHON` names the
//! interpreter, else `python3`. Without one the test says so and passes: it cannot run here.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use tokio::process::Command;

/// Cyclone kept to loopback, without multicast, finding peers by unicast on 127.0.0.1 (as
/// RustDDS does with ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST).
const CYCLONE_LOOPBACK: &str = r#"<CycloneDDS xmlns="https://cdds.io/config"><Domain Id="any">
<General><Interfaces><NetworkInterface address="127.0.0.1"/></Interfaces>
<AllowMulticast>false</AllowMulticast></General>
<Discovery><ParticipantIndex>auto</ParticipantIndex><MaxAutoParticipantIndex>30</MaxAutoParticipantIndex>
<Peers><Peer address="127.0.0.1"/></Peers></Discovery>
</Domain></CycloneDDS>"#;

fn python() -> Option<String> {
    let python = std::env::var("CYCLONE_PYTHON").unwrap_or_else(|_| "python3".into());
    let ok = std::process::Command::new(&python)
        .args(["-c", "import cyclonedds.domain"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some(python)
}

/// Runs our publisher and subscriber against the Cyclone peer; with `bytes` > 0, our GameState
/// carries a message of that size, and the peer sends one back on `/peer/state`.
async fn exchange(python: &str, bytes: usize) {
    // The two tests run side by side: each its own domain.
    let domain = if bytes > 0 { 170 } else { 200 } + (std::process::id() % 30) as u16;
    let peer_script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop/cyclone_peer.py");
    let probe = |args: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_ros_probe"));
        c.args(args)
            .env("ROS_DOMAIN_ID", domain.to_string())
            .env("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        c
    };
    let size = format!("message_bytes:={bytes}");
    let _publisher = probe(&["pub", "--ros-args", "-p", "count:=400", "-p", &size])
        .spawn()
        .expect("spawn our publisher");
    let subscriber = probe(&["sub-occupancy", "--ros-args", "-p", "timeout_s:=30.0"])
        .spawn()
        .expect("spawn our subscriber");
    let big_subscriber = (bytes > 0).then(|| {
        probe(&[
            "sub",
            "--ros-args",
            "-r",
            "/game/state:=/peer/state",
            "-p",
            "timeout_s:=30.0",
        ])
        .spawn()
        .expect("spawn our subscriber of the peer's state")
    });
    let peer = Command::new(python)
        .arg(&peer_script)
        .args([domain.to_string().as_str(), "8", bytes.to_string().as_str()])
        .env("CYCLONEDDS_URI", CYCLONE_LOOPBACK)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn the Cyclone DDS peer");

    let wait = |child: tokio::process::Child| async move {
        let out = tokio::time::timeout(Duration::from_secs(45), child.wait_with_output())
            .await
            .expect("finishes in time")
            .expect("runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.success(), text)
    };
    let (peer_ok, peer_text) = wait(peer).await;
    let (sub_ok, sub_text) = wait(subscriber).await;
    assert!(
        peer_ok,
        "Cyclone DDS did not read our GameState:\n{peer_text}"
    );
    assert!(
        peer_text.contains(&format!(
            "fen W:W21-32:B1-12 level expert message {bytes} bytes intact"
        )),
        "{peer_text}"
    );
    assert!(
        sub_ok,
        "we did not read Cyclone's BoardOccupancy:\n{sub_text}"
    );
    assert!(
        sub_text.contains("received occupancy 0x00abcdef seq 77 confirmed true frame board"),
        "{sub_text}"
    );
    if let Some(big) = big_subscriber {
        let (ok, text) = wait(big).await;
        assert!(ok, "we did not read Cyclone's large GameState:\n{text}");
        assert!(
            text.contains(&format!("message {bytes} bytes, intact")),
            "{text}"
        );
    }
}

#[tokio::test]
async fn cyclone_dds_reads_our_topic_and_we_read_its() {
    let Some(python) = python() else {
        eprintln!(
            "SKIPPED: no Python with the cyclonedds package (set CYCLONE_PYTHON, or pip install cyclonedds)"
        );
        return;
    };
    exchange(&python, 0).await;
}

/// A sample of 200 KB travels in many DATA_FRAG submessages each way.
#[tokio::test]
async fn large_samples_travel_both_ways_with_cyclone_dds() {
    let Some(python) = python() else {
        eprintln!(
            "SKIPPED: no Python with the cyclonedds package (set CYCLONE_PYTHON, or pip install cyclonedds)"
        );
        return;
    };
    exchange(&python, 200_000).await;
}
