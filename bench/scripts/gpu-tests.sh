#!/usr/bin/env bash
# The test suites that need no annotator (tests/cl, tests/interpose, tests/e2e) on the
# NVIDIA GPU machine, through NVIDIA's OpenCL only, from the repository root:
#
#   OUT=/some/dir bench/scripts/gpu-tests.sh [ctest -R regex]
#
# DL_EXTRA_PREFIX: extra CMAKE_PREFIX_PATH (e.g. carried nlohmann_json headers).
# Leaves log.txt (build and ctest output) in $OUT.
set -uo pipefail
: "${OUT:?set OUT to the output directory}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
N=$(ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 /usr/lib/libnvidia-opencl.so.1 2>/dev/null | head -1)
mkdir -p /tmp/empty "$OUT"
export OCL_ICD_FILENAMES=$N OCL_ICD_VENDORS=/tmp/empty
B="${BUILD_DIR:-/tmp/dl-gpu-tests}"
{
  clinfo -l 2>&1
  nvidia-smi --query-gpu=name,driver_version --format=csv 2>&1
  cmake -S "$root" -B "$B" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDL_BUILD_ANNOTATOR=OFF \
    -DDL_BUILD_BENCH=OFF ${DL_EXTRA_PREFIX:+-DCMAKE_PREFIX_PATH="$DL_EXTRA_PREFIX"} >/dev/null &&
    cmake --build "$B" -j "$(nproc)" 2>&1 | grep -E "error|warning|Error" 
  ctest --test-dir "$B" -j 8 --timeout 300 --output-on-failure -R "${1:-cl\.|interpose|e2e}"
} >"$OUT/log.txt" 2>&1
status=$?
tail -40 "$OUT/log.txt"
exit $status
