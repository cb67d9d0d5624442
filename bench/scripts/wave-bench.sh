#!/usr/bin/env bash
# The wavefront case study (bench/apps/wave) natively and under dl-run, from the
# repository root of a build that has dl-app-wave, dl-run and the interposer:
#
#   OUT=/some/dir bench/scripts/wave-bench.sh BUILD_DIR [RUNS]
#
# For each shape (nz alignments of n x n), RUNS times (default 2): the application
# natively, under `dl-run --policy always` and under `dl-run` (the default policy), both
# with the committed rewrite bench/apps/annotated/wave.cl; then one `--summary` run with
# the policy always. Every run writes its JSON under $OUT/wave/; the summary lines are
# kept in $OUT/wave/summary-<case>.txt. bench/scripts/wave_json.py gathers them into one
# results file. WAVE_CASES overrides the shapes ("nz:n nz:n ...").
set -euo pipefail
: "${OUT:?set OUT to the output directory}"
build="${1:?usage: wave-bench.sh BUILD_DIR [RUNS]}"
runs="${2:-2}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
app="$build/bench/apps/dl-app-wave"
run="$build/src/interpose/dl-run"
kernel="$root/bench/apps/annotated/wave.cl"
mkdir -p "$OUT/wave"
for c in ${WAVE_CASES:-16:4096 64:2048 1024:255 4096:127}; do
  nz=${c%%:*} n=${c##*:}
  for r in $(seq 1 "$runs"); do
    "$app" --nz "$nz" --n "$n" --iters 4 --json "$OUT/wave/native-$nz-$n-$r.json"
    "$run" --policy always -- "$app" --nz "$nz" --n "$n" --iters 4 --kernel "$kernel" \
      --json "$OUT/wave/always-$nz-$n-$r.json"
    "$run" -- "$app" --nz "$nz" --n "$n" --iters 4 --kernel "$kernel" \
      --json "$OUT/wave/auto-$nz-$n-$r.json"
  done
  "$run" --policy always --summary -- "$app" --nz "$nz" --n "$n" --iters 4 --kernel "$kernel" \
    >"$OUT/wave/summary-$nz-$n.txt" 2>&1
done
