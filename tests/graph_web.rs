//! The web window (nodes/web) against the whole simulated robot, with the tools people use:
//! - Foxglove's own WebSocket client and ROS 2 reader (npm, `tests/web/foxglove.mjs`) decode
//!   every topic they subscribe to, `/tf` and the URDF included;
//! - a real browser (Debian's chromium, headless, driven by selenium: `tests/web/browser.py`)
//!   plays c3-d4 by clicking, sees the robot answer, the face, the arm and the health panel
//!   change; a spectator on a phone's screen cannot move; bad requests change nothing;
//!   screenshots are saved under the target folder;
//! - `/diagnostics` with a fault: a silent field controller turns the board sensor's status to
//!   ERROR, and back to OK once it answers;
//! - the game's MCAP recording, once the graph stops, read by Foxglove's `mcap` reader with
//!   its ROS 2 decoder (`tests/web/mcap_check.py`), and by our own;
//! - the recording replayed into the page by `checkers-robot replay`.
//!
//! Without chromium, selenium, node's packages or the MCAP reader the test says what is missing
//! and passes, unless `CHECKERS_REQUIRE_BROWSER=1` (CI sets it), when it fails.

mod graph_support;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use checkers_msgs::diagnostic_msgs::msg::{DiagnosticArray, DiagnosticStatus};
use checkers_msgs::msg::GameEvent;
use checkers_robot::graph::client::next_event;
use checkers_robot::graph::sim::web_url;
use futures::StreamExt;
use graph_client::client::client_node;
use graph_support::{serial, Graph};
use ros::Qos;

/// The tools, or why the test cannot run.
struct Tools {
    /// A Python with `mcap` and `mcap-ros2-support` (`CHECKERS_MCAP_PYTHON`, or python3).
    mcap_python: String,
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn works(cmd: &mut Command) -> bool {
    cmd.stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn tools() -> Result<Tools, String> {
    if !Path::new("/usr/bin/chromium").exists() || !Path::new("/usr/bin/chromedriver").exists() {
        return Err(
            "no /usr/bin/chromium and /usr/bin/chromedriver (apt install chromium chromium-driver)"
                .into(),
        );
    }
    if !works(Command::new("/usr/bin/python3").args(["-c", "import selenium"])) {
        return Err("no selenium for /usr/bin/python3 (apt install python3-selenium)".into());
    }
    if !repo()
        .join("tests/web/node_modules/@foxglove/ws-protocol")
        .exists()
    {
        return Err("no Foxglove client (npm ci in tests/web)".into());
    }
    let mcap_python = std::env::var("CHECKERS_MCAP_PYTHON").unwrap_or_else(|_| "python3".into());
    if !works(Command::new(&mcap_python).args(["-c", "import mcap_ros2"])) {
        return Err(format!(
            "no mcap-ros2-support for {mcap_python} (pip install mcap-ros2-support, and set CHECKERS_MCAP_PYTHON)"
        ));
    }
    Ok(Tools { mcap_python })
}

/// Runs a checking script; panics with its output when it fails.
fn check(what: &str, cmd: &mut Command) -> String {
    let out = cmd
        .current_dir(repo())
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{what} failed:\n{text}");
    text
}

fn screenshot(name: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("web");
    std::fs::create_dir_all(&dir).expect("the target folder is writable");
    dir.join(name).display().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_web_window_plays_shows_serves_foxglove_records_and_replays() {
    let tools = match tools() {
        Ok(t) => t,
        Err(why) if std::env::var_os("CHECKERS_REQUIRE_BROWSER").is_some() => {
            panic!("CHECKERS_REQUIRE_BROWSER is set, but {why}")
        }
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let _one = serial().await;
    let g = Graph::start(7, "novice").await;
    let mut events = g.client.events();
    let (url, player) = {
        let mut found = None;
        for _ in 0..300 {
            found = web_url(&g.sim.run_dir);
            if found.is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        found.unwrap_or_else(|| panic!("the web window did not say its URL\n{}", g.tail()))
    };
    let key = player.rsplit("key=").next().unwrap_or_default().to_string();

    let seen = check(
        "Foxglove's client",
        Command::new("node")
            .arg("tests/web/foxglove.mjs")
            .arg(format!("{}foxglove", url.replacen("http", "ws", 1))),
    );
    assert!(
        seen.contains("\"cup\":true") && seen.contains("\"urdf\":true"),
        "{seen}"
    );

    let shot = screenshot("graph_web.png");
    let played = tokio::task::spawn_blocking({
        let (url, key, shot) = (url.clone(), key.clone(), shot.clone());
        move || {
            check(
                "the browser",
                Command::new("/usr/bin/python3").args(["tests/web/browser.py", &url, &key, &shot]),
            )
        }
    })
    .await
    .expect("the browser's task");
    eprintln!("{played}");
    let human = next_event(&mut events, graph_support::WAIT, |e| {
        e.kind == GameEvent::KIND_HUMAN_MOVED
    })
    .await
    .expect("the human's move was announced");
    assert_eq!(human.game_move.text, "c3-d4");

    // A fault of the simulated hardware shows on /diagnostics: a silent field controller is an
    // ERROR of the board sensor's status, and OK again once it answers.
    let mut probe =
        client_node(g.domain, None, "/", "probe", "diagnostics_probe").expect("a probe node joins");
    let diagnostics = probe
        .subscription::<DiagnosticArray>("/diagnostics", Qos::Events)
        .expect("a /diagnostics subscription");
    let mut diagnostics = diagnostics.stream();
    field_level(&mut diagnostics, DiagnosticStatus::OK).await;
    g.client
        .set_fault("field_silent:=true", graph_support::WAIT)
        .await
        .expect("the sim takes the fault");
    field_level(&mut diagnostics, DiagnosticStatus::ERROR).await;
    g.client
        .set_fault("field_silent:=false", graph_support::WAIT)
        .await
        .expect("the sim takes the fault back");
    field_level(&mut diagnostics, DiagnosticStatus::OK).await;
    drop(diagnostics);
    drop(probe);

    // Stopped as Ctrl-C stops it: the recorder closes the game's file.
    let state_dir = g.sim.state_dir.clone();
    drop(events);
    let Graph {
        client, sim, dir, ..
    } = g;
    client.close().await;
    drop(sim);
    let games = state_dir.join("games");
    let recording = std::fs::read_dir(&games)
        .expect("the games folder")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "mcap"))
        .unwrap_or_else(|| panic!("no recording in {}", games.display()));
    let counts = check(
        "the MCAP reader",
        Command::new(&tools.mcap_python).args([
            "tests/web/mcap_check.py",
            &recording.display().to_string(),
            "/game/state",
            "/game/events",
            "/joint_states",
            "/diagnostics",
            "/face/expression",
            "/planner/evaluation",
        ]),
    );
    assert!(counts.contains("the human played c3-d4"), "{counts}");
    check(
        "the MCAP reader on a file cut in the middle",
        Command::new(&tools.mcap_python).args([
            "tests/web/mcap_check.py",
            "--cut",
            &recording.display().to_string(),
        ]),
    );
    let ours = recording::read(&recording).expect("our reader opens it");
    assert!(ours.truncated.is_none(), "a finished recording");

    replay(&recording);
    drop(dir);
}

/// Waits for the board sensor's status on `/diagnostics` to reach level `want`.
async fn field_level(
    stream: &mut (impl futures::Stream<Item = DiagnosticArray> + Unpin),
    want: u8,
) {
    let found = tokio::time::timeout(Duration::from_secs(40), async {
        while let Some(a) = stream.next().await {
            let field = a.status.iter().find(|s| s.name.starts_with("board_sensor"));
            if field.is_some_and(|s| s.level == want) {
                return true;
            }
        }
        false
    })
    .await;
    assert_eq!(
        found,
        Ok(true),
        "the field's status never reached level {want}"
    );
}

/// `checkers-robot replay` serves the recording; the browser sees the game again.
fn replay(recording: &Path) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_checkers-robot"))
        .arg("replay")
        .arg(recording)
        .args(["--port", "0", "--speed", "20"])
        .current_dir(repo())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("checkers-robot replay starts");
    let stdout = child.stdout.take().expect("piped");
    let mut lines = BufReader::new(stdout);
    let mut first = String::new();
    lines.read_line(&mut first).expect("replay prints its URL");
    // The rest of its output is read too, so that it never writes into a closed pipe.
    std::thread::spawn(move || std::io::copy(&mut lines, &mut std::io::sink()));
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {first:?}"))
        .to_string();
    let out = Command::new("/usr/bin/python3")
        .args([
            "tests/web/browser.py",
            "--replay",
            &url,
            &screenshot("replay.png"),
        ])
        .current_dir(repo())
        .output();
    let _ = child.kill();
    let _ = child.wait();
    let out = out.expect("the browser runs");
    assert!(
        out.status.success(),
        "the replay in the browser:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
