#!/usr/bin/env bash
# The indirect-gather case study (bench/apps/gather, SpMV in column-major ELL with x read
# through col) natively and under dl-run, from the repository root of a build that has
# dl-app-gather, dl-bench-marshal, dl-run and the interposer:
#
#   OUT=/some/dir bench/scripts/gather-bench.sh BUILD_DIR [RUNS]
#
# First the gather kernel against the copy (dl-bench-marshal --groups gather, 1 GiB).
# Then, for columns within a band of 16 of the diagonal and at random, and for x written
# never, every 4th and every launch, RUNS times (default 2): the application natively,
# under `dl-run --policy always` and under `dl-run` (the default policy), both with the
# committed rewrite bench/apps/annotated/gather.cl, each DL run with a cache of its own
# (the controller's experience is per program and kernel, not per matrix: a run would
# recall another matrix's verdict), with --summary. Every run writes its JSON and its
# output under $OUT/gather/. bench/scripts/gather_json.py gathers them into one file.
# GATHER_ROWS (default 4194304), GATHER_K (16) and GATHER_ITERS (100; 20 where x changes
# at every launch) set the sizes; GATHER_CASES (default "16:0 16:4 16:1 0:0 0:4 0:1",
# band:every) the cases; GATHER_SKIP_MARSHAL=1 skips the kernel's rows.
#
# Zero-touch: with GATHER_REWRITES=DIR, each run also has the application's own kernel
# (bench/apps/gather/gather.cl) without its //DL: line under `dl-run --auto --policy
# always` and `dl-run --auto` (modes ztalways, ztauto). DIR holds the rewrite cache
# (DIR/rewrite) that a `dl-run --auto` of that kernel made on a machine with dl-annotate
# (the key holds no device: docs/runtime.md, "Zero-touch mode"); each such run starts
# from a copy of it:
#   sed '/^[[:space:]]*\/\/DL:/d' bench/apps/gather/gather.cl >DIR/gather_plain.cl
#   DL_CACHE_DIR=DIR dl-run --auto -- dl-app-gather --kernel DIR/gather_plain.cl --iters 1
set -euo pipefail
: "${OUT:?set OUT to the output directory}"
build="${1:?usage: gather-bench.sh BUILD_DIR [RUNS]}"
runs="${2:-2}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
app="$build/bench/apps/dl-app-gather"
run="$build/src/interpose/dl-run"
kernel="$root/bench/apps/annotated/gather.cl"
rows="${GATHER_ROWS:-4194304}" K="${GATHER_K:-16}" iters="${GATHER_ITERS:-100}"
mkdir -p "$OUT/gather"
[ "${GATHER_SKIP_MARSHAL:-0}" = 1 ] ||
  "$build/bench/marshal/dl-bench-marshal" --groups gather --size-mib 1024 --repeats 5 \
    --json "$OUT/gather/marshal.json" >"$OUT/gather/marshal.txt" 2>&1
rewrites="${GATHER_REWRITES:-}"
if [ -n "$rewrites" ]; then
  [ -d "$rewrites/rewrite" ] || { echo "gather-bench.sh: no $rewrites/rewrite" >&2; exit 2; }
  plain="$OUT/gather/gather_plain.cl"
  sed '/^[[:space:]]*\/\/DL:/d' "$root/bench/apps/gather/gather.cl" >"$plain"
fi
for c in ${GATHER_CASES:-16:0 16:4 16:1 0:0 0:4 0:1}; do
  band="${c%%:*}" upd="${c##*:}"
  n=$iters
  [ "$upd" = 1 ] && n=20
  args=(--rows "$rows" --K "$K" --band "$band" --iters "$n" --update-x "$upd" --kernel "$kernel")
  c="b$band-u$upd"
  for r in $(seq 1 "$runs"); do
    "$app" "${args[@]}" --json "$OUT/gather/native-$c-$r.json" >"$OUT/gather/native-$c-$r.txt" 2>&1
    DL_CACHE_DIR="$OUT/gather/cache-always-$c-$r" "$run" --policy always --summary -- "$app" \
      "${args[@]}" --json "$OUT/gather/always-$c-$r.json" >"$OUT/gather/always-$c-$r.txt" 2>&1
    DL_CACHE_DIR="$OUT/gather/cache-auto-$c-$r" "$run" --summary -- "$app" \
      "${args[@]}" --json "$OUT/gather/auto-$c-$r.json" >"$OUT/gather/auto-$c-$r.txt" 2>&1
    [ -n "$rewrites" ] || continue
    zt=("${args[@]:0:${#args[@]}-1}" "$plain")  # the same arguments, the plain kernel
    for mode in ztalways ztauto; do
      cache="$OUT/gather/cache-$mode-$c-$r"
      mkdir -p "$cache" && cp -r "$rewrites/rewrite" "$cache/"
      policy=()
      [ "$mode" = ztalways ] && policy=(--policy always)
      DL_CACHE_DIR="$cache" "$run" --auto "${policy[@]}" --summary -- "$app" "${zt[@]}" \
        --json "$OUT/gather/$mode-$c-$r.json" >"$OUT/gather/$mode-$c-$r.txt" 2>&1
    done
  done
done
