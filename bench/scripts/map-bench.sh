#!/usr/bin/env bash
# User-defined maps (bench/apps/map: y[i] = a x[f(i)] + 1, f a bit reversal or a
# transposition) natively and under dl-run, from the repository root of a build that has
# dl-app-map, dl-bench-marshal, dl-run and the interposer:
#
#   OUT=/some/dir bench/scripts/map-bench.sh BUILD_DIR [RUNS]
#
# First the copy of the same size and the gather kernel (dl-bench-marshal --groups
# gather), for the map kernel's ratio to copy. Then, for each map and for x written
# never, every 4th and every launch, RUNS times (default 2): the application natively,
# under `dl-run --policy always` and under `dl-run` (the default policy), both with the
# committed rewrite bench/apps/annotated/map.cl and a cache of their own, with
# --summary (its `gathered copies` line gives the map kernel's device time). Every run
# writes its JSON and output under $OUT/map/; bench/scripts/map_json.py gathers them.
# MAP_LOG2N (default 25: 2^25 floats, 128 MiB), MAP_ROWS (4096), MAP_ITERS (100; 20 where
# x changes at every launch) and MAP_CASES (default "bitrev:0 bitrev:4 bitrev:1
# transposed:0 transposed:4 transposed:1", map:every) set the runs.
set -euo pipefail
: "${OUT:?set OUT to the output directory}"
build="${1:?usage: map-bench.sh BUILD_DIR [RUNS]}"
runs="${2:-2}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
app="$build/bench/apps/dl-app-map"
run="$build/src/interpose/dl-run"
kernel="$root/bench/apps/annotated/map.cl"
log2n="${MAP_LOG2N:-25}" rows="${MAP_ROWS:-4096}" iters="${MAP_ITERS:-100}"
mkdir -p "$OUT/map"
"$build/bench/marshal/dl-bench-marshal" --groups gather --size-mib $(((4 << log2n) >> 20)) \
  --repeats 5 --json "$OUT/map/marshal.json" >"$OUT/map/marshal.txt" 2>&1
for c in ${MAP_CASES:-bitrev:0 bitrev:4 bitrev:1 transposed:0 transposed:4 transposed:1}; do
  map="${c%%:*}" upd="${c##*:}"
  n=$iters
  [ "$upd" = 1 ] && n=20
  args=(--map "$map" --log2n "$log2n" --rows "$rows" --iters "$n" --update-x "$upd" --kernel "$kernel")
  c="$map-u$upd"
  for r in $(seq 1 "$runs"); do
    "$app" "${args[@]}" --json "$OUT/map/native-$c-$r.json" >"$OUT/map/native-$c-$r.txt" 2>&1
    DL_CACHE_DIR="$OUT/map/cache-always-$c-$r" "$run" --policy always --summary -- "$app" \
      "${args[@]}" --json "$OUT/map/always-$c-$r.json" >"$OUT/map/always-$c-$r.txt" 2>&1
    DL_CACHE_DIR="$OUT/map/cache-auto-$c-$r" "$run" --summary -- "$app" \
      "${args[@]}" --json "$OUT/map/auto-$c-$r.json" >"$OUT/map/auto-$c-$r.txt" 2>&1
  done
done
