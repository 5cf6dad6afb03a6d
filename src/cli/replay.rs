//! `checkers-robot replay FILE.mcap`: a recorded game played back into the web window
//! (nodes/web), without a graph. Only parses and prints; the replay is the web crate's.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The recording (STATE_DIR/games/*.mcap, beside the game's PDN).
    file: PathBuf,
    /// How much faster than it was played (2: twice as fast).
    #[arg(long, default_value_t = 1.0)]
    speed: f64,
    /// Where the page listens.
    #[arg(long, default_value = "127.0.0.1")]
    address: String,
    /// The page's port (the next free one of ten; 0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    if !(args.speed > 0.0 && args.speed.is_finite()) {
        return Err(super::bad_input(format!(
            "--speed {}: more than 0",
            args.speed
        )));
    }
    let cwd = std::env::current_dir().context("reading the working directory")?;
    let share = checkers_robot::launch::find_share(&cwd);
    let arm = web::load_arm_view(
        &share.join("config/arm.yaml").display().to_string(),
        &share.join("config/board.yaml").display().to_string(),
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async {
        let replay = web::open_replay(web::ReplayOptions {
            file: &args.file,
            address: &args.address,
            port: args.port,
            speed: args.speed,
            arm,
        })
        .await
        .map_err(super::bad_input)?;
        say(format!(
            "replaying {} ({} messages{}) at {}x: open {}",
            args.file.display(),
            replay.samples,
            if replay.skipped > 0 {
                format!(", {} of unknown topics skipped", replay.skipped)
            } else {
                String::new()
            },
            args.speed,
            replay.url
        ));
        if let Some(why) = &replay.truncated {
            say(format!(
                "the recording was cut short (a crash?): it ends early ({why})"
            ));
        }
        say("Ctrl-C stops".into());
        let served = tokio::select! {
            r = replay.run(|| say("the replay reached the end of the recording".into())) => r,
            _ = tokio::signal::ctrl_c() => Ok(()),
        };
        served.context("serving the page")
    })?;
    Ok(ExitCode::SUCCESS)
}

/// A line on stdout. Not println!: whoever reads our output may be gone (`| head`, a test that
/// took the URL), and the page must go on being served.
fn say(line: String) {
    let _ = writeln!(std::io::stdout(), "{line}");
}
