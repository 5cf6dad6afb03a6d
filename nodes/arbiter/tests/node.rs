//! The arbiter node in a graph, against stand-in planner, arm and board-scan servers (the real
//! ones run in the whole-graph tests): a human move, the robot's reply, a planner that hangs, an
//! illegal move, and a restart that resumes the game.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use checkers_msgs::action::{ExecuteMove, ExecuteMove_Result, PlanMove, PlanMove_Result};
use checkers_msgs::convert::{move_msg, position_from_msg};
use checkers_msgs::msg::{BoardOccupancy, GameEvent, GameState};
use checkers_msgs::srv::{ScanBoard, ScanBoard_Response};
use draughts::Position;
use futures::StreamExt;
use ros::env::{DiscoveryRange, RosEnv};
use ros::{Node, Qos, RosArgs};

fn node(name: &str, domain: u16, params: &[String]) -> Node {
    let mut args = vec!["test".to_string(), "--ros-args".to_string()];
    for p in params {
        args.push("-p".into());
        args.push(p.clone());
    }
    let env = RosEnv {
        domain_id: domain,
        discovery: DiscoveryRange::Localhost,
        security: None,
    };
    Node::new(name, RosArgs::parse(args).expect("arguments"), env).expect("node")
}

fn domain(offset: u16) -> u16 {
    170 + ((std::process::id() as u16)
        .wrapping_mul(3)
        .wrapping_add(offset))
        % 25
}

/// The physical board as the stand-in arm leaves it.
type Board = Arc<Mutex<u32>>;

/// A planner that plays the first legal move, or never answers when `hang`.
fn spawn_planner(domain: u16, hang: bool) {
    let mut n = node("planner", domain, &[]);
    let server = n
        .action_server::<PlanMove>("/planner/plan")
        .expect("server");
    tokio::spawn(async move {
        let _keep = n;
        loop {
            let goal = server.next_goal().await;
            let position = position_from_msg(&goal.goal().position).expect("a valid position");
            let running = goal.accept().await.expect("accept");
            if hang {
                std::mem::forget(running);
                continue;
            }
            let mv = position.legal_moves()[0];
            running.succeed(PlanMove_Result {
                best_move: move_msg(&mv),
                algorithm: "stand-in".into(),
                ..PlanMove_Result::default()
            });
        }
    });
}

/// An arm that makes each move on `board` at once (or, when `drops`, drops the piece: the
/// moving piece vanishes and the goal fails), and a board scan that reads the board.
fn spawn_arm(domain: u16, board: Board, drops: bool) {
    let mut n = node("arm", domain, &[]);
    let arm = n.action_server::<ExecuteMove>("/arm/execute").expect("arm");
    let scan = n.service_server::<ScanBoard>("/board/scan").expect("scan");
    let b = Arc::clone(&board);
    tokio::spawn(async move {
        loop {
            let goal = arm.next_goal().await;
            let mv = goal.goal().game_move.clone();
            {
                let mut occ = b.lock().expect("board");
                *occ &= !(1 << (mv.from_square - 1));
                if !drops {
                    for c in &mv.captured {
                        *occ &= !(1 << (c - 1));
                    }
                    *occ |= 1 << (mv.to_square - 1);
                }
            }
            let running = goal.accept().await.expect("accept");
            if drops {
                running.abort(ExecuteMove_Result {
                    success: false,
                    message: "the piece fell from the cup".into(),
                    error_code: ExecuteMove_Result::ERROR_PICK_FAILED,
                });
            } else {
                running.succeed(ExecuteMove_Result {
                    success: true,
                    ..ExecuteMove_Result::default()
                });
            }
        }
    });
    tokio::spawn(async move {
        let _keep = n;
        scan.serve(|_| {
            let occupied = *board.lock().expect("board");
            async move {
                let mut r = ScanBoard_Response {
                    success: true,
                    ..ScanBoard_Response::default()
                };
                r.occupancy.occupied = occupied;
                r
            }
        })
        .await;
    });
}

fn spawn_arbiter(domain: u16, state_dir: &std::path::Path) -> tokio::task::JoinHandle<()> {
    let params = vec![
        format!("state_dir:={}", state_dir.display()),
        "time_budget_s:=0.2".into(),
        "planner_margin_s:=1.5".into(),
        "scan_timeout_s:=2.0".into(),
        "planner_wait_s:=3.0".into(),
    ];
    let n = node("arbiter", domain, &params);
    tokio::spawn(async move {
        if let Err(e) = arbiter::run(n).await {
            panic!("the arbiter stopped: {e}");
        }
    })
}

struct Human {
    _node: Node,
    readings: ros::Publisher<BoardOccupancy>,
    seq: u64,
}

impl Human {
    /// Presses confirm with the board showing `occupied`.
    async fn confirm(&mut self, occupied: u32) {
        self.seq += 1;
        let mut r = BoardOccupancy {
            occupied,
            seq: self.seq,
            confirmed: true,
            ..BoardOccupancy::default()
        };
        r.header.stamp = ros::clock::system_now();
        self.readings.publish(r).await.expect("publish reading");
    }
}

async fn until<T>(
    stream: &mut (impl futures::Stream<Item = T> + Unpin),
    what: &str,
    mut pred: impl FnMut(&T) -> bool,
) -> T {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        match tokio::time::timeout_at(deadline, stream.next()).await {
            Ok(Some(x)) if pred(&x) => return x,
            Ok(Some(_)) => {}
            Ok(None) => panic!("{what}: stream ended"),
            Err(_) => panic!("no {what} in time"),
        }
    }
}

/// The occupancy after the human's (White's) first legal move from the start.
fn human_first_move() -> (String, u32) {
    let start = Position::start();
    let mv = start.legal_moves()[0];
    (mv.text(), start.after(&mv).occupancy_mask())
}

/// The stand-ins, the arbiter, a watcher of its topics and the human's confirm button, all
/// in domain `d`, with the game started and the human (White) to move.
struct Scene {
    board: Board,
    arbiter: tokio::task::JoinHandle<()>,
    dir: tempfile::TempDir,
    states: std::pin::Pin<Box<dyn futures::Stream<Item = GameState> + Send>>,
    events: std::pin::Pin<Box<dyn futures::Stream<Item = GameEvent> + Send>>,
    human: Human,
    _watcher: Node,
}

impl Scene {
    async fn start(d: u16, planner_hangs: bool, arm_drops: bool) -> Scene {
        let dir = tempfile::tempdir().expect("temp dir");
        let board: Board = Arc::new(Mutex::new(Position::start().occupancy_mask()));
        spawn_planner(d, planner_hangs);
        spawn_arm(d, Arc::clone(&board), arm_drops);
        let arbiter = spawn_arbiter(d, dir.path());
        let mut watcher = node("watcher", d, &[]);
        let states = watcher
            .subscription::<GameState>("/game/state", Qos::State)
            .expect("states");
        let events = watcher
            .subscription::<GameEvent>("/game/events", Qos::Events)
            .expect("events");
        let mut hn = node("human", d, &[]);
        let readings = hn
            .publisher::<BoardOccupancy>("/board/occupancy", Qos::State)
            .expect("readings");
        // The streams own their subscriptions, so the scene can hold both.
        let states = Box::pin(futures::stream::unfold(states, |sub| async move {
            let next = sub.stream().next().await;
            next.map(|m| (m, sub))
        }));
        let events = Box::pin(futures::stream::unfold(events, |sub| async move {
            let next = sub.stream().next().await;
            next.map(|m| (m, sub))
        }));
        let mut scene = Scene {
            board,
            arbiter,
            dir,
            states,
            events,
            human: Human {
                _node: hn,
                readings,
                seq: 0,
            },
            _watcher: watcher,
        };
        until(&mut scene.states, "a new game", |s| {
            s.status == GameState::STATUS_WAITING_FOR_HUMAN && s.ply == 0
        })
        .await;
        scene
    }

    /// The human makes White's first legal move and confirms until the arbiter answers;
    /// returns the move's text and the arbiter's first event about it.
    async fn human_moves(&mut self) -> (String, GameEvent) {
        let (text, after) = human_first_move();
        *self.board.lock().expect("board") = after;
        // Readings are events: repeat until the arbiter has heard one.
        loop {
            self.human.confirm(after).await;
            if let Ok(Some(e)) =
                tokio::time::timeout(Duration::from_millis(700), self.events.next()).await
            {
                if e.kind != GameEvent::KIND_NEW_GAME {
                    return (text, e);
                }
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_human_move_then_the_robots_reply_then_a_restart_resumes() {
    let d = domain(0);
    let mut scene = Scene::start(d, false, false).await;
    let (text, moved) = scene.human_moves().await;
    assert_eq!(moved.kind, GameEvent::KIND_HUMAN_MOVED, "{moved:?}");
    assert_eq!(moved.game_move.text, text);
    let robot = until(&mut scene.events, "the robot's move", |e| {
        e.kind == GameEvent::KIND_ROBOT_MOVED
    })
    .await;
    assert_eq!(robot.ply, 2);
    let waiting = until(&mut scene.states, "the human's turn again", |s| {
        s.status == GameState::STATUS_WAITING_FOR_HUMAN && s.ply == 2
    })
    .await;
    assert_eq!(waiting.position.side_to_move, 0);

    // An illegal reading: pieces appear on empty squares.
    let wrong = *scene.board.lock().expect("board") | (1 << 15) | (1 << 16);
    scene.human.confirm(wrong).await;
    let illegal = until(&mut scene.events, "an illegal move", |e| {
        e.kind == GameEvent::KIND_ILLEGAL_MOVE
    })
    .await;
    assert!(!illegal.wrong_squares.is_empty());

    // Kill the arbiter and start it again on the same state directory.
    scene.arbiter.abort();
    let _ = (&mut scene.arbiter).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let restarted = ros::clock::seconds(&ros::clock::system_now());
    let _again = spawn_arbiter(d, scene.dir.path());
    // The new arbiter's first state (latched, so it cannot be missed) is the same game.
    let state = until(&mut scene.states, "the resumed game's state", |s| {
        ros::clock::seconds(&s.header.stamp) > restarted
    })
    .await;
    assert_eq!(state.ply, 2);
    assert_eq!(state.status, GameState::STATUS_WAITING_FOR_HUMAN);
    assert_eq!(state.position, waiting.position);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_planner_that_hangs_never_stalls_the_game() {
    let mut scene = Scene::start(domain(11), true, false).await;
    scene.human_moves().await;
    // It takes the goal and never answers: the arbiter says so, asks again for
    // planner_wait_s, then plays on its own.
    let away = until(&mut scene.events, "the planner away", |e| {
        e.kind == GameEvent::KIND_PLANNER_AWAY
    })
    .await;
    assert!(away.text.contains("did not answer within"), "{}", away.text);
    let timeout = until(&mut scene.events, "a planner timeout", |e| {
        e.kind == GameEvent::KIND_PLANNER_TIMEOUT
    })
    .await;
    assert!(
        timeout.text.contains("stayed away for 3 s"),
        "{}",
        timeout.text
    );
    until(&mut scene.events, "the robot's quick move", |e| {
        e.kind == GameEvent::KIND_ROBOT_MOVED
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_piece_is_reported_and_the_human_puts_the_board_right() {
    let mut scene = Scene::start(domain(7), false, true).await;
    scene.human_moves().await;
    let failed = until(&mut scene.events, "the arm's failure", |e| {
        assert_ne!(
            e.kind,
            GameEvent::KIND_ROBOT_MOVED,
            "announced before it was verified"
        );
        e.kind == GameEvent::KIND_ARM_FAILED
    })
    .await;
    assert!(failed.text.contains("fell"), "{}", failed.text);
    let mismatch = until(&mut scene.events, "a board mismatch", |e| {
        e.kind == GameEvent::KIND_BOARD_MISMATCH
    })
    .await;
    assert!(!mismatch.wrong_squares.is_empty());
    let asking = until(&mut scene.states, "the request to fix the board", |s| {
        s.status == GameState::STATUS_BOARD_MISMATCH
    })
    .await;
    assert_eq!(
        asking.ply, 2,
        "the robot's move stands; the board must follow it"
    );

    // The human puts the robot's piece where it belongs and confirms.
    let expected = asking.position.white | asking.position.black;
    scene.human.confirm(expected).await;
    until(&mut scene.events, "the board restored", |e| {
        e.kind == GameEvent::KIND_BOARD_RESTORED
    })
    .await;
    // Only now is the robot's move executed and verified.
    until(
        &mut scene.events,
        "the robot's move, announced at last",
        |e| e.kind == GameEvent::KIND_ROBOT_MOVED,
    )
    .await;
    until(&mut scene.states, "the human's turn", |s| {
        s.status == GameState::STATUS_WAITING_FOR_HUMAN && s.ply == 2
    })
    .await;
}
