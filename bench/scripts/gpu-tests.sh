#!/usr/bin/env bash
# On the NVIDIA GPU machine, from the repository root, through NVIDIA's OpenCL only:
#
#   OUT=/some/dir bench/scripts/gpu-tests.sh [ctest -R regex]
#
# builds DL (no annotator: its LLVM is not there), runs the test suites that need no
# annotator (tests/cl, interpose, stub, e2e), checks which loader applications get and
# that dl-run --layer brings DL in, and times every application natively and under
# dl-run with each policy, and with the original kernels under dl-run --auto
# (bench/scripts/policy_e2e.py --zero-touch). Leaves in $OUT: tests.txt,
# loader.txt, policy.json, policy.txt. DL_EXTRA_PREFIX: extra CMAKE_PREFIX_PATH (e.g.
# carried nlohmann_json headers). GPU_TESTS_SKIP_BENCH=1 skips the timing.
set -uo pipefail
: "${OUT:?set OUT to the output directory}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# NVIDIA's ICD alone: CUDA's loader reads OCL_ICD_FILENAMES, ocl-icd (dl-run --layer's
# loader here) the vendors directory when OCL_ICD_VENDORS is set.
N=$(ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 /usr/lib/libnvidia-opencl.so.1 2>/dev/null | head -1)
mkdir -p /tmp/dl-icd "$OUT"
echo "$N" >/tmp/dl-icd/nvidia.icd
export OCL_ICD_FILENAMES=$N OCL_ICD_VENDORS=/tmp/dl-icd
B="${BUILD_DIR:-/tmp/dl-gpu-tests}"
{
  clinfo -l 2>&1
  nvidia-smi --query-gpu=name,driver_version --format=csv 2>&1
  cmake -S "$root" -B "$B" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDL_BUILD_ANNOTATOR=OFF \
    ${DL_EXTRA_PREFIX:+-DCMAKE_PREFIX_PATH="$DL_EXTRA_PREFIX"} >/dev/null &&
    cmake --build "$B" -j "$(nproc)" 2>&1 | grep -E "error|warning|Error"
} >"$OUT/tests.txt" 2>&1
# Which loader the applications get, and dl-run --layer (CUDA's loader takes no layers).
{
  "$B/src/interpose/dl-run" --which -- "$B/examples/particles"
  "$B/src/interpose/dl-run" --layer --policy always --log info --summary \
    --report "$OUT/layer-report.json" -- "$B/examples/particles" /tmp/dl-layer.bin
  "$B/examples/particles" /tmp/dl-native.bin && cmp /tmp/dl-native.bin /tmp/dl-layer.bin &&
    echo "dl-run --layer: output identical to native"
} >"$OUT/loader.txt" 2>&1
# The suites. Their "layer" mode sets OPENCL_LAYERS alone, which the loader applications
# link here (CUDA's) ignores: they run with the system's layer-capable ocl-icd loader,
# as dl-run --layer arranges.
icd=$(ls /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 2>/dev/null | head -1)
mkdir -p /tmp/dl-loader && [ -n "$icd" ] && ln -sf "$icd" /tmp/dl-loader/libOpenCL.so.1
LD_LIBRARY_PATH=/tmp/dl-loader${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
  ctest --test-dir "$B" -j 8 --timeout 300 --output-on-failure -R "${1:-cl\.|interpose|e2e|stub}" \
  >>"$OUT/tests.txt" 2>&1
status=$?
if [ "${GPU_TESTS_SKIP_BENCH:-0}" != 1 ]; then
  # Zero-touch runs use the rewrites cached where dl-annotate runs (DL_REWRITE_CACHE:
  # the rewrite/ directory of a cache made by policy_e2e.py --zero-touch /tmp/dl-zero-touch).
  if [ -n "${DL_REWRITE_CACHE:-}" ]; then
    mkdir -p /tmp/dl-cache/rewrite && cp "$DL_REWRITE_CACHE"/* /tmp/dl-cache/rewrite/
  fi
  python3 "$root/bench/scripts/policy_e2e.py" --build "$B" --out "$OUT/policy.json" --runs 5 \
    --size gpu --platform NVIDIA --cache /tmp/dl-cache --zero-touch /tmp/dl-zero-touch \
    --device "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)" \
    >"$OUT/policy.txt" 2>&1
fi
tail -5 "$OUT/tests.txt"
cat "$OUT/loader.txt" "$OUT/policy.txt" 2>/dev/null | tail -30
exit $status
