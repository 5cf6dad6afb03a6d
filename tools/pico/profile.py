#!/usr/bin/env python3
"""Where the Pico firmware's cycles go: the program-counter samples of the emulator
(PICO_PROFILE=PREFIX, firmware/emulator/js/board.mjs) by function, innermost and outermost of
our own frames, with arm-none-eabi-addr2line (gcc-arm-none-eabi).

    PICO_PROFILE=/tmp/prof cargo run --release -p sim --example pico_figures
    tools/pico/profile.py /tmp/prof
"""
import collections
import subprocess
import sys
from pathlib import Path

OURS = ("firmware_core", "serial_link::", "usb", "Channel", "heapless")
ROM_END = 0x4000
FLASH = 0x10000000


def frames(elf, addrs):
    """The inlined frames of each address, innermost first."""
    args = []
    for a in addrs:
        args += [f"0x{a:x}", "0x0"]  # 0x0 resolves to ??, a separator
    out = subprocess.run(["arm-none-eabi-addr2line", "-f", "-i", "-C", "-e", str(elf), *args],
                         capture_output=True, text=True, check=True).stdout.split("\n")
    blocks, cur = [], []
    for name, loc in zip(out[0::2], out[1::2]):
        if name == "??" and loc.startswith("??:0") and cur:
            blocks.append(cur)
            cur = []
        else:
            cur.append(name)
    return blocks


def main():
    prefix = sys.argv[1] if len(sys.argv) > 1 else "/tmp/prof"
    elf_dir = Path(__file__).resolve().parents[2] / "firmware/pico/target/thumbv6m-none-eabi/release"
    for board in ("control", "field"):
        path = Path(f"{prefix}.{board}")
        if not path.exists():
            continue
        rows = [(int(a, 16), int(n)) for a, n in (line.split() for line in path.read_text().splitlines())]
        total = sum(n for _, n in rows)
        rom = sum(n for a, n in rows if a < ROM_END)
        print(f"{board}: {total} samples, boot ROM (memcpy, memset, division) {100 * rom / total:.1f}%")
        flash = [(a, n) for a, n in rows if a >= FLASH]
        inner, outer = collections.Counter(), collections.Counter()
        for (_, n), fr in zip(flash, frames(elf_dir / board, [a for a, _ in flash])):
            inner[fr[0][:100]] += n
            outer[next((f for f in reversed(fr) if any(o in f for o in OURS)), "?")[:100]] += n
        for title, counts in (("innermost", inner), ("outermost of ours", outer)):
            print(f"  {title}:")
            for name, n in counts.most_common(10):
                print(f"    {100 * n / total:5.1f}%  {name}")


if __name__ == "__main__":
    main()
