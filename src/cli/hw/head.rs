//! `hw head`: each servo swept through its range and back, and test patterns on the eyes.

use std::path::PathBuf;
use std::time::Duration;

use serial_link::head::{EyeBitmap, HeadStatus, MAX_BRIGHTNESS};
use serial_link::transport::LinkHandle;
use serial_link::{ControllerKind, HeadCommand, HeadReport, ServoAngle};

use super::connect::report;
use super::Bench;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The head controller's port (found by asking each port if not given).
    #[arg(long)]
    port: Option<PathBuf>,
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Neck pan, neck tilt and the brows, each to both ends of a gentle range and back.
    Sweep {
        /// How far each way, degrees.
        #[arg(long, default_value_t = 20.0)]
        range: f64,
    },
    /// Every LED, a checkerboard each way, a brightness ramp, then a face.
    Eyes,
}

type HeadLink = LinkHandle<HeadCommand, HeadReport>;

pub async fn run(bench: &Bench, args: &Args) -> anyhow::Result<()> {
    let mut link = bench
        .session::<HeadCommand, HeadReport>(args.port.as_ref(), ControllerKind::Head)
        .await?;
    let result = match args.action {
        Action::Sweep { range } => sweep(&mut link, range).await,
        Action::Eyes => eyes(&mut link).await,
    };
    link.task.abort();
    result
}

async fn status(link: &mut HeadLink) -> anyhow::Result<HeadStatus> {
    link.sender.send(HeadCommand::StatusRequest).await?;
    report(link, Duration::from_secs(2), |r| match r {
        HeadReport::Status(s) => Some(*s),
    })
    .await
}

/// Asks until the servos stand still.
async fn arrive(link: &mut HeadLink) -> anyhow::Result<HeadStatus> {
    for _ in 0..200 {
        let s = status(link).await?;
        if !s.moving {
            return Ok(s);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    anyhow::bail!("the servos did not come to rest within 4 s")
}

async fn sweep(link: &mut HeadLink, range: f64) -> anyhow::Result<()> {
    let a = ServoAngle::from_degrees;
    let zero = a(0.0);
    let steps: [(&str, HeadCommand); 9] = [
        ("neck pan left", neck(a(range), zero)),
        ("neck pan right", neck(a(-range), zero)),
        ("neck pan centre", neck(zero, zero)),
        ("neck tilt up", neck(zero, a(range))),
        ("neck tilt down", neck(zero, a(-range))),
        ("neck tilt centre", neck(zero, zero)),
        ("brows up", brows(a(range))),
        ("brows down", brows(a(-range))),
        ("brows level", brows(zero)),
    ];
    for (what, cmd) in steps {
        link.sender.send(cmd).await?;
        let s = arrive(link).await?;
        println!(
            "{what:<17} pan {:>6.1}°  tilt {:>6.1}°  brows {:>6.1}° {:>6.1}°",
            s.pan.degrees(),
            s.tilt.degrees(),
            s.brow_left.degrees(),
            s.brow_right.degrees()
        );
    }
    Ok(())
}

fn neck(pan: ServoAngle, tilt: ServoAngle) -> HeadCommand {
    HeadCommand::SetNeck {
        pan,
        tilt,
        speed: 6_000,
    }
}

fn brows(angle: ServoAngle) -> HeadCommand {
    HeadCommand::SetBrows {
        left: angle,
        right: angle,
    }
}

const FACE: [u8; 8] = [
    0b0011_1100,
    0b0100_0010,
    0b1010_0101,
    0b1000_0001,
    0b1010_0101,
    0b1001_1001,
    0b0100_0010,
    0b0011_1100,
];

async fn eyes(link: &mut HeadLink) -> anyhow::Result<()> {
    let show = |bits: [u8; 8]| HeadCommand::SetEyes {
        left: EyeBitmap(bits),
        right: EyeBitmap(bits),
    };
    let patterns = [
        ("all on", [0xFF; 8]),
        (
            "checkerboard",
            [0xAA, 0x55, 0xAA, 0x55, 0xAA, 0x55, 0xAA, 0x55],
        ),
        (
            "checkerboard, inverted",
            [0x55, 0xAA, 0x55, 0xAA, 0x55, 0xAA, 0x55, 0xAA],
        ),
    ];
    for (what, bits) in patterns {
        link.sender.send(show(bits)).await?;
        println!("{what}");
        tokio::time::sleep(Duration::from_millis(600)).await;
    }
    link.sender.send(show([0xFF; 8])).await?;
    for level in 0..=MAX_BRIGHTNESS {
        link.sender
            .send(HeadCommand::SetBrightness { level })
            .await?;
        tokio::time::sleep(Duration::from_millis(80)).await;
    }
    println!("brightness 0 to {MAX_BRIGHTNESS}");
    link.sender
        .send(HeadCommand::SetBrightness { level: 8 })
        .await?;
    link.sender.send(show(FACE)).await?;
    // A status round trip: everything before it has been delivered.
    status(link).await?;
    println!("face");
    Ok(())
}
