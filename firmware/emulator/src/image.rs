//! What a firmware ELF occupies: flash, static RAM, and where its stack lies.

use std::path::{Path, PathBuf};

use object::read::elf::{ElfFile32, ProgramHeader};
use object::{Endianness, Object, ObjectSymbol};

use crate::EmulatorError;

const FLASH: std::ops::Range<u64> = 0x1000_0000..0x1100_0000;
const RAM_BASE: u64 = 0x2000_0000;

/// A firmware image, read from its ELF.
#[derive(Debug, Clone)]
pub struct Image {
    pub path: PathBuf,
    /// Bytes written to flash: code, constants, the initial values of `.data`, boot2.
    pub flash_bytes: u64,
    /// RAM taken before the stack: `.data`, `.bss`, `.uninit`.
    pub static_ram_bytes: u64,
    /// The stack grows down from `stack_top` to at most `stack_floor` (cortex-m-rt's
    /// `_stack_start` and `_stack_end`).
    pub stack_top: u64,
    pub stack_floor: u64,
}

impl Image {
    pub fn read(path: &Path) -> Result<Image, EmulatorError> {
        let bad = |why: String| EmulatorError::BadImage {
            path: path.to_owned(),
            why,
        };
        let bytes = std::fs::read(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                EmulatorError::NoFirmware(path.to_owned())
            } else {
                bad(e.to_string())
            }
        })?;
        let elf = ElfFile32::<Endianness>::parse(&*bytes).map_err(|e| bad(e.to_string()))?;
        if elf.architecture() != object::Architecture::Arm {
            return Err(bad(format!("built for {:?}, not ARM", elf.architecture())));
        }
        let endian = elf.endian();
        let flash_bytes = elf
            .elf_program_headers()
            .iter()
            .filter(|h| {
                h.p_type(endian) == object::elf::PT_LOAD
                    && FLASH.contains(&u64::from(h.p_paddr(endian)))
            })
            .map(|h| u64::from(h.p_filesz(endian)))
            .sum();
        let symbol = |name: &str| {
            elf.symbols()
                .find(|s| s.name() == Ok(name))
                .map(|s| s.address())
                .ok_or_else(|| bad(format!("no symbol {name} (not a cortex-m-rt image?)")))
        };
        let stack_top = symbol("_stack_start")?;
        let stack_floor = symbol("_stack_end")?;
        if !(RAM_BASE..=stack_top).contains(&stack_floor) {
            return Err(bad(format!(
                "stack bounds {stack_floor:#x}..{stack_top:#x} outside RAM"
            )));
        }
        Ok(Image {
            path: path.to_owned(),
            flash_bytes,
            static_ram_bytes: stack_floor - RAM_BASE,
            stack_top,
            stack_floor,
        })
    }
}
