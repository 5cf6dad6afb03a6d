//! One emulated board: a Node process running rp2040js (`js/board.mjs`), driven in lock step
//! over its stdin and stdout, a JSON line each way per slice of emulated time.

use std::collections::BTreeMap;

use base64::Engine as _;
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

use crate::{BoardKind, EmulatorError, Image, Install, Wiring};

/// What the caller does to the board during one slice.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SliceInput {
    /// Emulated microseconds to run.
    pub run_us: u64,
    /// Input pins' levels from now on.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub set: BTreeMap<u8, bool>,
    /// The 74HC165 chain's 32 parallel inputs (bit i: input i), loaded at the next SH/LD.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shift: Option<u32>,
    /// Bytes from the computer to each USB CDC port (0: the first port).
    #[serde(with = "ports", skip_serializing_if = "Vec::is_empty")]
    pub tx: Vec<(usize, Vec<u8>)>,
    /// USB power: `false` unplugs the board (the chip stops), `true` plugs it back (it boots).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub power: Option<bool>,
    /// The core stops executing for this long while time runs on (a hung bus): the watchdog
    /// should reset it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hang_us: Option<u64>,
    /// Read the stack's high-water mark after the slice.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stack: bool,
}

/// What the firmware did during one slice.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SliceOutput {
    /// Emulated time since the first power-up, microseconds.
    pub t_us: u64,
    /// Power-ups so far (1 at the start; each reset or replug adds one).
    pub gen: u64,
    /// Whether the computer has the board's CDC ports configured (enumerated, DTR set).
    pub attached: bool,
    /// Step pulses per stepper: forward, reverse.
    pub steps: Vec<[u32; 2]>,
    /// Output pins' levels at the end of the slice.
    pub out: BTreeMap<u8, bool>,
    /// The latest high-pulse width of each PWM pin, microseconds.
    pub pulses: BTreeMap<u8, u32>,
    /// SPI transfers, one per chip-select frame.
    #[serde(with = "frames")]
    pub spi: Vec<Vec<u8>>,
    /// Bytes from each USB CDC port to the computer.
    #[serde(with = "ports")]
    pub rx: Vec<(usize, Vec<u8>)>,
    /// SH/LD pulses of the shift registers (field scans begun).
    pub latches: u32,
    /// When the main loop fed the watchdog, emulated nanoseconds.
    pub feeds: Vec<u64>,
    /// Why the chip restarted during the slice (`watchdog`).
    pub reasons: Vec<String>,
    /// The deepest the stack has been since power-up, bytes (when asked).
    pub stack_used: Option<u64>,
    /// Step pulses' rising edges (stepper, emulated nanoseconds), when traced.
    pub edges: Vec<(usize, u64)>,
}

/// The emulator's first line: the wiring, the image, the stack to paint.
#[derive(Debug, Serialize)]
struct Config<'a> {
    elf: &'a std::path::Path,
    bootrom: &'a std::path::Path,
    #[serde(flatten)]
    wiring: &'a Wiring,
    stack: Stack,
    trace_steps: bool,
}

#[derive(Debug, Serialize)]
struct Stack {
    floor: u64,
    top: u64,
}

/// A running emulated board.
#[derive(Debug)]
pub struct Board {
    kind: BoardKind,
    image: Image,
    child: Child,
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
    /// Emulated time after the latest slice, microseconds.
    now_us: u64,
}

impl Board {
    /// Powers the board up running its firmware.
    pub async fn start(kind: BoardKind, install: &Install) -> Result<Board, EmulatorError> {
        Board::start_traced(kind, install, false).await
    }

    /// As [`Board::start`]; with `trace_steps`, every step pulse's time is reported.
    pub async fn start_traced(
        kind: BoardKind,
        install: &Install,
        trace_steps: bool,
    ) -> Result<Board, EmulatorError> {
        let image = Image::read(&install.elf(kind))?;
        install.ensure_rp2040js()?;
        let mut child = Command::new(&install.node)
            .arg(install.script())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|source| EmulatorError::Spawn {
                program: install.node.clone(),
                source,
            })?;
        let fail = |why: &str| EmulatorError::Board {
            board: kind.name(),
            why: why.into(),
        };
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(fail("no pipes to the emulator"));
        };
        // The emulator's own complaints go to the log, not the user's terminal.
        let name = kind.name();
        tokio::spawn(async move {
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                tracing::warn!(board = name, "emulator: {line}");
            }
        });
        let mut board = Board {
            kind,
            child,
            stdin,
            stdout: BufReader::new(stdout).lines(),
            image,
            now_us: 0,
        };
        let config = Config {
            elf: &board.image.path,
            bootrom: &install.bootrom,
            wiring: &Wiring::of(kind),
            stack: Stack {
                floor: board.image.stack_floor,
                top: board.image.stack_top,
            },
            trace_steps,
        };
        let line = serde_json::to_string(&config).map_err(|e| fail(&e.to_string()))?;
        board.send(line).await?;
        let ready = board.receive().await?;
        if !ready.contains("\"ready\"") {
            return Err(fail(&format!("unexpected first answer {ready}")));
        }
        Ok(board)
    }

    pub fn kind(&self) -> BoardKind {
        self.kind
    }

    /// The firmware image it runs.
    pub fn image(&self) -> &Image {
        &self.image
    }

    /// Runs one slice.
    pub async fn slice(&mut self, input: &SliceInput) -> Result<SliceOutput, EmulatorError> {
        let line = serde_json::to_string(input).map_err(|e| self.error(e.to_string()))?;
        self.send(line).await?;
        let reply = self.receive().await?;
        let out: SliceOutput = serde_json::from_str(&reply)
            .map_err(|e| self.error(format!("bad reply ({e}): {reply}")))?;
        self.now_us = out.t_us;
        Ok(out)
    }

    /// Emulated time after the latest slice, microseconds.
    pub fn now_us(&self) -> u64 {
        self.now_us
    }

    async fn send(&mut self, mut line: String) -> Result<(), EmulatorError> {
        line.push('\n');
        self.stdin
            .write_all(line.as_bytes())
            .await
            .map_err(|e| self.error(format!("writing to the emulator: {e}")))
    }

    async fn receive(&mut self) -> Result<String, EmulatorError> {
        match self.stdout.next_line().await {
            Ok(Some(line)) => Ok(line),
            Ok(None) => {
                let status = self.child.try_wait().ok().flatten();
                Err(self.error(format!("the emulator ended ({status:?})")))
            }
            Err(e) => Err(self.error(format!("reading from the emulator: {e}"))),
        }
    }

    fn error(&self, why: String) -> EmulatorError {
        EmulatorError::Board {
            board: self.kind.name(),
            why,
        }
    }
}

/// `[[port, base64], ...]` on the wire.
mod ports {
    use super::*;

    pub fn serialize<S: serde::Serializer>(
        v: &[(usize, Vec<u8>)],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let b64 = base64::engine::general_purpose::STANDARD;
        s.collect_seq(v.iter().map(|(p, bytes)| (p, b64.encode(bytes))))
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<(usize, Vec<u8>)>, D::Error> {
        let b64 = base64::engine::general_purpose::STANDARD;
        Vec::<(usize, String)>::deserialize(d)?
            .into_iter()
            .map(|(p, s)| {
                b64.decode(s)
                    .map(|b| (p, b))
                    .map_err(serde::de::Error::custom)
            })
            .collect()
    }
}

/// `[base64, ...]` on the wire.
mod frames {
    use super::*;

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Vec<u8>>, D::Error> {
        let b64 = base64::engine::general_purpose::STANDARD;
        Vec::<String>::deserialize(d)?
            .into_iter()
            .map(|s| b64.decode(s).map_err(serde::de::Error::custom))
            .collect()
    }
}
