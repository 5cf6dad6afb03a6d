//! Whether the Pico binaries are built (firmware/pico/build.sh), for the tests that run them
//! in the emulator; CI sets `CHECKERS_REQUIRE_PICO`, which turns a missing build into a failure.

use std::path::{Path, PathBuf};

pub fn pico_built() -> bool {
    let dir = std::env::var_os("PICO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("firmware/pico/target"))
        .join("thumbv6m-none-eabi/release");
    let built = ["control", "field"].iter().all(|b| dir.join(b).is_file());
    if !built {
        assert!(
            std::env::var_os("CHECKERS_REQUIRE_PICO").is_none(),
            "CHECKERS_REQUIRE_PICO is set but no Pico firmware is in {}",
            dir.display()
        );
        eprintln!("skipped: no Pico firmware in {}", dir.display());
    }
    built
}
