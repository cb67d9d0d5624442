#!/usr/bin/env bash
# Layout copies of host-visible memory (docs/runtime.md, "Host-visible memory: layout
# copies") on dl-app-micro's application mode, from the repository root of a build that
# has dl-app-micro, dl-run and the interposer:
#
#   OUT=/some/dir bench/scripts/host-copy-bench.sh BUILD_DIR [RUNS]
#
# For each S (records of S floats, n records), RUNS times (default 2): the input a
# CL_MEM_USE_HOST_PTR buffer over the host array (--host-ptr) natively, under
# `dl-run --policy always` (a copy in ASTA(T) before every launch), under `dl-run` (the
# default policy) and under `DL_HOST_PTR=keep dl-run` (the copy kept while no command
# writes the buffer; the application writes it only before its first launch); and, for
# comparison, the input written to an ordinary buffer
# natively and under `dl-run --policy always` (converted in place once). Each run writes
# its JSON and DL's report under $OUT/host-copy/; bench/scripts/host_copy_json.py gathers
# them. Then k-means (dl-app-kmeans --mode app --host-ptr, its points copied into DA),
# natively, under the policy always, the default policy and DL_HOST_PTR=keep
# (KMEANS_POINTS points of 34 features, default 2^21; 0 skips it). HOST_COPY_CASES overrides the cases ("S:n S:n ..."; the committed rewrite
# bench/apps/annotated/micro.cl reads records of 16 floats, other S run untransformed).
set -euo pipefail
: "${OUT:?set OUT to the output directory}"
build="${1:?usage: host-copy-bench.sh BUILD_DIR [RUNS]}"
runs="${2:-2}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
app="$build/bench/apps/dl-app-micro"
run="$build/src/interpose/dl-run"
kernel="$root/bench/apps/annotated/micro.cl"
dir="$OUT/host-copy"
mkdir -p "$dir"
for c in ${HOST_COPY_CASES:-16:4194304}; do
  S=${c%%:*} n=${c##*:}
  common=(--mode app --S "$S" --n "$n" --iters 20 --kernel "$kernel")
  for r in $(seq 1 "$runs"); do
    "$app" "${common[@]}" --host-ptr --json "$dir/hostptr-native-$S-$r.json"
    "$run" --policy always --report "$dir/hostptr-always-$S-$r.report.json" -- \
      "$app" "${common[@]}" --host-ptr --json "$dir/hostptr-always-$S-$r.json"
    "$run" --report "$dir/hostptr-auto-$S-$r.report.json" -- \
      "$app" "${common[@]}" --host-ptr --json "$dir/hostptr-auto-$S-$r.json"
    DL_HOST_PTR=keep "$run" --report "$dir/hostptr-keep-$S-$r.report.json" -- \
      "$app" "${common[@]}" --host-ptr --json "$dir/hostptr-keep-$S-$r.json"
    "$app" "${common[@]}" --json "$dir/device-native-$S-$r.json"
    "$run" --policy always --report "$dir/device-always-$S-$r.report.json" -- \
      "$app" "${common[@]}" --json "$dir/device-always-$S-$r.json"
  done
done
points="${KMEANS_POINTS:-2097152}"
if [ "$points" != 0 ]; then
  kapp="$build/bench/apps/dl-app-kmeans"
  kcommon=(--mode app --npoints "$points" --iters 10 --host-ptr --kernel "$root/bench/apps/annotated/kmeans.cl")
  for r in $(seq 1 "$runs"); do
    "$kapp" "${kcommon[@]}" --json "$dir/kmeans-native-$r.json"
    "$run" --policy always --report "$dir/kmeans-always-$r.report.json" -- \
      "$kapp" "${kcommon[@]}" --json "$dir/kmeans-always-$r.json"
    "$run" --report "$dir/kmeans-auto-$r.report.json" -- \
      "$kapp" "${kcommon[@]}" --json "$dir/kmeans-auto-$r.json"
    DL_HOST_PTR=keep "$run" --report "$dir/kmeans-keep-$r.report.json" -- \
      "$kapp" "${kcommon[@]}" --json "$dir/kmeans-keep-$r.json"
  done
fi
