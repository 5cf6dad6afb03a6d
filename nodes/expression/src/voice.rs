//! Speaking through espeak-ng, when it is installed. Without it the robot's phrases stay text
//! (published on `/voice/say` all the same).

use std::path::Path;
use std::process::{Command, Stdio};

#[derive(Debug, thiserror::Error)]
pub enum VoiceError {
    #[error("espeak-ng is not installed")]
    Missing,
    #[error("running espeak-ng: {0}")]
    Run(#[from] std::io::Error),
    #[error("espeak-ng failed: {0}")]
    Failed(String),
}

#[derive(Debug, Clone)]
pub struct Voice {
    /// The espeak-ng voice, e.g. "en", "ru", "en-us+m3".
    pub voice: String,
    /// Words per minute.
    pub speed: u32,
}

impl Voice {
    pub fn new(voice: &str, speed: u32) -> Voice {
        Voice {
            voice: voice.to_string(),
            speed: speed.clamp(80, 450),
        }
    }

    /// Whether espeak-ng can be run here.
    pub fn available() -> bool {
        Command::new("espeak-ng")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    fn command(&self, text: &str, wav: Option<&Path>) -> Command {
        let mut c = Command::new("espeak-ng");
        c.args(["-v", &self.voice, "-s", &self.speed.to_string()]);
        if let Some(path) = wav {
            c.arg("-w").arg(path);
        }
        // After "--" a phrase that starts with '-' is still text.
        c.args(["--", text])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        c
    }

    /// Starts speaking `text` on the sound card and returns at once; the child is reaped by
    /// the caller (or dropped: espeak-ng finishes on its own).
    pub fn speak(&self, text: &str) -> Result<std::process::Child, VoiceError> {
        self.command(text, None)
            .spawn()
            .map_err(not_found_is_missing)
    }

    /// Renders `text` to a WAV file instead of the sound card.
    pub fn render_wav(&self, text: &str, path: &Path) -> Result<(), VoiceError> {
        let out = self
            .command(text, Some(path))
            .output()
            .map_err(not_found_is_missing)?;
        if out.status.success() {
            Ok(())
        } else {
            Err(VoiceError::Failed(
                String::from_utf8_lossy(&out.stderr).trim().to_string(),
            ))
        }
    }
}

fn not_found_is_missing(e: std::io::Error) -> VoiceError {
    if e.kind() == std::io::ErrorKind::NotFound {
        VoiceError::Missing
    } else {
        VoiceError::Run(e)
    }
}
