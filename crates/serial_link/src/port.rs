//! Opening the byte stream to a controller (Unix): a serial device or a pseudo-terminal in raw
//! mode at a baud rate ([`open`]), and new pseudo-terminals for the simulator's controllers
//! ([`Pty::open`]). Both give a [`Port`]: non-blocking I/O on tokio's reactor, so a read that
//! waits for the controller never holds up a write (a blocking file read would: tokio's file
//! type runs one operation at a time).

use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use nix::errno::Errno;
use nix::fcntl::{FcntlArg, OFlag};
use nix::sys::stat::Mode;
use nix::sys::termios::{self, BaudRate, ControlFlags, FlushArg, SetArg, SpecialCharacterIndices};
use tokio::io::unix::AsyncFd;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The protocol's line speed (docs/serial-protocol.md, "The line").
pub const DEFAULT_BAUD: u32 = 115_200;

/// Why a port could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum PortError {
    /// The system refused (no such device, permissions, not a terminal, ...).
    #[error("{path}: {source}")]
    Io {
        /// The port.
        path: String,
        /// What the system said.
        source: io::Error,
    },
    /// The baud rate is not one the terminal interface names.
    #[error("unsupported baud rate {0}")]
    Baud(u32),
}

impl From<PortError> for io::Error {
    fn from(e: PortError) -> io::Error {
        let kind = match &e {
            PortError::Io { source, .. } => source.kind(),
            PortError::Baud(_) => io::ErrorKind::InvalidInput,
        };
        io::Error::new(kind, e.to_string())
    }
}

/// An open serial device or pseudo-terminal end, as a tokio byte stream.
#[derive(Debug)]
pub struct Port {
    fd: AsyncFd<OwnedFd>,
}

/// Opens the serial device or pseudo-terminal at `path` (a symlink such as the simulator's
/// `<run_dir>/field` is followed) in raw mode at `baud`, discarding bytes that were waiting.
/// Must be called inside a tokio runtime.
pub fn open(path: impl AsRef<Path>, baud: u32) -> Result<Port, PortError> {
    let path = path.as_ref();
    let err = |source: io::Error| PortError::Io {
        path: path.display().to_string(),
        source,
    };
    let speed = baud_rate(baud).ok_or(PortError::Baud(baud))?;
    // No controlling terminal: a serial port must never become the node's terminal.
    let fd = nix::fcntl::open(
        path,
        OFlag::O_RDWR | OFlag::O_NOCTTY | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC,
        Mode::empty(),
    )
    .map_err(|e| err(e.into()))?;
    if !nix::unistd::isatty(&fd).map_err(|e| err(e.into()))? {
        return Err(err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a serial device or terminal",
        )));
    }
    make_raw(&fd, speed).map_err(|e| err(e.into()))?;
    // Whatever the line held before we came is from another session.
    termios::tcflush(&fd, FlushArg::TCIOFLUSH).map_err(|e| err(e.into()))?;
    Port::from_fd(fd).map_err(err)
}

/// Raw 8N1 at `speed`: no echo, no line editing, no translation of CR/LF or 0x11/0x13, modem
/// control lines ignored (a pseudo-terminal has none).
fn make_raw(fd: &impl AsFd, speed: BaudRate) -> nix::Result<()> {
    let mut t = termios::tcgetattr(fd)?;
    termios::cfmakeraw(&mut t);
    t.control_flags |= ControlFlags::CLOCAL | ControlFlags::CREAD;
    t.control_flags &= !(ControlFlags::CRTSCTS | ControlFlags::CSTOPB | ControlFlags::PARENB);
    t.control_chars[SpecialCharacterIndices::VMIN as usize] = 1;
    t.control_chars[SpecialCharacterIndices::VTIME as usize] = 0;
    termios::cfsetspeed(&mut t, speed)?;
    termios::tcsetattr(fd, SetArg::TCSANOW, &t)
}

fn baud_rate(baud: u32) -> Option<BaudRate> {
    Some(match baud {
        9600 => BaudRate::B9600,
        19_200 => BaudRate::B19200,
        38_400 => BaudRate::B38400,
        57_600 => BaudRate::B57600,
        115_200 => BaudRate::B115200,
        230_400 => BaudRate::B230400,
        #[cfg(any(target_os = "linux", target_os = "android"))]
        460_800 => BaudRate::B460800,
        #[cfg(any(target_os = "linux", target_os = "android"))]
        921_600 => BaudRate::B921600,
        #[cfg(any(target_os = "linux", target_os = "android"))]
        1_000_000 => BaudRate::B1000000,
        _ => return None,
    })
}

impl Port {
    /// Wraps a descriptor, making it non-blocking.
    fn from_fd(fd: OwnedFd) -> io::Result<Port> {
        let flags = nix::fcntl::fcntl(&fd, FcntlArg::F_GETFL)?;
        let flags = OFlag::from_bits_truncate(flags) | OFlag::O_NONBLOCK;
        nix::fcntl::fcntl(&fd, FcntlArg::F_SETFL(flags))?;
        // tokio deprecated `AsyncFd::new` for `unsafe fn register`, whose contract is that the
        // descriptor stays open and unchanged while registered. An `OwnedFd` moved into the
        // `AsyncFd` fulfils it (nothing else can close or replace it), and the workspace forbids
        // `unsafe`, so the safe constructor stays. tokio::fs::File is no alternative: it runs
        // one operation at a time, so a read waiting for the controller would hold up writes.
        #[allow(deprecated)]
        let fd = AsyncFd::new(fd)?;
        Ok(Port { fd })
    }
}

impl AsyncRead for Port {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        loop {
            let mut guard = ready!(self.fd.poll_read_ready(cx))?;
            let unfilled = buf.initialize_unfilled();
            match guard.try_io(|fd| match nix::unistd::read(fd.get_ref(), unfilled) {
                Ok(n) => Ok(n),
                // A terminal whose other end has gone answers EIO: that is the end of the stream.
                Err(Errno::EIO) => Ok(0),
                Err(e) => Err(io::Error::from(e)),
            }) {
                Ok(Ok(n)) => {
                    buf.advance(n);
                    return Poll::Ready(Ok(()));
                }
                Ok(Err(e)) => return Poll::Ready(Err(e)),
                Err(_would_block) => continue,
            }
        }
    }
}

impl AsyncWrite for Port {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        loop {
            let mut guard = ready!(self.fd.poll_write_ready(cx))?;
            match guard.try_io(|fd| nix::unistd::write(fd.get_ref(), buf).map_err(io::Error::from))
            {
                Ok(r) => return Poll::Ready(r),
                Err(_would_block) => continue,
            }
        }
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        // Written bytes are with the driver already; waiting for them to leave the UART
        // (tcdrain) would block the runtime.
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// A new pseudo-terminal: the simulator serves a controller on [`Pty::master`]; a driver node
/// opens [`PtySlave::path`] with [`open`] as if it were a serial device.
#[derive(Debug)]
pub struct Pty {
    /// The controller's end.
    pub master: Port,
    /// The device end.
    pub slave: PtySlave,
}

/// The device end of a [`Pty`]. Holding it keeps the device open, so the master never sees a
/// hang-up between one driver node closing the port and the next opening it, and the raw
/// settings stay in place.
#[derive(Debug)]
pub struct PtySlave {
    path: PathBuf,
    _fd: OwnedFd,
}

impl PtySlave {
    /// The device path, e.g. `/dev/pts/7`.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Pty {
    /// Opens a new pseudo-terminal pair, both ends raw. Must be called inside a tokio runtime.
    pub fn open() -> io::Result<Pty> {
        let pair = nix::pty::openpty(None, None)?;
        let speed = baud_rate(DEFAULT_BAUD).ok_or(PortError::Baud(DEFAULT_BAUD))?;
        make_raw(&pair.slave, speed)?;
        make_raw(&pair.master, speed)?;
        let path = nix::unistd::ttyname(&pair.slave)?;
        Ok(Pty {
            master: Port::from_fd(pair.master)?,
            slave: PtySlave {
                path,
                _fd: pair.slave,
            },
        })
    }
}

/// Points the symlink `link` at `target`, replacing what was there in one step (a driver node
/// that opens `link` meanwhile finds the old or the new target, never nothing).
pub fn publish_link(target: &Path, link: &Path) -> io::Result<()> {
    let mut tmp = link.as_os_str().to_owned();
    tmp.push(format!(".{}.tmp", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let _ = std::fs::remove_file(&tmp);
    std::os::unix::fs::symlink(target, &tmp)?;
    std::fs::rename(&tmp, link)
}
