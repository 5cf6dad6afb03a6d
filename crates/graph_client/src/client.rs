//! A client of the running robot graph, for the CLI (`watch`, `play`), the web window and the
//! whole-graph tests. In outline (not run here: it needs a running graph, which the
//! whole-graph tests in tests/ start):
//!
//! ```ignore
//! let client = GraphClient::connect(domain)?;          // inside a tokio runtime
//! let mut events = client.events();                     // subscribe before acting
//! let state = client.wait_state(WAIT, |s| s.status == GameState::STATUS_WAITING_FOR_HUMAN).await?;
//! let done = client.human_move("c3-d4", HumanMove_Request::ERROR_NONE, true).await?;
//! let e = next_event(&mut events, WAIT, |e| e.kind == GameEvent::KIND_ROBOT_MOVED).await?;
//! ```
//!
//! - [`GraphClient::state`]: the latest `/game/state` (latched, so it is there soon after
//!   connecting); [`GraphClient::wait_state`] waits for one that satisfies a predicate.
//! - [`GraphClient::events`], [`GraphClient::faces`], [`GraphClient::says`],
//!   [`GraphClient::evaluations`]: a fresh receiver of `/game/events`, `/face/expression`,
//!   `/voice/say`, `/planner/evaluation` (only what arrives after the call).
//! - [`GraphClient::close`], [`GraphClient::closer`]: leave the graph in order, now or after
//!   the client is dropped.
//! - [`GraphClient::wait_ready`]: after a launch, wait until the board sensor reads the board.
//! - [`GraphClient::human_move`] (`/sim/human_move`), [`GraphClient::new_game`] (`/game/new`),
//!   [`GraphClient::resign`] (`/game/resign`), [`GraphClient::resolve`] (`/game/resolve`),
//!   [`GraphClient::hint`] (`/game/hint`), [`GraphClient::take_back`] (`/game/takeback`),
//!   [`GraphClient::set_fault`] (`/sim/set_fault`, confirmed on `/sim/faults`): each with a
//!   timeout; a service that answers `success = false` is an error carrying its message.

use std::time::Duration;

use checkers_msgs::msg::{Evaluation, FaceExpression, GameEvent, GameState};
use checkers_msgs::srv::{
    Hint, Hint_Request, Hint_Response, HumanMove, HumanMove_Request, HumanMove_Response, NewGame,
    NewGame_Request, NewGame_Response, Resign, Resign_Request, Resign_Response, ResolveAmbiguity,
    ResolveAmbiguity_Request, ResolveAmbiguity_Response, ScanBoard, ScanBoard_Request,
    ScanBoard_Response, TakeBack, TakeBack_Request, TakeBack_Response,
};
use checkers_msgs::std_msgs::msg::String as StringMsg;
use futures::StreamExt;
use ros::env::{DiscoveryRange, RosEnv};
use ros::security::SecurityEnv;
use ros::{Node, Publisher, Qos, RosArgs, ServiceClient, Subscription};
use tokio::sync::{broadcast, watch};

pub use checkers_msgs::names::{event_kind, status_name};

use crate::{GraphError, Result};

/// How long a service call may take, the server's discovery included. Discovery on a busy
/// machine can take seconds; the simulated human's move takes its pauses.
pub const CALL: Duration = Duration::from_secs(30);

/// The enclave of the play interface (config/security/policy.xml).
pub const PLAY_ENCLAVE: &str = "/checkers/play";

/// A node of a tool on the graph's domain (localhost discovery) in `enclave`. A secured node
/// may only serve the parameter services its permissions name, which the policy names after the
/// node (`secured_name`: `play`, `operator`, `rviz2`); an unsecured one gets a unique name,
/// `NAME_PID`.
pub fn client_node(
    domain: u16,
    security: Option<SecurityEnv>,
    enclave: &str,
    secured_name: &str,
    name: &str,
) -> Result<Node> {
    let name = match &security {
        Some(_) => secured_name.to_string(),
        None => format!("{name}_{}", std::process::id()),
    };
    let env = RosEnv {
        domain_id: domain,
        discovery: DiscoveryRange::Localhost,
        security,
    };
    let args = RosArgs::parse([name.as_str(), "--ros-args", "--enclave", enclave])
        .map_err(GraphError::Args)?;
    Node::new(&name, args, env).map_err(GraphError::Join)
}

/// How many messages of a stream a slow reader may fall behind before it loses the oldest.
const BACKLOG: usize = 512;
/// One request of [`GraphClient::wait_human`], before it asks again.
const HUMAN_ATTEMPT: Duration = Duration::from_secs(5);
/// One scan request of [`GraphClient::wait_ready`], before it asks again.
const SCAN_ATTEMPT: Duration = Duration::from_secs(10);

/// A node on the graph's domain with its subscriptions running in the background.
#[derive(Debug)]
pub struct GraphClient {
    state: watch::Receiver<Option<GameState>>,
    faults: watch::Receiver<String>,
    events: broadcast::Sender<GameEvent>,
    faces: broadcast::Sender<FaceExpression>,
    says: broadcast::Sender<String>,
    evaluations: broadcast::Sender<Evaluation>,
    human: ServiceClient<HumanMove>,
    new: ServiceClient<NewGame>,
    resign: ServiceClient<Resign>,
    hint: ServiceClient<Hint>,
    takeback: ServiceClient<TakeBack>,
    resolve: ServiceClient<ResolveAmbiguity>,
    set_fault: Publisher<StringMsg>,
    scan: ServiceClient<ScanBoard>,
    // Last, so dropped after the clients above; the subscriptions' tasks are the node's and go
    // with it (see [`GraphClient::closer`]).
    node: Node,
}

impl GraphClient {
    /// Joins ROS domain `domain` (localhost discovery), with DDS Security when the process's
    /// environment asks for it (`ROS_SECURITY_*`), in the play interface's enclave. Must run
    /// inside a tokio runtime: the subscriptions are read by spawned tasks.
    pub fn connect(domain: u16) -> Result<GraphClient> {
        let security = SecurityEnv::from_lookup(|k| std::env::var(k).ok());
        GraphClient::connect_with(domain, security, PLAY_ENCLAVE)
    }

    /// As [`GraphClient::connect`], with the security settings and enclave given (whose policy
    /// names its node `play`).
    pub fn connect_with(
        domain: u16,
        security: Option<SecurityEnv>,
        enclave: &str,
    ) -> Result<GraphClient> {
        GraphClient::on(client_node(
            domain,
            security,
            enclave,
            "play",
            "graph_client",
        )?)
    }

    /// A client on a node of one's own (the web window's), which it keeps: its subscriptions
    /// run on the node's tasks and end with it.
    pub fn on(mut node: Node) -> Result<GraphClient> {
        let (state_tx, state) = watch::channel(None);
        forward(
            node.subscription::<GameState>("/game/state", Qos::State)?,
            &node,
            move |s| {
                let _ = state_tx.send(Some(s));
            },
        );
        let (faults_tx, faults) = watch::channel(String::new());
        forward(
            node.subscription::<StringMsg>("/sim/faults", Qos::State)?,
            &node,
            move |s| {
                let _ = faults_tx.send(s.data);
            },
        );
        let (events, _) = broadcast::channel(BACKLOG);
        let tx = events.clone();
        forward(
            node.subscription::<GameEvent>("/game/events", Qos::Events)?,
            &node,
            move |e| {
                let _ = tx.send(e);
            },
        );
        let (faces, _) = broadcast::channel(BACKLOG);
        let tx = faces.clone();
        forward(
            node.subscription::<FaceExpression>("/face/expression", Qos::State)?,
            &node,
            move |f| {
                let _ = tx.send(f);
            },
        );
        let (says, _) = broadcast::channel(BACKLOG);
        let tx = says.clone();
        forward(
            node.subscription::<StringMsg>("/voice/say", Qos::Events)?,
            &node,
            move |s| {
                let _ = tx.send(s.data);
            },
        );
        let (evaluations, _) = broadcast::channel(BACKLOG);
        let tx = evaluations.clone();
        forward(
            node.subscription::<Evaluation>("/planner/evaluation", Qos::Events)?,
            &node,
            move |e| {
                let _ = tx.send(e);
            },
        );
        Ok(GraphClient {
            human: node.service_client("/sim/human_move")?,
            new: node.service_client("/game/new")?,
            resign: node.service_client("/game/resign")?,
            hint: node.service_client("/game/hint")?,
            takeback: node.service_client("/game/takeback")?,
            resolve: node.service_client("/game/resolve")?,
            set_fault: node.publisher("/sim/set_fault", Qos::Events)?,
            scan: node.service_client("/board/scan")?,
            node,
            state,
            faults,
            events,
            faces,
            says,
            evaluations,
        })
    }

    /// What leaves the graph in order: once this client is dropped, `close` stops the
    /// subscriptions' tasks, then lets the participant go.
    pub fn closer(&self) -> ros::Closer {
        self.node.closer()
    }

    /// Leaves the graph in order now (see [`GraphClient::closer`]).
    pub async fn close(self) {
        let closer = self.closer();
        drop(self);
        closer.close().await;
    }

    /// Waits until the graph can play: a `/game/state` has arrived and the board sensor reads
    /// the board (`/board/scan` succeeds). Needed after a launch: the arbiter waits for the
    /// human before the board sensor has reached its controller, and a confirm pressed before
    /// that first connection is not seen (the sensor cannot tell it from an old count).
    pub async fn wait_ready(&self, timeout: Duration) -> Result<GameState> {
        let deadline = tokio::time::Instant::now() + timeout;
        let state = self.wait_state(timeout, |_| true).await?;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            // A scan is safe to repeat, and a request written while the sensor's reader was
            // still matching is lost: ask again rather than wait out the whole timeout.
            match self
                .scan
                .call(ScanBoard_Request::default(), left.min(SCAN_ATTEMPT))
                .await
            {
                Ok(r) if r.success => return Ok(self.state().unwrap_or(state)),
                Ok(r) => tracing::debug!("the board sensor is not ready: {}", r.message),
                Err(source) if tokio::time::Instant::now() >= deadline => {
                    return Err(GraphError::SensorSilent { timeout, source })
                }
                Err(e) => tracing::debug!("the board sensor did not answer yet: {e}"),
            }
            if tokio::time::Instant::now() >= deadline {
                return Err(GraphError::Timeout {
                    what: "the board sensor did not read the board".into(),
                    timeout,
                    last: None,
                });
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// Waits until the simulated human answers (`/sim/human_move`), asking it to move and press
    /// nothing until an answer comes. A move must not be sent twice, so the first one has to
    /// find the service matched both ways: under DDS Security on a busy machine a new client's
    /// request and reply topics can take many seconds to match, and a request sent before that
    /// is lost.
    pub async fn wait_human(&self, timeout: Duration) -> Result<()> {
        let nothing = HumanMove_Request {
            move_text: String::new(),
            error: HumanMove_Request::ERROR_NO_MOVE,
            press_confirm: false,
        };
        let attempts = u32::try_from(timeout.as_millis() / HUMAN_ATTEMPT.as_millis())
            .unwrap_or(u32::MAX)
            .max(1);
        self.human
            .call_retrying(nothing, HUMAN_ATTEMPT, attempts)
            .await
            .map(|_| ())
            .map_err(|source| GraphError::Call {
                service: "/sim/human_move",
                source,
            })
    }

    /// The latest `/game/state`, if one has arrived.
    pub fn state(&self) -> Option<GameState> {
        self.state.borrow().clone()
    }

    /// Waits up to `timeout` for a `/game/state` (the current one included) that satisfies
    /// `pred`.
    pub async fn wait_state(
        &self,
        timeout: Duration,
        mut pred: impl FnMut(&GameState) -> bool,
    ) -> Result<GameState> {
        let mut rx = self.state.clone();
        let waited =
            tokio::time::timeout(timeout, rx.wait_for(|s| s.as_ref().is_some_and(&mut pred))).await;
        match waited {
            // The predicate only holds for a state that is there.
            Ok(Ok(s)) => s
                .clone()
                .ok_or(GraphError::Ended("/game/state subscription")),
            Ok(Err(_)) => Err(GraphError::Ended("/game/state subscription")),
            Err(_) => Err(GraphError::Timeout {
                what: "no such /game/state".into(),
                timeout,
                last: Some(self.state().map_or("none".into(), |s| describe_state(&s))),
            }),
        }
    }

    /// `/game/events` from now on.
    pub fn events(&self) -> broadcast::Receiver<GameEvent> {
        self.events.subscribe()
    }

    /// `/face/expression` from now on.
    pub fn faces(&self) -> broadcast::Receiver<FaceExpression> {
        self.faces.subscribe()
    }

    /// `/voice/say` from now on (the phrase text).
    pub fn says(&self) -> broadcast::Receiver<String> {
        self.says.subscribe()
    }

    /// `/planner/evaluation` from now on (one after each of the robot's searches).
    pub fn evaluations(&self) -> broadcast::Receiver<Evaluation> {
        self.evaluations.subscribe()
    }

    /// The simulated human plays `text` ("" = a random legal move) with deliberate `error`
    /// (`HumanMove_Request::ERROR_*`), then presses confirm if `confirm`. Returns the sim's
    /// answer, `performed_text` included; `success = false` is an error.
    pub async fn human_move(
        &self,
        text: &str,
        error: u8,
        confirm: bool,
    ) -> Result<HumanMove_Response> {
        let req = HumanMove_Request {
            move_text: text.to_string(),
            error,
            press_confirm: confirm,
        };
        call_ok(&self.human, "/sim/human_move", req, || {
            format!("the simulated human did not play {text:?}")
        })
        .await
    }

    /// `/game/new`: `robot_color` is `NewGame_Request::SIDE_*`, `level` "" keeps the current
    /// one, `fen` "" is the standard start. Returns the arbiter's message.
    pub async fn new_game(&self, robot_color: u8, level: &str, fen: &str) -> Result<String> {
        let req = NewGame_Request {
            robot_color,
            level: level.to_string(),
            fen: fen.to_string(),
        };
        let r = call_ok(&self.new, "/game/new", req, || "/game/new refused".into()).await?;
        Ok(r.message)
    }

    /// `/game/hint`: the planner's move for the human, searched for `time_budget_s` (0: the
    /// arbiter's own setting).
    pub async fn hint(&self, time_budget_s: f32) -> Result<Hint_Response> {
        call_ok(
            &self.hint,
            "/game/hint",
            Hint_Request { time_budget_s },
            || "no hint".into(),
        )
        .await
    }

    /// `/board/scan`: the board's occupancy now (bit n-1 = square n).
    pub async fn scan(&self) -> Result<u32> {
        let r = call_ok(
            &self.scan,
            "/board/scan",
            ScanBoard_Request::default(),
            || "/board/scan failed".into(),
        )
        .await?;
        Ok(r.occupancy.occupied)
    }

    /// `/game/takeback`: `plies` taken back (0: the last pair). The answer says what the human
    /// must put right.
    pub async fn take_back(&self, plies: u8) -> Result<String> {
        let r = call_ok(
            &self.takeback,
            "/game/takeback",
            TakeBack_Request { plies },
            || "no take-back".into(),
        )
        .await?;
        Ok(r.message)
    }

    /// `/game/resign` for `side` (`Resign_Request::SIDE_*`).
    pub async fn resign(&self, side: u8) -> Result<String> {
        let r = call_ok(
            &self.resign,
            "/game/resign",
            Resign_Request { side },
            || "/game/resign refused".into(),
        )
        .await?;
        Ok(r.message)
    }

    /// `/game/resolve`: picks the candidate named `move_text` (or, when it is "", number `index`).
    pub async fn resolve(&self, index: u8, move_text: &str) -> Result<String> {
        let req = ResolveAmbiguity_Request {
            index,
            move_text: move_text.to_string(),
        };
        let r = call_ok(&self.resolve, "/game/resolve", req, || {
            "/game/resolve refused".into()
        })
        .await?;
        Ok(r.message)
    }

    /// `/game/takeback`. The arm carries the robot's piece back; the rest (the player's own move,
    /// a captured piece from the bin, a king that is a man again) is the player's to put right,
    /// and in `play` and the web window the simulated human is the player's hands: once the
    /// arbiter asks for it, the human sets the board up as the rewound game has it and presses
    /// confirm.
    pub async fn take_back_and_set_up(&self) -> Result<String> {
        let before = self.state().map_or(u32::MAX, |s| s.ply);
        let said = self.take_back(0).await?;
        let rewound = self
            .wait_state(MISMATCH_WAIT, |s| {
                s.ply < before
                    && (s.status == GameState::STATUS_BOARD_MISMATCH
                        || s.status == GameState::STATUS_WAITING_FOR_HUMAN)
            })
            .await?;
        if rewound.status != GameState::STATUS_BOARD_MISMATCH {
            return Ok(said);
        }
        // The sim reads the game's state on its own: a set-up asked for before the rewound state
        // reached it sets up the old position, the arbiter says the board is still wrong, and the
        // hand tries again.
        for _ in 0..SET_UP_ATTEMPTS {
            self.human_move("", HumanMove_Request::ERROR_SET_UP, true)
                .await?;
            let restored = self
                .wait_state(MISMATCH_WAIT, |s| {
                    s.ply == rewound.ply && s.status == GameState::STATUS_WAITING_FOR_HUMAN
                })
                .await;
            if restored.is_ok() {
                return Ok(format!(
                    "{said} (your hand put the board right and pressed confirm)"
                ));
            }
        }
        Ok(format!("{said}: the board is still not right"))
    }

    /// Sets a sim fault (`"failed_picks:=1"`): publishes until `/sim/faults` shows the line,
    /// since a message published before the sim's subscription is matched is lost.
    pub async fn set_fault(&self, line: &str, timeout: Duration) -> Result<()> {
        let want = line.replace(' ', "");
        let deadline = tokio::time::Instant::now() + timeout;
        let mut faults = self.faults.clone();
        loop {
            if faults.borrow().lines().any(|l| l.replace(' ', "") == want) {
                return Ok(());
            }
            if tokio::time::Instant::now() >= deadline {
                let in_force = faults.borrow().clone();
                return Err(GraphError::FaultNotTaken {
                    line: line.to_string(),
                    in_force,
                });
            }
            self.set_fault
                .publish(StringMsg {
                    data: line.to_string(),
                })
                .await
                .map_err(|source| GraphError::Call {
                    service: "/sim/set_fault",
                    source,
                })?;
            let _ = tokio::time::timeout(Duration::from_millis(300), faults.changed()).await;
        }
    }
}

/// How long the board may take to be reported wrong after a take-back.
const MISMATCH_WAIT: Duration = Duration::from_secs(10);
/// Set-ups the simulated human tries after a take-back.
const SET_UP_ATTEMPTS: usize = 3;

/// Calls `service` through `client` and waits for its answer, at most [`CALL`].
async fn call<S: ros::Service>(
    client: &ServiceClient<S>,
    service: &'static str,
    request: S::Request,
) -> Result<S::Response> {
    client
        .call(request, CALL)
        .await
        .map_err(|source| GraphError::Call { service, source })
}

/// A service's answer that says whether it did what was asked, and if not, why.
trait Answer {
    fn success(&self) -> bool;
    fn message(&self) -> &str;
}

macro_rules! answers {
    ($($response:ty),* $(,)?) => {
        $(impl Answer for $response {
            fn success(&self) -> bool {
                self.success
            }
            fn message(&self) -> &str {
                &self.message
            }
        })*
    };
}

answers!(
    HumanMove_Response,
    NewGame_Response,
    Hint_Response,
    ScanBoard_Response,
    TakeBack_Response,
    Resign_Response,
    ResolveAmbiguity_Response,
);

/// [`call`], and an answer of `success = false` is [`GraphError::Refused`], `what` saying
/// what was refused.
async fn call_ok<S: ros::Service>(
    client: &ServiceClient<S>,
    service: &'static str,
    request: S::Request,
    what: impl FnOnce() -> String,
) -> Result<S::Response>
where
    S::Response: Answer,
{
    let r = call(client, service, request).await?;
    if !r.success() {
        return Err(GraphError::Refused {
            what: what(),
            message: r.message().to_string(),
        });
    }
    Ok(r)
}

/// The next event on `rx` that satisfies `pred`, within `timeout`.
pub async fn next_event(
    rx: &mut broadcast::Receiver<GameEvent>,
    timeout: Duration,
    mut pred: impl FnMut(&GameEvent) -> bool,
) -> Result<GameEvent> {
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        match tokio::time::timeout_at(deadline, rx.recv()).await {
            Ok(Ok(e)) if pred(&e) => return Ok(e),
            Ok(Ok(_)) | Ok(Err(broadcast::error::RecvError::Lagged(_))) => {}
            Ok(Err(broadcast::error::RecvError::Closed)) => {
                return Err(GraphError::Ended("/game/events"))
            }
            Err(_) => {
                return Err(GraphError::Timeout {
                    what: "no such /game/events".into(),
                    timeout,
                    last: None,
                })
            }
        }
    }
}

/// A state in one line, for messages.
pub fn describe_state(s: &GameState) -> String {
    format!(
        "game {} ply {} {} level {}{}",
        s.game_id,
        s.ply,
        status_name(s.status),
        s.level,
        if s.message.is_empty() {
            String::new()
        } else {
            format!(": {}", s.message)
        }
    )
}

/// Reads a subscription on a task of its own, handing each message to `sink`.
fn forward<T: checkers_msgs::Interface>(
    sub: Subscription<T>,
    node: &Node,
    mut sink: impl FnMut(T) + Send + 'static,
) {
    node.spawn(async move {
        let mut stream = sub.stream();
        while let Some(m) = stream.next().await {
            sink(m);
        }
    });
}
