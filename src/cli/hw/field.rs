//! `hw field`: the field's occupancy as an 8x8 board, and its buttons, live.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use draughts::Square;
use serial_link::field::{Button, Snapshot};
use serial_link::{ControllerKind, FieldCommand, FieldReport};

use super::connect::report;
use super::Bench;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The field controller's port (found by asking each port if not given).
    #[arg(long)]
    port: Option<PathBuf>,
    /// Readings to show, then stop (default: until Ctrl-C).
    #[arg(long)]
    count: Option<u32>,
    /// Time between readings.
    #[arg(long, default_value = "250ms", value_parser = search::parse_duration)]
    every: Duration,
}

pub async fn run(bench: &Bench, args: &Args) -> anyhow::Result<()> {
    let mut link = bench
        .session::<FieldCommand, FieldReport>(args.port.as_ref(), ControllerKind::Field)
        .await?;
    let redraw = std::io::stdout().is_terminal() && args.count != Some(1);
    let mut shown = 0;
    while args.count.is_none_or(|n| shown < n) {
        link.sender.send(FieldCommand::SnapshotRequest).await?;
        let s = report(&mut link, Duration::from_secs(1), |r| match r {
            FieldReport::Snapshot(s) => Some(*s),
            FieldReport::ButtonPressed { .. } => None,
        })
        .await?;
        if redraw {
            // Home and clear: the board stays in place as it changes.
            print!("\x1b[H\x1b[2J");
        }
        print!("{}", render(&s));
        shown += 1;
        if args.count.is_none_or(|n| shown < n) {
            tokio::time::sleep(args.every).await;
        }
    }
    link.task.abort();
    Ok(())
}

/// The board as the sensors see it, White at the bottom, assuming sensor n - 1 lies under
/// square n (the field PCB's wiring, docs/firmware.md); then the buttons.
fn render(s: &Snapshot) -> String {
    let mut out = String::new();
    for rank in (0..8u8).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..8u8 {
            let cell = match Square::from_file_rank(file, rank) {
                None => ' ',
                Some(sq) if s.presence & (1 << (sq.number() - 1)) != 0 => 'o',
                Some(_) => '.',
            };
            out.push(' ');
            out.push(cell);
        }
        out.push('\n');
    }
    out.push_str("   a b c d e f g h\n");
    let held = |b| if s.held(b) { "down" } else { "up" };
    out.push_str(&format!(
        "pieces {}  confirm {} ({} presses)  new game {} ({} presses)  scan {}  sensors {:#010x}\n",
        s.presence.count_ones(),
        held(Button::Confirm),
        s.confirm_presses,
        held(Button::NewGame),
        s.new_game_presses,
        s.scan,
        s.presence
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_draws_as_three_rows_each_side() {
        let s = Snapshot {
            scan: 7,
            presence: 0xFFF0_0FFF,
            buttons_held: 1,
            confirm_presses: 2,
            new_game_presses: 0,
        };
        let text = render(&s);
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(rows[0], "8    o   o   o   o");
        assert_eq!(rows[3], "5  .   .   .   .  ");
        assert_eq!(rows[7], "1  o   o   o   o  ");
        assert!(rows[9].starts_with("pieces 24  confirm down (2 presses)  new game up"));
    }
}
