//! The UI's loop: keys from a reader thread, the graph's messages from the client, replies of
//! the service calls it made; each changes the [`App`], then the screen is drawn again.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use checkers_msgs::msg::GameEvent;
use checkers_msgs::srv::HumanMove_Request;
use crossterm::event::{Event, KeyEvent, KeyEventKind};
use ratatui::DefaultTerminal;
use tokio::signal::unix::{signal, SignalKind};
use tokio::sync::{broadcast, mpsc};

use super::app::{App, Notice};
use super::input::{self, Action};
use super::ui;
use checkers_robot::graph::client::GraphClient;
use checkers_robot::graph::sim::{archived_games, web_url, SimGraph};

/// How often the latest game state and the launcher's health are looked at (and the screen
/// redrawn for them): quick enough to follow the planner's progress.
const TICK: Duration = Duration::from_millis(100);

enum Input {
    Key(KeyEvent),
    Redraw,
    Failed(String),
}

/// Reads the terminal on a thread of its own (crossterm's reads block) until `stop` is set.
fn read_keys(stop: Arc<AtomicBool>) -> mpsc::UnboundedReceiver<Input> {
    let (tx, rx) = mpsc::unbounded_channel();
    std::thread::spawn(move || {
        while !stop.load(Ordering::Relaxed) {
            let ev = match crossterm::event::poll(TICK) {
                Ok(false) => continue,
                Ok(true) => crossterm::event::read(),
                Err(e) => Err(e),
            };
            let msg = match ev {
                // Some terminals report releases and repeats too: a key counts once.
                Ok(Event::Key(k)) if k.kind != KeyEventKind::Release => Input::Key(k),
                Ok(Event::Resize(..)) => Input::Redraw,
                Ok(_) => continue,
                Err(e) => Input::Failed(format!("reading the terminal: {e}")),
            };
            let failed = matches!(msg, Input::Failed(_));
            if tx.send(msg).is_err() || failed {
                break;
            }
        }
    });
    rx
}

/// Carries out an action on the graph and says how it went.
async fn perform(client: &GraphClient, action: Action) -> Notice {
    let done: anyhow::Result<String> = async {
        Ok(match action {
            Action::PlayMove(text) => client
                .human_move(&text, HumanMove_Request::ERROR_NONE, true)
                .await
                .map(|r| format!("you played {} and pressed confirm", r.performed_text))?,
            Action::Resolve { index, text } => client.resolve(index, &text).await?,
            Action::NewGame { robot_color, level } => {
                client.new_game(robot_color, &level, "").await.map(|m| {
                    if m.is_empty() {
                        "new game started".into()
                    } else {
                        m
                    }
                })?
            }
            Action::Resign { side } => client.resign(side).await.map(|m| {
                if m.is_empty() {
                    "you resigned".into()
                } else {
                    m
                }
            })?,
            Action::Hint => client.hint(0.0).await.map(|r| {
                format!(
                    "{} (your chances after it: {:.0}%)",
                    r.message,
                    100.0 * r.win_probability
                )
            })?,
            Action::TakeBack => client.take_back_and_set_up().await?,
            Action::Quit => String::new(),
        })
    }
    .await;
    match done {
        Ok(m) => Notice::Info(m),
        Err(e) => Notice::Error(format!("{e:#}")),
    }
}

/// Why a move waits at the start.
const NOT_READY: &str = "the robot is still starting: its board sensor does not read the board yet";

/// How long the launched robot may take to read its board before the screen says so.
const READY_WAIT: Duration = Duration::from_secs(120);

/// How deep `play` judges each of the human's moves after the game.
const REVIEW_DEPTH: u32 = 8;

/// Judges the finished game (the newest archived PDN) off the UI's threads and sends the
/// review's lines.
fn review_in_background(state_dir: &std::path::Path, tx: mpsc::UnboundedSender<Vec<String>>) {
    let Some(pdn) = archived_games(state_dir).pop() else {
        let _ = tx.send(vec!["review: the game's PDN was not found".into()]);
        return;
    };
    tokio::task::spawn_blocking(move || {
        let lines = match crate::cli::review::review_last_game(&pdn, REVIEW_DEPTH) {
            Ok(lines) => lines,
            Err(e) => vec![format!("review: {e:#}")],
        };
        let _ = tx.send(lines);
    });
}

/// The next message of a broadcast, skipping over a backlog the UI fell behind on.
async fn next<T: Clone>(rx: &mut broadcast::Receiver<T>) -> Option<T> {
    loop {
        match rx.recv().await {
            Ok(m) => return Some(m),
            Err(broadcast::error::RecvError::Lagged(_)) => continue,
            Err(broadcast::error::RecvError::Closed) => return None,
        }
    }
}

/// Runs the UI until the player quits, a signal asks to stop, or the terminal fails.
pub async fn run(
    terminal: &mut DefaultTerminal,
    app: &mut App,
    client: Arc<GraphClient>,
    graph: &mut SimGraph,
    launch_log: &str,
) -> anyhow::Result<()> {
    let stop = Arc::new(AtomicBool::new(false));
    let mut keys = read_keys(stop.clone());
    let mut events = client.events();
    let mut faces = client.faces();
    let mut says = client.says();
    let mut evaluations = client.evaluations();
    let (reply_tx, mut replies) = mpsc::unbounded_channel::<Notice>();
    let mut sigint = signal(SignalKind::interrupt()).context("SIGINT handler")?;
    let mut sigterm = signal(SignalKind::terminate()).context("SIGTERM handler")?;
    // The terminal closed (its window, an ssh session): stop the launched nodes, which run in
    // a process group of their own and would otherwise play on with nobody at the board.
    let mut sighup = signal(SignalKind::hangup()).context("SIGHUP handler")?;
    let mut tick = tokio::time::interval(TICK);
    let mut graph_ended = false;
    // The web window's player link, once its node has written it.
    let mut web: Option<String> = None;
    let (review_tx, mut reviews) = mpsc::unbounded_channel::<Vec<String>>();
    // The tasks that hold the client: stopped before the loop returns, so that the client's
    // readers and writers go before its participant (`mod.rs` closes it after).
    let mut jobs = tokio::task::JoinSet::new();
    let (ready_tx, mut ready) = mpsc::unbounded_channel::<Result<(), graph_client::GraphError>>();
    {
        let c = client.clone();
        jobs.spawn(async move {
            // Until it works: a robot slow to come up is reported, and still awaited.
            loop {
                let r = match c.wait_ready(READY_WAIT).await {
                    Ok(_) => c.wait_human(READY_WAIT).await,
                    Err(e) => Err(e),
                };
                let ok = r.is_ok();
                if ready_tx.send(r).is_err() || ok {
                    break;
                }
            }
        });
    }
    let result = loop {
        if let Err(e) = terminal.draw(|f| ui::draw(f, app)) {
            break Err(e).context("drawing the screen");
        }
        tokio::select! {
            k = keys.recv() => match k {
                Some(Input::Key(k)) => match input::on_key(app, k) {
                    Some(Action::Quit) => break Ok(()),
                    Some(action @ (Action::PlayMove(_) | Action::Resolve { .. } | Action::TakeBack))
                        if !app.ready =>
                    {
                        if let Action::PlayMove(text) = action {
                            // Kept for when the robot is up.
                            app.input = text;
                        }
                        app.notice = Some(Notice::Error(NOT_READY.into()));
                    }
                    Some(action) => {
                        let (c, tx) = (client.clone(), reply_tx.clone());
                        while jobs.try_join_next().is_some() {}
                        jobs.spawn(async move {
                            let _ = tx.send(perform(&c, action).await);
                        });
                    }
                    None => {}
                },
                Some(Input::Redraw) => {}
                Some(Input::Failed(e)) => break Err(anyhow::anyhow!(e)),
                None => break Err(anyhow::anyhow!("the terminal reader stopped")),
            },
            Some(e) = next(&mut events) => {
                app.on_event(&e);
                if e.kind == GameEvent::KIND_GAME_OVER {
                    review_in_background(&graph.state_dir, review_tx.clone());
                }
            }
            Some(lines) = reviews.recv() => app.on_review(lines),
            Some(r) = ready.recv() => match r {
                Ok(()) => app.ready = true,
                Err(e) => {
                    app.graph_note = Some(format!("the robot is not up yet ({e}); still waiting, q quits"));
                }
            },
            Some(f) = next(&mut faces) => app.on_face(&f),
            Some(s) = next(&mut says) => app.on_say(&s),
            Some(e) = next(&mut evaluations) => app.on_evaluation(e),
            Some(n) = replies.recv() => app.notice = Some(n),
            _ = sigint.recv() => break Ok(()),
            _ = sigterm.recv() => break Ok(()),
            _ = sighup.recv() => break Ok(()),
            _ = tick.tick() => {
                if let Some(s) = client.state() {
                    if app.state.as_ref() != Some(&s) {
                        app.on_state(s);
                    }
                }
                if !graph_ended {
                    if let Some(status) = graph.exited() {
                        graph_ended = true;
                        app.graph_note = Some(format!(
                            "the simulated robot stopped ({status}): see {launch_log}; q quits"
                        ));
                    } else if app.ready {
                        if web.is_none() {
                            web = web_url(&graph.run_dir).map(|(_, player)| player);
                        }
                        app.graph_note = web.as_ref().map(|u| format!("also in a browser: {u}"));
                    }
                }
            }
        }
    };
    stop.store(true, Ordering::Relaxed);
    jobs.abort_all();
    while jobs.join_next().await.is_some() {}
    result
}
