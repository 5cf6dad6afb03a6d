//! Runs a [`Link`] over any tokio byte stream: a serial device, a pseudo-terminal, a socket or an
//! in-memory pipe in tests. All protocol logic stays in the sans-IO [`Link`]; this only moves
//! bytes, time and messages in and out of it.

use std::time::Instant;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;

use crate::event::{Event, MessageId, SendError, Stats};
use crate::link::Link;
use crate::wire::Message;

/// How many events may wait for the owner before the link task waits too.
const EVENT_BUFFER: usize = 256;
/// Bytes read from the stream at a time.
const READ_CHUNK: usize = 256;

/// Why a message did not reach the link, or the link task stopped.
#[derive(Debug, thiserror::Error)]
pub enum TransportError {
    /// The link refused the message.
    #[error(transparent)]
    Send(#[from] SendError),
    /// The link task has ended (stream closed or failed, or the handle dropped).
    #[error("link task has stopped")]
    Closed,
    /// Reading or writing the stream failed.
    #[error("serial i/o: {0}")]
    Io(#[from] std::io::Error),
}

#[derive(Debug)]
enum Command<Tx> {
    Send(Tx, oneshot::Sender<Result<MessageId, SendError>>),
    SendUnreliable(Tx, oneshot::Sender<Result<(), SendError>>),
}

/// Sends messages through a running link task; cheap to clone.
#[derive(Debug)]
pub struct LinkSender<Tx> {
    commands: mpsc::Sender<Command<Tx>>,
}

impl<Tx> Clone for LinkSender<Tx> {
    fn clone(&self) -> Self {
        Self {
            commands: self.commands.clone(),
        }
    }
}

impl<Tx: Message> LinkSender<Tx> {
    /// Queues `msg` for reliable delivery (see [`Link::send`]).
    pub async fn send(&self, msg: Tx) -> Result<MessageId, TransportError> {
        let (tx, rx) = oneshot::channel();
        self.commands
            .send(Command::Send(msg, tx))
            .await
            .map_err(|_| TransportError::Closed)?;
        Ok(rx.await.map_err(|_| TransportError::Closed)??)
    }

    /// Sends `msg` once (see [`Link::send_unreliable`]).
    pub async fn send_unreliable(&self, msg: Tx) -> Result<(), TransportError> {
        let (tx, rx) = oneshot::channel();
        self.commands
            .send(Command::SendUnreliable(msg, tx))
            .await
            .map_err(|_| TransportError::Closed)?;
        Ok(rx.await.map_err(|_| TransportError::Closed)??)
    }
}

/// A link running in its own task.
#[derive(Debug)]
pub struct LinkHandle<Tx, Rx> {
    /// Sends messages.
    pub sender: LinkSender<Tx>,
    /// What the link reports, in order.
    pub events: mpsc::Receiver<Event<Rx>>,
    /// The task; it ends with the stream's end or error, or when `sender` and every clone of it
    /// are dropped.
    pub task: JoinHandle<Result<(), TransportError>>,
    /// The link's counters (frames, errors, the last keepalive's round trip), as they change.
    pub stats: watch::Receiver<Stats>,
}

/// Spawns a task that runs `link` over `io`.
pub fn spawn<IO, Tx, Rx>(io: IO, link: Link<Tx, Rx, Instant>) -> LinkHandle<Tx, Rx>
where
    IO: AsyncRead + AsyncWrite + Send + Unpin + 'static,
    Tx: Message + Send + 'static,
    Rx: Message + Send + 'static,
{
    let (cmd_tx, cmd_rx) = mpsc::channel(16);
    let (ev_tx, ev_rx) = mpsc::channel(EVENT_BUFFER);
    let (stats_tx, stats) = watch::channel(Stats::default());
    let task = tokio::spawn(run(io, link, cmd_rx, ev_tx, stats_tx));
    LinkHandle {
        sender: LinkSender { commands: cmd_tx },
        events: ev_rx,
        task,
        stats,
    }
}

fn now() -> Instant {
    // tokio's clock, so tests with a paused clock drive the link's timers too.
    tokio::time::Instant::now().into_std()
}

async fn run<IO, Tx, Rx>(
    io: IO,
    mut link: Link<Tx, Rx, Instant>,
    mut commands: mpsc::Receiver<Command<Tx>>,
    events: mpsc::Sender<Event<Rx>>,
    stats: watch::Sender<Stats>,
) -> Result<(), TransportError>
where
    IO: AsyncRead + AsyncWrite + Unpin,
    Tx: Message,
    Rx: Message,
{
    let (mut rd, mut wr) = tokio::io::split(io);
    let mut buf = [0u8; READ_CHUNK];
    link.handle_timeout(now());
    loop {
        stats.send_if_modified(|s| {
            let now = *link.stats();
            let changed = *s != now;
            *s = now;
            changed
        });
        let out = link.take_transmit();
        if !out.is_empty() {
            wr.write_all(&out).await?;
            wr.flush().await?;
        }
        while let Some(ev) = link.poll_event() {
            if events.send(ev).await.is_err() {
                tracing::debug!("event receiver dropped; link task ends");
                return Ok(());
            }
        }
        let deadline = link.poll_timeout().map(tokio::time::Instant::from_std);
        tokio::select! {
            r = rd.read(&mut buf) => {
                let n = r?;
                if n == 0 {
                    tracing::info!("serial stream closed");
                    return Ok(());
                }
                link.receive(&buf[..n], now());
            }
            cmd = commands.recv() => match cmd {
                None => return Ok(()),
                Some(Command::Send(msg, reply)) => {
                    let _ = reply.send(link.send(msg, now()));
                }
                Some(Command::SendUnreliable(msg, reply)) => {
                    let _ = reply.send(link.send_unreliable(msg, now()));
                }
            },
            _ = sleep_until_opt(deadline) => link.handle_timeout(now()),
        }
    }
}

async fn sleep_until_opt(deadline: Option<tokio::time::Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}
