//! `checkers-robot hw`: bring-up tools for a person at the real robot. They find the
//! controllers on the serial ports, show the field's occupancy and buttons, home and jog the
//! arm, switch the pump, sweep the head's servos and light its eyes, over the same protocol
//! and code the driver nodes use. `--sim` runs them against the simulated controllers (the
//! firmware core over simulated electronics), started in this process.

mod arm;
mod connect;
mod field;
mod head;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use serial_link::port::{PtySlave, DEFAULT_BAUD};
use serial_link::ControllerKind;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Use the simulated controllers (started here) instead of hardware; `--port NAME` then
    /// names one of them (`field`, `arm`, `head`).
    #[arg(long)]
    sim: bool,
    /// With `--sim`: `native` (the firmware core compiled for this computer) or `emulated`
    /// (the Pico binaries in the RP2040 emulator, firmware/pico/build.sh first).
    #[arg(long, default_value = "native", requires = "sim", value_parser = ["native", "emulated"])]
    firmware: String,
    /// With `--sim`: a fault of the simulated hardware, `NAME:=VALUE` as `/sim/set_fault`
    /// takes it (docs/sim.md), e.g. `limit_stuck_closed:=2`; repeatable.
    #[arg(long = "fault", requires = "sim")]
    faults: Vec<String>,
    /// Line speed of real serial ports (USB CDC ports ignore it).
    #[arg(long, default_value_t = DEFAULT_BAUD)]
    baud: u32,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Finds the controllers: tries each serial port (or the paths given) and prints its kind
    /// and firmware id.
    Ports {
        /// Ports to try instead of /dev/ttyACM*, /dev/ttyUSB* and /dev/serial/by-id/*.
        paths: Vec<PathBuf>,
    },
    /// The field's live 8x8 occupancy and buttons.
    Field(field::Args),
    /// The arm: status, homing, jogging a joint, the pump.
    Arm(arm::Args),
    /// The head: sweeping the servos, a test pattern on the eyes.
    Head(head::Args),
}

/// Where the controllers are: real ports, or the simulated ones of this process.
pub(crate) struct Bench {
    baud: u32,
    sim_dir: Option<tempfile::TempDir>,
    _sim: Option<(sim::node::ControllerTasks, Vec<(PtySlave, PathBuf)>)>,
}

impl Bench {
    /// The port of `kind`: the one given, else the one found.
    pub(crate) async fn port_of(
        &self,
        given: Option<&PathBuf>,
        kind: ControllerKind,
    ) -> anyhow::Result<PathBuf> {
        if let (Some(dir), Some(name)) = (&self.sim_dir, given) {
            return Ok(dir.path().join(name));
        }
        if let Some(p) = given {
            return Ok(p.clone());
        }
        let found = connect::scan(&self.candidates()?, self.baud).await;
        found
            .into_iter()
            .find_map(|(path, peer)| match peer {
                Ok(peer) if peer.kind == kind => Some(path),
                _ => None,
            })
            .with_context(|| {
                format!(
                    "no {kind} controller answered on any serial port; `checkers-robot hw ports` \
                     lists what did, `--port PATH` names one"
                )
            })
    }

    /// A session with the controller of `kind` on `given` (else the one found), announced on
    /// stderr with its firmware id.
    pub(crate) async fn session<Tx, Rx>(
        &self,
        given: Option<&PathBuf>,
        kind: ControllerKind,
    ) -> anyhow::Result<serial_link::transport::LinkHandle<Tx, Rx>>
    where
        Tx: serial_link::Message + Send + 'static,
        Rx: serial_link::Message + Send + 'static,
    {
        let path = self.port_of(given, kind).await?;
        let (link, peer) = connect::open(&path, self.baud, kind).await?;
        eprintln!(
            "{}: {kind} controller \"{}\"",
            path.display(),
            peer.firmware
        );
        Ok(link)
    }

    fn candidates(&self) -> anyhow::Result<Vec<PathBuf>> {
        if let Some(dir) = &self.sim_dir {
            return Ok(["field", "arm", "head"]
                .iter()
                .map(|n| dir.path().join(n))
                .collect());
        }
        Ok(connect::serial_ports())
    }
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    rt.block_on(async {
        let bench = if args.sim {
            start_sim(args.baud, &args.firmware, &args.faults).await?
        } else {
            Bench {
                baud: args.baud,
                sim_dir: None,
                _sim: None,
            }
        };
        match &args.command {
            Command::Ports { paths } => {
                let paths = if paths.is_empty() {
                    bench.candidates()?
                } else {
                    paths.clone()
                };
                connect::print_ports(&paths, bench.baud).await
            }
            Command::Field(a) => field::run(&bench, a).await,
            Command::Arm(a) => arm::run(&bench, a).await,
            Command::Head(a) => head::run(&bench, a).await,
        }
    })?;
    Ok(ExitCode::SUCCESS)
}

/// The simulated controllers at real speed, on pseudo-terminals in a temporary directory.
async fn start_sim(baud: u32, firmware: &str, faults: &[String]) -> anyhow::Result<Bench> {
    let dir = tempfile::tempdir().context("a directory for the simulated controllers' ports")?;
    let mut params = ros::Params::with_overrides(vec![
        (
            "run_dir".to_string(),
            ros::ParamValue::String(dir.path().display().to_string()),
        ),
        (
            "firmware".to_string(),
            ros::ParamValue::String(firmware.to_string()),
        ),
    ]);
    let mut settings = sim::settings::Settings::from_params(&mut params)?;
    for fault in faults {
        settings
            .faults
            .apply(fault)
            .map_err(|e| crate::cli::bad_input(format!("--fault {fault}: {e}")))?;
    }
    let shared = sim::node::build(&settings);
    let (slaves, mut tasks) = sim::node::start_controllers(&settings, &shared)?;
    // The physics runs until the runtime ends with the command.
    drop(sim::node::spawn_physics(shared));
    // Emulated boards show their ports once the emulated USB host has enumerated them.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !["field", "arm", "head"]
        .iter()
        .all(|n| dir.path().join(n).exists())
    {
        // An emulated board that could not start (no firmware built, no Node.js) says why.
        if let Some(Ok((name, Err(e)))) = tasks.try_join_next() {
            anyhow::bail!("the {name} controller stopped: {e}");
        }
        anyhow::ensure!(
            std::time::Instant::now() < deadline,
            "the simulated controllers' ports did not appear within 60 s"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    Ok(Bench {
        baud,
        sim_dir: Some(dir),
        _sim: Some((tasks, slaves)),
    })
}
