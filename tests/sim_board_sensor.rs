//! The sim and the real board sensor node as separate processes, over a pseudo-terminal and
//! DDS, each test in its own ROS domain and run directory: a human move shows up as the right
//! occupancy; sensor bit flips, line noise and dropped frames never make a wrong reading; a
//! controller that stops answering, and a sim that dies and comes back, are reported and
//! recovered from; a confirm pressed while the board sensor was dead reaches its successor.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use checkers_msgs::msg::BoardOccupancy;
use checkers_msgs::srv::{
    HumanMove, HumanMove_Request, HumanMove_Response, ScanBoard, ScanBoard_Request,
};
use checkers_msgs::std_msgs::msg::String as StringMsg;
use draughts::{Color, Position};
use futures::StreamExt;
use ros::env::{DiscoveryRange, RosEnv};
use ros::{Node, Qos, RosArgs, ServiceClient, Subscription};

/// Guards against hangs, not timing assertions: discovery on a busy machine can take seconds.
const DISCOVERY: Duration = Duration::from_secs(60);
const CALL: Duration = Duration::from_secs(20);
const READING: Duration = Duration::from_secs(5);
/// The sim's human and arm run this many times faster than real time.
const TIME_SCALE: &str = "20.0";

/// A domain per test (and per test process), away from the other test files' ranges.
fn domain(test: u16) -> u16 {
    10 + (std::process::id() % 25) as u16 * 4 + test
}

/// A node process whose stderr goes to a log file in the run directory; killed on drop.
struct Process {
    child: Child,
    log: PathBuf,
}

impl Process {
    fn start(bin: &str, name: &str, domain: u16, dir: &Path, params: &[String]) -> Process {
        let log = dir.join(format!("{name}.log"));
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .expect("log file");
        let mut args = vec!["--ros-args".to_string()];
        for p in params {
            args.push("-p".into());
            args.push(p.clone());
        }
        let child = Command::new(bin)
            .args(&args)
            .env("ROS_DOMAIN_ID", domain.to_string())
            .env("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(file)
            .spawn()
            .expect("the node starts");
        Process { child, log }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The sim, the board sensor, and a test node in one domain.
struct Graph {
    dir: tempfile::TempDir,
    domain: u16,
    sim: Process,
    sensor: Process,
    node: Node,
}

fn sim(domain: u16, dir: &Path, extra: &[&str]) -> Process {
    let mut params = vec![
        format!("run_dir:={}", dir.display()),
        format!("time_scale:={TIME_SCALE}"),
        "seed:=7".to_string(),
    ];
    params.extend(extra.iter().map(|s| s.to_string()));
    Process::start(env!("CARGO_BIN_EXE_sim_node"), "sim", domain, dir, &params)
}

fn sensor(domain: u16, dir: &Path) -> Process {
    Process::start(
        env!("CARGO_BIN_EXE_board_sensor_node"),
        "board_sensor",
        domain,
        dir,
        &[
            format!("port:={}", dir.join("field").display()),
            "request_timeout_s:=1.0".into(),
            // A noisy line (the fault tests) may need more scans for two equal ones.
            "max_scans:=30".into(),
        ],
    )
}

impl Graph {
    fn start(test: u16, sim_params: &[&str]) -> Graph {
        let dir = tempfile::tempdir().expect("run dir");
        let domain = domain(test);
        let sim = sim(domain, dir.path(), sim_params);
        // The sim makes its ports when it starts; a sensor started first would only retry
        // opening every 2 s, longer than a scan waits.
        let field = dir.path().join("field");
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while !field.exists() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        let sensor = sensor(domain, dir.path());
        let env = RosEnv {
            domain_id: domain,
            discovery: DiscoveryRange::Localhost,
            security: None,
        };
        let node =
            Node::new("sim_test", RosArgs::parse(["test"]).expect("args"), env).expect("test node");
        Graph {
            dir,
            domain,
            sim,
            sensor,
            node,
        }
    }

    /// The sim's human, the board sensor's scan service and its readings.
    fn endpoints(
        &mut self,
    ) -> (
        ServiceClient<HumanMove>,
        ServiceClient<ScanBoard>,
        Subscription<BoardOccupancy>,
    ) {
        let node = &mut self.node;
        (
            node.service_client("/sim/human_move").expect("client"),
            node.service_client("/board/scan").expect("client"),
            node.subscription("/board/occupancy", Qos::Events)
                .expect("subscription"),
        )
    }

    fn logs(&self) -> String {
        format!(
            "--- sim ---\n{}\n--- board_sensor ---\n{}",
            self.sim.log(),
            self.sensor.log()
        )
    }
}

fn request(text: &str, error: u8, press_confirm: bool) -> HumanMove_Request {
    HumanMove_Request {
        move_text: text.into(),
        error,
        press_confirm,
    }
}

async fn human(client: &ServiceClient<HumanMove>, req: HumanMove_Request) -> HumanMove_Response {
    assert!(
        client.wait_for_service(DISCOVERY).await,
        "no /sim/human_move"
    );
    // Not resent: a move must not be made twice.
    client
        .call(req, CALL)
        .await
        .expect("/sim/human_move answers")
}

/// The next confirmed reading. This reader asks for no history (as the web window and the
/// recorder), so the first press may come before the subscription matched: then confirm is
/// pressed again (moving nothing) until a reading comes.
async fn confirmed_reading(
    client: &ServiceClient<HumanMove>,
    readings: &mut (impl futures::Stream<Item = BoardOccupancy> + Unpin),
    g: &Graph,
) -> BoardOccupancy {
    for _ in 0..12 {
        match tokio::time::timeout(READING, readings.next()).await {
            Ok(Some(r)) => {
                assert!(r.confirmed, "only confirmed readings are published");
                return r;
            }
            Ok(None) => panic!("occupancy stream ended"),
            Err(_) => {
                let r = human(client, request("", HumanMove_Request::ERROR_NO_MOVE, true)).await;
                assert!(r.success, "{}", r.message);
            }
        }
    }
    panic!("no confirmed reading\n{}", g.logs());
}

async fn scan(client: &ServiceClient<ScanBoard>) -> checkers_msgs::srv::ScanBoard_Response {
    assert!(client.wait_for_service(DISCOVERY).await, "no /board/scan");
    client
        .call_retrying(ScanBoard_Request { reads: 0 }, CALL, 3)
        .await
        .expect("/board/scan answers")
}

/// Plays `text` (or a random legal move for "") as the human (White) on `pos` and returns the
/// move performed.
async fn play(
    client: &ServiceClient<HumanMove>,
    pos: &mut Position,
    text: &str,
    error: u8,
) -> String {
    let r = human(client, request(text, error, true)).await;
    assert!(r.success, "{}", r.message);
    let mv = pos
        .parse_move(&r.performed_text)
        .expect("the sim performs legal moves");
    *pos = pos.after(&mv);
    // The human moves again next: the tests play White only.
    pos.set_side_to_move(Color::White);
    r.performed_text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_human_move_shows_up_as_the_right_occupancy() {
    // A capture, to see the captured piece taken off too: c3xe5 over d4.
    let fen = "W:W22,25:B18,9";
    let mut g = Graph::start(0, &[&format!("start_fen:={fen}")]);
    let (movers, scans, sub) = g.endpoints();
    let mut readings = sub.stream();
    let mut pos = draughts::parse_fen(fen).expect("fen");

    let before = scan(&scans).await;
    assert!(before.success, "{}\n{}", before.message, g.logs());
    assert_eq!(before.occupancy.occupied, pos.occupancy_mask());
    assert!(!before.occupancy.confirmed);

    play(&movers, &mut pos, "22x15", HumanMove_Request::ERROR_NONE).await;
    let r = confirmed_reading(&movers, &mut readings, &g).await;
    assert_eq!(r.occupied, pos.occupancy_mask(), "{}", g.logs());
    let first_seq = r.seq;

    play(&movers, &mut pos, "25-21", HumanMove_Request::ERROR_NONE).await;
    let r = confirmed_reading(&movers, &mut readings, &g).await;
    assert_eq!(r.occupied, pos.occupancy_mask());
    assert!(r.seq > first_seq, "seq increases");

    // An illegal move is performed as asked and read as it physically is.
    let r = human(
        &movers,
        request("21-16", HumanMove_Request::ERROR_NONE, true),
    )
    .await;
    assert!(
        !r.success,
        "an illegal move without ERROR_ILLEGAL is refused"
    );
    // A man stepping backwards.
    let r = human(
        &movers,
        request("15-18", HumanMove_Request::ERROR_ILLEGAL, true),
    )
    .await;
    assert!(r.success, "{}", r.message);
    let mut expected = pos;
    let (from, to) = (
        draughts::Square::from_number(15).expect("square"),
        draughts::Square::from_number(18).expect("square"),
    );
    let piece = expected.piece_at(from);
    expected.set_piece(from, None);
    expected.set_piece(to, piece);
    let r = confirmed_reading(&movers, &mut readings, &g).await;
    assert_eq!(r.occupied, expected.occupancy_mask());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bit_flips_noise_and_dropped_frames_never_make_a_wrong_reading() {
    let mut g = Graph::start(
        1,
        &[
            "faults.sensor_bit_flip:=0.15",
            "faults.serial_noise:=0.05",
            "faults.drop_frames:=0.05",
        ],
    );
    let (movers, scans, sub) = g.endpoints();
    let mut readings = sub.stream();
    let mut pos = Position::start();
    for _ in 0..4 {
        let performed = play(&movers, &mut pos, "", HumanMove_Request::ERROR_NONE).await;
        let r = confirmed_reading(&movers, &mut readings, &g).await;
        assert_eq!(
            r.occupied,
            pos.occupancy_mask(),
            "after {performed}\n{}",
            g.logs()
        );
        let s = scan(&scans).await;
        assert!(s.success, "{}", s.message);
        assert_eq!(
            s.occupancy.occupied,
            pos.occupancy_mask(),
            "scan after {performed}"
        );
    }
}

/// Sets a sim fault through `/sim/set_fault`, repeating until `/sim/faults` shows it.
async fn set_fault(
    g: &Graph,
    out: &ros::Publisher<StringMsg>,
    faults: &mut (impl futures::Stream<Item = StringMsg> + Unpin),
    setting: &str,
) {
    let deadline = tokio::time::Instant::now() + DISCOVERY;
    while tokio::time::Instant::now() < deadline {
        out.publish(StringMsg {
            data: setting.into(),
        })
        .await
        .expect("publish");
        if let Ok(Some(now)) = tokio::time::timeout(Duration::from_millis(500), faults.next()).await
        {
            if now.data.lines().any(|l| l == setting) {
                return;
            }
        }
    }
    panic!("the sim never took {setting}\n{}", g.logs());
}

/// Scans until one succeeds or fails as wanted.
async fn scan_until(
    g: &Graph,
    client: &ServiceClient<ScanBoard>,
    success: bool,
) -> checkers_msgs::srv::ScanBoard_Response {
    for _ in 0..30 {
        let r = scan(client).await;
        if r.success == success {
            return r;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    panic!("no scan with success={success}\n{}", g.logs());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_link_is_reported_and_recovered() {
    let mut g = Graph::start(2, &[]);
    let scans = g
        .node
        .service_client::<ScanBoard>("/board/scan")
        .expect("client");
    let start = Position::start().occupancy_mask();
    let r = scan_until(&g, &scans, true).await;
    assert_eq!(r.occupancy.occupied, start);
    let fault_out = g
        .node
        .publisher::<StringMsg>("/sim/set_fault", Qos::Events)
        .expect("publisher");
    let faults = g
        .node
        .subscription::<StringMsg>("/sim/faults", Qos::State)
        .expect("subscription");
    let mut faults = faults.stream();

    // The field controller stops answering: scans fail and say why; the node logs the loss.
    set_fault(&g, &fault_out, &mut faults, "field_silent:=true").await;
    let r = scan_until(&g, &scans, false).await;
    assert!(
        r.message.contains("field controller"),
        "the failure names the controller: {}",
        r.message
    );
    // It answers again: the node reconnects by itself.
    set_fault(&g, &fault_out, &mut faults, "field_silent:=false").await;
    let r = scan_until(&g, &scans, true).await;
    assert_eq!(r.occupancy.occupied, start);
    let log = g.sensor.log();
    assert!(log.contains("lost the field controller"), "{}", g.logs());

    // The sim dies and a new one starts (a new pseudo-terminal behind the same symlink): the
    // node reopens the port and carries on.
    g.sim.stop();
    let r = scan_until(&g, &scans, false).await;
    assert!(!r.message.is_empty());
    g.sim = sim(g.domain, g.dir.path(), &[]);
    let r = scan_until(&g, &scans, true).await;
    assert_eq!(r.occupancy.occupied, start);
    let log = g.sensor.log();
    assert!(
        log.matches("field controller connected").count() >= 3,
        "connected, reconnected after the silence and after the restart\n{}",
        g.logs()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_confirm_pressed_while_the_board_sensor_was_dead_reaches_the_next_one() {
    let mut g = Graph::start(3, &[]);
    let (movers, scans, sub) = g.endpoints();
    let mut readings = sub.stream();
    let mut pos = Position::start();
    scan_until(&g, &scans, true).await;

    // The node dies; once the controller has noticed, the person moves and presses confirm.
    g.sensor.stop();
    let deadline = std::time::Instant::now() + DISCOVERY;
    while !g.sim.log().contains("session down") {
        assert!(std::time::Instant::now() < deadline, "{}", g.logs());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    play(&movers, &mut pos, "", HumanMove_Request::ERROR_NONE).await;
    // A new node, and no second press: the controller reports the one it kept.
    g.sensor = sensor(g.domain, g.dir.path());
    let r = tokio::time::timeout(DISCOVERY, readings.next())
        .await
        .unwrap_or_else(|_| panic!("no confirmed reading\n{}", g.logs()))
        .expect("occupancy stream");
    assert!(r.confirmed);
    assert_eq!(r.occupied, pos.occupancy_mask(), "{}", g.logs());
    // Reported once: the snapshot after connecting shows the same counter.
    assert!(
        tokio::time::timeout(Duration::from_secs(3), readings.next())
            .await
            .is_err(),
        "one press, one reading\n{}",
        g.logs()
    );
}
