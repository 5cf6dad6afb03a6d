//! Where the emulator's parts are: Node.js, rp2040js (installed by `npm ci` on first use), the
//! boot ROM, and the firmware ELFs `firmware/pico/build.sh` made.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{BoardKind, EmulatorError};

/// The emulator's files and the firmware to run.
#[derive(Debug, Clone)]
pub struct Install {
    /// `js/`: board.mjs, package.json and its lock file, node_modules.
    pub js_dir: PathBuf,
    /// The RP2040's B1 boot ROM (16 KiB).
    pub bootrom: PathBuf,
    /// Where `control` and `field` (ELF) are.
    pub elf_dir: PathBuf,
    /// The Node.js executable.
    pub node: String,
}

impl Install {
    /// This crate's own files; the ELFs where `firmware/pico/build.sh` puts them
    /// (`$PICO_TARGET_DIR` or `firmware/pico/target`, then `thumbv6m-none-eabi/release`);
    /// `$NODE` or `node`.
    pub fn locate() -> Result<Install, EmulatorError> {
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        let target = std::env::var_os("PICO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| here.join("../pico/target"));
        let install = Install {
            js_dir: here.join("js"),
            bootrom: here.join("bootrom/bootrom-b1.bin"),
            elf_dir: target.join("thumbv6m-none-eabi/release"),
            node: std::env::var("NODE").unwrap_or_else(|_| "node".into()),
        };
        Ok(install)
    }

    /// The firmware ELF of `kind`.
    pub fn elf(&self, kind: BoardKind) -> PathBuf {
        self.elf_dir.join(kind.name())
    }

    /// Whether both boards' firmware has been built.
    pub fn firmware_built(&self) -> bool {
        BoardKind::ALL.iter().all(|&k| self.elf(k).is_file())
    }

    /// The emulator script.
    pub fn script(&self) -> PathBuf {
        self.js_dir.join("board.mjs")
    }

    /// `npm ci` where rp2040js is missing: the exact version of package-lock.json. One
    /// install at a time in this process.
    pub fn ensure_rp2040js(&self) -> Result<(), EmulatorError> {
        static INSTALLING: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let _one = INSTALLING.lock().unwrap_or_else(|p| p.into_inner());
        if self
            .js_dir
            .join("node_modules/rp2040js/package.json")
            .is_file()
        {
            return Ok(());
        }
        let npm = |why: String| EmulatorError::Npm {
            dir: self.js_dir.clone(),
            why,
        };
        tracing::info!(dir = %self.js_dir.display(), "installing rp2040js (npm ci)");
        let out = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--silent"])
            .current_dir(&self.js_dir)
            .output()
            .map_err(|e| npm(format!("npm: {e}")))?;
        if !out.status.success() {
            return Err(npm(String::from_utf8_lossy(&out.stderr).trim().to_owned()));
        }
        Ok(())
    }
}
