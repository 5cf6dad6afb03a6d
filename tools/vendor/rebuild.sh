#!/usr/bin/env bash
# Rebuilds vendor/NAME from the crate published on crates.io (vendor/sources.txt: version,
# checksum, which of its files are kept) and the patches vendor/patches/NAME/*.patch, applied in
# the order of their names with no fuzz.
#
#   tools/vendor/rebuild.sh            replace vendor/NAME with the rebuilt crates
#   tools/vendor/rebuild.sh --check    rebuild elsewhere; fail if vendor/ is not exactly that
#   tools/vendor/rebuild.sh --into DIR write the rebuilt crates into DIR (to write a new patch:
#                                      copy DIR/NAME, edit it, `diff -ruN` the two)
#
# Set VENDOR_CRATES to a folder holding NAME-VERSION.crate files to work without the network.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
mode=replace
into=""
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  --into) mode=into; into="${2:?--into needs a folder}" ;;
  *) echo "usage: $0 [--check | --into DIR]" >&2; exit 2 ;;
esac

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/out"
differs=0

while read -r name version sum kept dropped; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  crate="$work/$name-$version.crate"
  if [ -n "${VENDOR_CRATES:-}" ] && [ -f "$VENDOR_CRATES/$name-$version.crate" ]; then
    cp "$VENDOR_CRATES/$name-$version.crate" "$crate"
  else
    curl -sSfL --retry 3 -o "$crate" "https://static.crates.io/crates/$name/$name-$version.crate"
  fi
  if ! echo "$sum  $crate" | sha256sum --check --quiet - >/dev/null 2>&1; then
    echo "$name $version: the downloaded crate's checksum is not the one in vendor/sources.txt" >&2
    exit 1
  fi
  tar xzf "$crate" -C "$work"
  src="$work/$name-$version"
  out="$work/out/$name"
  mkdir -p "$out"
  IFS=, read -ra keep <<<"$kept"
  for path in "${keep[@]}"; do
    cp -a "$src/$path" "$out/"
  done
  if [ "$dropped" != "-" ]; then
    IFS=, read -ra drop <<<"$dropped"
    for path in "${drop[@]}"; do
      rm -rf "${out:?}/$path"
    done
  fi
  for p in "$root/vendor/patches/$name"/*.patch; do
    [ -e "$p" ] || continue
    if ! patch -d "$out" -p1 --fuzz=0 --forward --no-backup-if-mismatch --quiet -i "$p" >"$work/patch.log" 2>&1; then
      echo "$name: ${p#"$root/"} does not apply:" >&2
      cat "$work/patch.log" >&2
      exit 1
    fi
  done
  case "$mode" in
    check)
      if ! diff -r "$out" "$root/vendor/$name" >"$work/diff.log" 2>&1; then
        echo "vendor/$name is not $name $version with its patches:" >&2
        head -n 40 "$work/diff.log" >&2
        differs=1
      fi
      ;;
    replace)
      rm -rf "${root:?}/vendor/$name"
      cp -a "$out" "$root/vendor/$name"
      ;;
    into)
      mkdir -p "$into"
      rm -rf "${into:?}/$name"
      cp -a "$out" "$into/$name"
      ;;
  esac
  echo "$name $version: $(find "$root/vendor/patches/$name" -name '*.patch' 2>/dev/null | wc -l) patches"
done <"$root/vendor/sources.txt"

exit "$differs"
