//! The field controller: 32 Hall sensors, one under each dark square, and two buttons.
//! Host-to-controller codes 0x10..=0x17, controller-to-host 0x18..=0x1F.

use crate::wire::{DecodeError, Message, Reader, Writer};

/// Type code of [`FieldCommand::SnapshotRequest`].
pub const SNAPSHOT_REQUEST: u8 = 0x10;
/// Type code of [`FieldReport::Snapshot`].
pub const SNAPSHOT: u8 = 0x18;
/// Type code of [`FieldReport::ButtonPressed`].
pub const BUTTON_PRESSED: u8 = 0x19;

/// A field button.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Button {
    /// The human confirms a move.
    Confirm,
    /// The human asks for a new game.
    NewGame,
}

impl Button {
    /// The wire code, also the bit of the button in [`Snapshot::buttons_held`].
    pub fn code(self) -> u8 {
        match self {
            Self::Confirm => 0,
            Self::NewGame => 1,
        }
    }

    /// The button with this wire code.
    pub fn from_code(code: u8) -> Option<Self> {
        match code {
            0 => Some(Self::Confirm),
            1 => Some(Self::NewGame),
            _ => None,
        }
    }
}

/// Bits of [`Snapshot::buttons_held`] that mean something; the rest are zero.
pub const BUTTONS_MASK: u8 = 0b11;

/// One reading of the whole field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Snapshot {
    /// Counts the controller's sensor scans (wrapping), so the host can tell a fresh reading
    /// from a repeated one.
    pub scan: u16,
    /// Bit i set: a piece stands over sensor i. Sensor numbering is the wiring's; the host maps
    /// it to squares through configuration.
    pub presence: u32,
    /// Bit 0: confirm held down now; bit 1: new game held down now.
    pub buttons_held: u8,
    /// Presses of confirm since the controller started (wrapping).
    pub confirm_presses: u16,
    /// Presses of new game since the controller started (wrapping).
    pub new_game_presses: u16,
}

impl Snapshot {
    /// Whether `button` is held down in this reading.
    pub fn held(&self, button: Button) -> bool {
        self.buttons_held & (1 << button.code()) != 0
    }
}

/// Host to field controller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldCommand {
    /// 0x10, no payload: answer with a `Snapshot` of a scan made after this request arrived.
    SnapshotRequest,
}

/// Field controller to host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldReport {
    /// 0x18: a reading of the sensors and buttons.
    Snapshot(Snapshot),
    /// 0x19: a button went down (debounced).
    ButtonPressed {
        /// Which.
        button: Button,
        /// That button's press counter after this press, as in `Snapshot`.
        presses: u16,
    },
}

impl Message for FieldCommand {
    fn msg_type(&self) -> u8 {
        match self {
            Self::SnapshotRequest => SNAPSHOT_REQUEST,
        }
    }

    fn write_payload(&self, _w: &mut Writer<'_>) {
        match self {
            Self::SnapshotRequest => {}
        }
    }

    fn read_payload(msg_type: u8, _r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        match msg_type {
            SNAPSHOT_REQUEST => Ok(Self::SnapshotRequest),
            t => Err(DecodeError::UnknownType(t)),
        }
    }
}

impl Message for FieldReport {
    fn msg_type(&self) -> u8 {
        match self {
            Self::Snapshot(_) => SNAPSHOT,
            Self::ButtonPressed { .. } => BUTTON_PRESSED,
        }
    }

    fn write_payload(&self, w: &mut Writer<'_>) {
        match self {
            Self::Snapshot(s) => {
                w.u16(s.scan)
                    .u32(s.presence)
                    .u8(s.buttons_held)
                    .u16(s.confirm_presses)
                    .u16(s.new_game_presses);
            }
            Self::ButtonPressed { button, presses } => {
                w.u8(button.code()).u16(*presses);
            }
        }
    }

    fn read_payload(msg_type: u8, r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        match msg_type {
            SNAPSHOT => {
                let scan = r.u16()?;
                let presence = r.u32()?;
                let buttons_held = r.u8()?;
                if buttons_held & !BUTTONS_MASK != 0 {
                    return Err(r.invalid("buttons_held", buttons_held.into()));
                }
                Ok(Self::Snapshot(Snapshot {
                    scan,
                    presence,
                    buttons_held,
                    confirm_presses: r.u16()?,
                    new_game_presses: r.u16()?,
                }))
            }
            BUTTON_PRESSED => {
                let code = r.u8()?;
                let button =
                    Button::from_code(code).ok_or_else(|| r.invalid("button", code.into()))?;
                Ok(Self::ButtonPressed {
                    button,
                    presses: r.u16()?,
                })
            }
            t => Err(DecodeError::UnknownType(t)),
        }
    }
}
