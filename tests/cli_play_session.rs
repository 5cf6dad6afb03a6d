//! `checkers-robot play` in a terminal, driven by its keys as a person would: the simulated
//! robot launched over DDS in separate processes, a hint asked for, a robot's capture taken
//! back, the game resigned and its review read, then quit. The terminal is a pseudo-terminal
//! from `script` (util-linux), its screen read back through a terminal emulator (vt100).
//!
//! With `PLAY_SESSION_SCREENS=DIR` the screen at each step is written to `DIR/NN-step.txt`
//! (docs/play.md shows such a session).

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_checkers-robot");
const ROWS: u16 = 45;
const COLS: u16 = 140;
/// Anything the graph does, on a loaded 2-core machine.
const WAIT: Duration = Duration::from_secs(120);

struct Session {
    child: Child,
    keys: ChildStdin,
    screen: Arc<Mutex<vt100::Parser>>,
    shots: Option<PathBuf>,
    shot: usize,
}

impl Session {
    fn start(run_dir: &std::path::Path) -> Session {
        let play = format!(
            "stty rows {ROWS} cols {COLS}; exec '{BIN}' play --level easy --time-scale 50 --run-dir '{}'",
            run_dir.display()
        );
        let mut child = Command::new("script")
            .args(["-q", "-e", "-f", "-c", &play, "/dev/null"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("TERM", "xterm-256color")
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("`script` (util-linux) runs play in a pseudo-terminal");
        let keys = child.stdin.take().expect("stdin piped");
        let mut out = child.stdout.take().expect("stdout piped");
        let screen = Arc::new(Mutex::new(vt100::Parser::new(ROWS, COLS, 0)));
        let feed = Arc::clone(&screen);
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = out.read(&mut buf) {
                if n == 0 {
                    break;
                }
                feed.lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .process(&buf[..n]);
            }
        });
        Session {
            child,
            keys,
            screen,
            shots: std::env::var_os("PLAY_SESSION_SCREENS").map(PathBuf::from),
            shot: 0,
        }
    }

    fn contents(&self) -> String {
        self.screen
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .screen()
            .contents()
    }

    /// Waits until the screen shows `what`; returns the screen.
    fn wait_for(&mut self, what: &str, step: &str) -> String {
        self.wait_until(|screen| screen.contains(what), &format!("{what:?}"), step)
    }

    fn wait_until(&mut self, done: impl Fn(&str) -> bool, what: &str, step: &str) -> String {
        let start = Instant::now();
        loop {
            let now = self.contents();
            if done(&now) {
                self.save(step, &now);
                return now;
            }
            if start.elapsed() > WAIT {
                panic!("{step}: no {what} on the screen after {WAIT:?}:\n{now}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn press(&mut self, keys: &str) {
        self.keys
            .write_all(keys.as_bytes())
            .expect("keys reach play");
        self.keys.flush().expect("keys flushed");
        // The UI reads a key at a time; let it draw before the next.
        std::thread::sleep(Duration::from_millis(300));
    }

    fn save(&mut self, step: &str, screen: &str) {
        let Some(dir) = &self.shots else { return };
        self.shot += 1;
        let _ = std::fs::create_dir_all(dir);
        let _ = std::fs::write(dir.join(format!("{:02}-{step}.txt", self.shot)), screen);
    }

    /// Waits for play to exit; its status.
    fn finish(&mut self) -> std::process::ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(st) = self.child.try_wait().expect("wait") {
                return st;
            }
            if start.elapsed() > WAIT {
                panic!("play did not quit:\n{}", self.contents());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Session {
    /// A failed test closes the terminal as a window would: `script` ends, play gets SIGHUP
    /// and stops the robot it launched (which runs in a process group of its own).
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_some() {
            return;
        }
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(20) {
            if self.child.try_wait().ok().flatten().is_some() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
    }
}

/// The status line when it is the human's turn at `ply`.
fn your_move(ply: u32) -> String {
    format!("your move (White) | you: White, level easy, ply {ply}")
}

#[test]
fn a_hint_a_take_back_of_a_capture_and_the_review_in_the_terminal() {
    let run_dir =
        std::env::temp_dir().join(format!("checkers_play_session_{}", std::process::id()));
    let mut s = Session::start(&run_dir);
    // Until the robot reads its board, the screen says it is starting (and moves wait).
    s.wait_until(
        |screen| screen.contains(&your_move(0)) && !screen.contains("starting the simulated robot"),
        "robot ready for the first move",
        "first-move",
    );

    s.press("?");
    s.wait_for("hint: ", "hint");

    s.press("c3-d4\r");
    s.wait_for("you played c3-d4", "played");
    s.wait_for("the robot played", "robot-replied");
    s.wait_for(&your_move(2), "second-move");
    // d4-c5 gives the robot a capture. Where Black's reply left the human a capture instead,
    // capturing is forced (the highlighted move), and the robot recaptures.
    s.press("d4-c5\r");
    let answer = s.wait_until(
        |screen| screen.contains("is not a legal move") || screen.contains("you played d4"),
        "an answer to d4-c5",
        "d4-c5",
    );
    if answer.contains("is not a legal move") {
        s.press("\x1b");
        s.press("\r");
    }
    s.wait_for("black captured", "robot-captured");
    s.wait_for(&your_move(4), "after-capture");

    s.press("u");
    s.wait_for("took back", "taken-back");
    s.wait_for("the board is right again", "board-restored");
    // The position before the human's second move, on the screen and on the board.
    s.wait_for(&your_move(2), "after-take-back");

    s.press("r");
    s.press("y");
    s.wait_for("Black won", "resigned");
    // The review judges the one move that stood (c3-d4), not the ones taken back.
    let review = s.wait_for("review game 1", "review");
    assert!(review.contains("review   1. c3-d4"), "{review}");
    assert!(
        review
            .lines()
            .filter(|l| l.contains("review "))
            .all(|l| !l.contains("d4:f6")),
        "{review}"
    );

    s.press("q");
    let status = s.finish();
    let _ = std::fs::remove_dir_all(&run_dir);
    assert!(status.success(), "play exited with {status}");
}
