#!/usr/bin/env bash
# Swaps of two dimensions that are not neighbours (SWAP(T,B), docs/remappings.md) from
# the repository root of a build that has dl-app-swap, dl-bench-marshal, dl-run and the
# interposer:
#
#   OUT=/some/dir bench/scripts/far-bench.sh BUILD_DIR REWRITTEN_SWAP_CL [RUNS]
#
# First the conversions AoS <-> SWAP of FAR_MIB MiB (default 1024; FAR_MARSHAL=0 skips
# them) next to the copy of the same run (dl-bench-marshal --groups far). Then `dl-app-swap --pair far` (sums over x with
# work-items over (y, z), z fastest) for each shape in FAR_SHAPES (default
# "65536:256:1,4 4096:1024:16,32", nz:ny:nx-list): the kernel on the row-major array, the
# hand-written kernel on the swapped array and REWRITTEN_SWAP_CL (dl-annotate's output of
# bench/apps/swap/swap.cl) on the swapped array; then, RUNS times (default 2), its app mode
# (FAR_ITERS launches, default 50) natively and under `dl-run --policy always` with the
# rewrite and --summary. Every run writes its JSON and output under $OUT/far/.
set -euo pipefail
: "${OUT:?set OUT to the output directory}"
build="${1:?usage: far-bench.sh BUILD_DIR REWRITTEN_SWAP_CL [RUNS]}"
rewritten="${2:?usage: far-bench.sh BUILD_DIR REWRITTEN_SWAP_CL [RUNS]}"
runs="${3:-2}"
app="$build/bench/apps/dl-app-swap"
run="$build/src/interpose/dl-run"
iters="${FAR_ITERS:-50}"
mkdir -p "$OUT/far"
if [ "${FAR_MARSHAL:-1}" = 1 ]; then
  "$build/bench/marshal/dl-bench-marshal" --groups far --size-mib "${FAR_MIB:-1024}" --repeats 5 \
    --json "$OUT/far/marshal.json" >"$OUT/far/marshal.txt" 2>&1
fi
for s in ${FAR_SHAPES:-65536:256:1,4 4096:1024:16,32}; do
  IFS=: read -r nz ny nx <<<"$s"
  c="$nz-$ny-${nx//,/_}"
  shape=(--pair far --nz "$nz" --ny "$ny" --nx "$nx")
  "$app" "${shape[@]}" --repeats 5 --rewritten "rewrite=$rewritten" \
    --json "$OUT/far/kernels-$c.json" >"$OUT/far/kernels-$c.txt" 2>&1
  for r in $(seq 1 "$runs"); do
    "$app" "${shape[@]}" --mode app --iters "$iters" \
      --json "$OUT/far/native-$c-$r.json" >"$OUT/far/native-$c-$r.txt" 2>&1
    DL_CACHE_DIR="$OUT/far/cache-$c-$r" "$run" --policy always --summary -- "$app" "${shape[@]}" \
      --mode app --iters "$iters" --kernel "$rewritten" \
      --json "$OUT/far/always-$c-$r.json" >"$OUT/far/always-$c-$r.txt" 2>&1
  done
done
