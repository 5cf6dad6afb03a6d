#!/usr/bin/env bash
# The slowest test binaries in a `cargo test` log: reads the log on stdin (or from the files
# named), prints the N slowest (default 10) as "SECONDS  BINARY", slowest first. A binary is
# named by its `Running` or `Doc-tests` line; its time is its `test result: ... finished in`.
set -euo pipefail
n="${SLOWEST:-10}"
cat "$@" | awk '
  /^ *Running / { name = $2; next }
  /^ *Doc-tests / { name = "doc-tests " $2; next }
  /^test result: / && /finished in/ {
    t = $0; sub(/.*finished in /, "", t); sub(/s$/, "", t)
    if (name != "") { printf "%8.2f  %s\n", t, name }
    name = ""
  }' | sort -rn | head -n "$n"
