#!/usr/bin/env bash
# Builds both Pico binaries (control, field) for thumbv6m-none-eabi, clippy first with warnings
# as errors, into firmware/pico/target/thumbv6m-none-eabi/release/.
#
# The toolchain: a rustup one with the target installed (`rustup target add thumbv6m-none-eabi`)
# when there is one; otherwise Debian's rustc-web (packages rustc-web cargo-web rust-web-src
# rust-web-clippy rust-web-llvm lld-22), which builds `core` for the target from its sources
# (build-std).
set -euo pipefail
cd "$(dirname "$0")"
target=thumbv6m-none-eabi
if rustup target list --installed 2>/dev/null | grep -qx "$target"; then
  cargo=(cargo)
  std=()
elif [ -x /usr/bin/rustc ] && [ -d /usr/lib/rustlib/src/rust/library/core ]; then
  # Debian's cargo, rustc and clippy by their full paths: the rustup toolchain stays as it is.
  export RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 PATH="/usr/bin:$PATH"
  unset RUSTC_WRAPPER RUSTUP_TOOLCHAIN
  cargo=(/usr/bin/cargo)
  std=(-Zbuild-std=core -Zbuild-std-features=compiler-builtins-mem)
else
  echo "error: no toolchain for $target: rustup target add $target, or apt-get install" \
    "rustc-web cargo-web rust-web-src rust-web-clippy rust-web-llvm lld-22" >&2
  exit 2
fi
export CARGO_TARGET_DIR="${PICO_TARGET_DIR:-$(pwd)/target}"
"${cargo[@]}" clippy --release --bins --locked "${std[@]}" -- -D warnings
"${cargo[@]}" build --release --bins --locked "${std[@]}"
for bin in control field; do
  echo "built $CARGO_TARGET_DIR/$target/release/$bin"
done
