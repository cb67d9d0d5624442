#!/usr/bin/env bash
# The evaluation on the NVIDIA GPU machine (NVIDIA OpenCL), from the repository root:
#
#   OUT=/some/dir bench/scripts/run-gpu.sh [--cpu-smoke]
#
# Release build without annotator and tests (DL_EXTRA_PREFIX: extra CMAKE_PREFIX_PATH,
# e.g. a carried prefix with include/nlohmann/json.hpp), registers NVIDIA's ICD, runs
# bench/scripts/run-eval.sh with the gpu profile and leaves
# in $OUT a few files: log.txt, marshal.json, results.tar.gz (every JSON of the run).
# The whole run takes about 15 minutes on an H100: where one command may take 10, run it
# in parts, RUN_EVAL_PARTS=apps,dlmode then RUN_EVAL_PARTS=marshal (carry the first
# part's apps JSON into the second's results directory for the app buffers' rows).
# --cpu-smoke: the same pipeline on the default OpenCL device with tiny sizes (to test
# this script on a machine without a GPU, e.g. PoCL).
set -euo pipefail
: "${OUT:?set OUT to the output directory}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
profile=gpu tag=h100 platform=()
if [ "${1:-}" = "--cpu-smoke" ]; then
  profile=smoke tag=cpu-smoke
else
  mkdir -p /tmp/icd
  echo /usr/lib/libnvidia-opencl.so.1 >/tmp/icd/nvidia.icd
  [ -e /usr/lib/libnvidia-opencl.so.1 ] || echo /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 >/tmp/icd/nvidia.icd
  export OCL_ICD_VENDORS=/tmp/icd
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,clocks.max.mem --format=csv || true
  # Other ICDs (PoCL) may stay registered beside NVIDIA's: pick NVIDIA's platform by name
  # (the benchmarks read DL_BENCH_PLATFORM; clinfo, where present, gives the index too).
  export DL_BENCH_PLATFORM="${DL_BENCH_PLATFORM:-NVIDIA}"
  p=$(clinfo -l 2>/dev/null | grep '^Platform #' | grep -n 'NVIDIA' | head -1 | cut -d: -f1)
  [ -n "$p" ] && platform=(--platform "$((p - 1))")
fi
mkdir -p "$OUT"
res="${RESULTS_DIR:-/tmp/dl-results-$tag}"
# RUN_EVAL_PARTS (run-eval.sh): a part of the run adds to the results of earlier parts.
[ -n "${RUN_EVAL_PARTS:-}" ] || rm -rf "$res"
export BUILD_DIR="${BUILD_DIR:-/tmp/dl-build-$tag}"
export DL_CMAKE_ARGS="-DDL_BUILD_ANNOTATOR=OFF ${DL_CMAKE_ARGS:-}"
status=0
"$root/bench/scripts/run-eval.sh" "$tag" --profile "$profile" "${platform[@]}" --out "$res/$tag" --no-plot \
  2>&1 | tee "$OUT/log.txt" || status=$?
[ -f "$res/$tag/marshal.json" ] && cp "$res/$tag/marshal.json" "$OUT/"
tar -C "$res" -czf "$OUT/results.tar.gz" "$tag"
echo "run-gpu.sh: exit $status; files in $OUT: $(ls "$OUT" | tr '\n' ' ')"
exit $status
