//! The sim node: the three controllers on pseudo-terminals (symlinked as `<run_dir>/field`,
//! `<run_dir>/arm`, `<run_dir>/head`), the physics tick, `/sim/human_move`, `/sim/markers`, and
//! fault injection through `/sim/set_fault` (state on `/sim/faults`).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use checkers_msgs::msg::GameState;
use checkers_msgs::srv::HumanMove;
use checkers_msgs::std_msgs::msg::String as StringMsg;
use checkers_msgs::visualization_msgs::msg::MarkerArray;
use firmware_core::arm::Arm;
use firmware_core::device::{Device, FieldUnit, HeadUnit};
use firmware_core::field::{Field, FieldConfig};
use firmware_core::head::Head;
use futures::StreamExt;
use ros::{Node, Qos, RosError};
use serial_link::port::{publish_link, Pty, PtySlave};
use serial_link::FirmwareId;

use crate::faults::Controller;
use crate::hardware::{arm_config, head_config, SimArmIo, SimFieldInputs, SimHeadOutputs};
use crate::human::Human;
use crate::serve::serve;
use crate::settings::Firmware;
use crate::settings::{robot_color, Settings, SettingsError};
use crate::setup::{set_up_for, SetUp};
use crate::state::{lock, Controllers, Devices, Physics, Shared, Sim};
use crate::world::World;
use draughts::Color;

/// The physics tick, real time.
const TICK: Duration = Duration::from_millis(10);

#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error(transparent)]
    Ros(#[from] RosError),
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error("{what}: {source}")]
    Io {
        what: String,
        source: std::io::Error,
    },
    #[error("the {0} controller stopped: {1}")]
    Controller(&'static str, String),
    #[error(transparent)]
    Emulator(#[from] pico_emulator::EmulatorError),
}

pub(crate) fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> SimError {
    let what = what.into();
    move |source| SimError::Io { what, source }
}

/// The simulated hardware, built from the settings.
pub fn build(settings: &Settings) -> Shared {
    let robot = robot_color(&settings.board);
    let world = World::new(settings.board.clone(), &settings.start, robot);
    let devices = devices(settings);
    let physics = Physics {
        sensor_tolerance_m: settings.sensor_tolerance_m,
        pick_tolerance_m: settings.pick_tolerance_m,
        pick_reach_m: settings.pick_reach_m,
        sensor_map: settings.sensor_map,
    };
    Arc::new(Mutex::new(Sim::new(
        world,
        devices,
        settings.arm.geometry(),
        physics,
        settings.faults.clone(),
        settings.seed,
    )))
}

/// Opens a pty for `which` and points `<run_dir>/<name>` at it.
pub(crate) fn open_port(run_dir: &Path, which: Controller) -> Result<(Pty, PathBuf), SimError> {
    let pty = Pty::open().map_err(io(format!(
        "a pseudo-terminal for the {} controller",
        which.name()
    )))?;
    let link = run_dir.join(which.name());
    publish_link(pty.slave.path(), &link).map_err(io(format!("symlink {}", link.display())))?;
    tracing::info!(
        controller = which.name(),
        port = %link.display(),
        device = %pty.slave.path().display(),
        "controller serving"
    );
    Ok((pty, link))
}

/// What runs the controllers, at power-up: our firmware core here over the simulated
/// electronics, or (emulated) the electronics alone, for the emulated Picos' pins.
fn devices(settings: &Settings) -> Controllers {
    match settings.firmware {
        Firmware::Native => Controllers::Native(Box::new(native_devices(settings))),
        Firmware::Emulated => Controllers::Emulated(crate::emulated::electronics(settings)),
    }
}

/// The three controllers' firmware over the simulated electronics, at power-up. The arm's
/// and the head's mechanics run `time_scale` times faster than real time; the field scans in
/// real time.
fn native_devices(settings: &Settings) -> Devices {
    let version = env!("CARGO_PKG_VERSION");
    let id = |what: &str| FirmwareId::new(&format!("sim-{what} {version}"));
    let seed = settings.seed;
    let arm_cfg = arm_config(
        &settings.arm.limits(),
        settings.home_deg.map(f64::to_radians),
        settings.homing_deg_s,
    );
    let io = SimArmIo::new(&arm_cfg, settings.arm.rest());
    let mut arm = Device::new(Arm::new(arm_cfg, io), id("arm"), seed ^ 1, 0);
    arm.set_speedup(settings.time_scale);
    let field = FieldUnit {
        field: Field::new(FieldConfig::default()),
        inputs: SimFieldInputs::new(seed ^ 2),
    };
    let field = Device::new(field, id("field"), seed ^ 3, 0);
    let h = &settings.arm.head;
    let head_cfg = head_config(
        (h.pan_min_deg, h.pan_max_deg),
        (h.tilt_min_deg, h.tilt_max_deg),
    );
    let head = HeadUnit::new(Head::new(head_cfg), SimHeadOutputs::new(&head_cfg));
    let mut head = Device::new(head, id("head"), seed ^ 4, 0);
    head.set_speedup(settings.time_scale);
    Devices { arm, field, head }
}

/// The controllers' serving tasks; each ends with its name and why.
pub type ControllerTasks = tokio::task::JoinSet<(&'static str, std::io::Result<()>)>;

/// Serves the three controllers; the device ends stay open while the returned guards live (each
/// with its symlink).
pub fn start_controllers(
    settings: &Settings,
    shared: &Shared,
) -> Result<(Vec<(PtySlave, PathBuf)>, ControllerTasks), SimError> {
    std::fs::create_dir_all(&settings.run_dir)
        .map_err(io(format!("run directory {}", settings.run_dir.display())))?;
    if settings.firmware == Firmware::Emulated {
        return crate::emulated::start_boards(settings, shared).map(|tasks| (Vec::new(), tasks));
    }
    let mut tasks = tokio::task::JoinSet::new();
    let mut slaves = Vec::new();
    for which in Controller::ALL {
        let (pty, link) = open_port(&settings.run_dir, which)?;
        slaves.push((pty.slave, link));
        let shared = shared.clone();
        let port = pty.master;
        tasks.spawn(async move { (which.name(), serve(which, port, shared).await) });
    }
    Ok((slaves, tasks))
}

/// Advances the physics every tick (real time) until aborted.
pub fn spawn_physics(shared: Shared) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(TICK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            lock(&shared).step();
        }
    })
}

/// Runs the sim until a controller's port fails.
pub async fn run(mut node: Node) -> Result<(), SimError> {
    let settings = Settings::declare(&mut node)?;
    for name in node.params().unused_overrides() {
        tracing::warn!(parameter = name, "no such parameter of the sim; ignored");
    }
    let shared = build(&settings);
    let (slaves, mut controllers) = start_controllers(&settings, &shared)?;

    // The human plays whichever colour the robot does not in the game on the board (a new
    // game may swap them), so the side is read per request.
    let human = Mutex::new(Human {
        side: robot_color(&settings.board).opponent(),
        pause: settings.human_pause,
        off_centre_m: settings.off_centre_m,
    });
    let human_server = node.service_server::<HumanMove>("/sim/human_move")?;
    let markers_out = node.publisher::<MarkerArray>("/sim/markers", Qos::State)?;
    let faults_out = node.publisher::<StringMsg>("/sim/faults", Qos::State)?;
    let set_fault = node.subscription::<StringMsg>("/sim/set_fault", Qos::Events)?;
    let mut set_fault = set_fault.stream();
    // The game the pieces were last set up for: a new (or resumed) game whose position the
    // board does not show is set up by the simulated human, as a person would before playing.
    let game_states = node.subscription::<GameState>("/game/state", Qos::State)?;
    let mut game_states = game_states.stream();
    let mut set_up_game: Option<u32> = None;
    // The colour of the spare kings in the tray: the robot's.
    let mut tray_for = robot_color(&settings.board);

    let physics = spawn_physics(shared.clone());

    let publish_faults = |text: String| {
        let out = &faults_out;
        async move {
            if let Err(e) = out.publish(StringMsg { data: text }).await {
                tracing::warn!("{e}");
            }
        }
    };
    let faults_now = lock(&shared).faults.to_string();
    publish_faults(faults_now).await;
    tracing::info!(
        run_dir = %settings.run_dir.display(),
        time_scale = settings.time_scale,
        "sim running"
    );

    let serve_human = human_server.serve(|req| {
        let (human, shared) = (current(&human), &shared);
        async move { human.perform(shared, &req).await }
    });
    tokio::pin!(serve_human);
    let mut markers_tick = tokio::time::interval(settings.markers_period);
    // One listener for the whole run: a signal that comes while a branch is busy is kept, where
    // one made afresh each pass would miss it (and the launcher would kill the sim).
    let shutdown = ros::shutdown_signal();
    tokio::pin!(shutdown);
    let result = loop {
        tokio::select! {
            // States first: a request that sets the board up for the game (a take-back's
            // `ERROR_SET_UP`) comes right after the state it is for, and must find it applied.
            biased;
            Some(state) = game_states.next() => {
                let state = crate::setup::newest(state, &mut game_states);
                let robot = if state.robot_color == GameState::SIDE_WHITE {
                    Color::White
                } else {
                    Color::Black
                };
                if let Ok(mut h) = human.lock() {
                    h.side = robot.opponent();
                }
                if let Ok(p) = checkers_msgs::convert::position_from_msg(&state.position) {
                    lock(&shared).game = Some((p, robot));
                }
                if set_up_game != Some(state.game_id) {
                    let first = set_up_game.is_none();
                    set_up_game = Some(state.game_id);
                    set_up_board(&shared, &settings, &state, robot, first, &mut tray_for);
                }
            }
            _ = &mut serve_human => {}
            Some(msg) = set_fault.next() => {
                let text = {
                    let mut sim = lock(&shared);
                    for line in msg.data.lines().filter(|l| !l.trim().is_empty()) {
                        match sim.faults.apply(line) {
                            Ok(()) => tracing::info!(fault = line.trim(), "fault set"),
                            Err(e) => tracing::warn!("/sim/set_fault: {e}"),
                        }
                    }
                    sim.faults.to_string()
                };
                publish_faults(text).await;
            }
            _ = markers_tick.tick() => {
                let msg = {
                    let sim = lock(&shared);
                    crate::markers::markers(&sim.world, sim.cup(), &node.now())
                };
                if let Err(e) = markers_out.publish(msg).await {
                    tracing::debug!("{e}");
                }
            }
            _ = &mut shutdown => {
                tracing::info!("sim stopping");
                break Ok(());
            }
            Some(done) = controllers.join_next() => {
                break match done {
                    Ok((name, Ok(()))) => Err(SimError::Controller(name, "its port closed".into())),
                    Ok((name, Err(e))) => Err(SimError::Controller(name, e.to_string())),
                    Err(e) => Err(SimError::Controller("?", e.to_string())),
                };
            }
        }
    };
    physics.abort();
    // A link left behind would point at a device number the system may give another terminal.
    for (slave, link) in &slaves {
        if std::fs::read_link(link).is_ok_and(|t| t == slave.path()) {
            let _ = std::fs::remove_file(link);
        }
    }
    result
}

/// The human as the latest game state has it.
fn current(human: &Mutex<Human>) -> Human {
    match human.lock() {
        Ok(h) => h.clone(),
        Err(poisoned) => poisoned.into_inner().clone(),
    }
}

/// Puts the pieces where the game's position has them, when the board shows something else.
/// A game with the colours swapped gets a tray of the robot's new colour.
fn set_up_board(
    shared: &Shared,
    settings: &Settings,
    state: &GameState,
    robot: Color,
    first: bool,
    tray_for: &mut Color,
) {
    let position = match checkers_msgs::convert::position_from_msg(&state.position) {
        Ok(p) => p,
        Err(e) => {
            tracing::warn!("/game/state with a position the sim cannot set up: {e}");
            return;
        }
    };
    let mut sim = lock(shared);
    // Nobody rearranges the board under the arm: a state that comes late (slow discovery,
    // under DDS Security) while the robot carries a piece finds the board mid-move, and setting
    // it up would drop the piece and undo the move.
    if sim.world.held().is_some() {
        tracing::debug!(
            game = state.game_id,
            "the cup holds a piece: the board is left as it is"
        );
        return;
    }
    let shown = sim.world.presence(settings.sensor_tolerance_m);
    if shown == position.occupancy_mask() && robot == *tray_for {
        return;
    }
    // The sim's first state can come late, after the human has already played on from it on
    // the board the sim started with. A later game's first state finds the last game's board,
    // which is set up again however close it is.
    if first && shown != position.occupancy_mask() && set_up_for(&position, shown) == SetUp::Keep {
        if robot != *tray_for {
            sim.world.recolour_tray(robot);
            *tray_for = robot;
        }
        return;
    }
    tracing::info!(
        game = state.game_id,
        "the simulated human sets up the board for the game"
    );
    sim.world = World::new(settings.board.clone(), &position, robot);
    *tray_for = robot;
}
