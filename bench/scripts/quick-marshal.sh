#!/usr/bin/env bash
# Quick GPU check of DL's marshaling kernels: builds only dl-bench-marshal (Release) and
# runs it on NVIDIA's OpenCL platform with 256 MiB buffers; extra arguments go to the
# benchmark (e.g. --algos barrier-sync,segmented --S 2,32 --T 16,64 --groups sweep).
#   bench/scripts/quick-marshal.sh [dl-bench-marshal args...]
# Env: DL_QUICK_BUILD (build dir, default /tmp/dl-quick), DL_EXTRA_PREFIX (extra
# CMAKE_PREFIX_PATH), DL_BENCH_PLATFORM (part of the platform name, default NVIDIA).
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${DL_QUICK_BUILD:-/tmp/dl-quick}
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DDL_BUILD_ANNOTATOR=OFF -DDL_BUILD_TESTS=OFF \
  -DDL_BUILD_INTERPOSER=OFF -DDL_BUILD_EXAMPLES=OFF ${DL_EXTRA_PREFIX:+-DCMAKE_PREFIX_PATH="$DL_EXTRA_PREFIX"} >"$B.configure.log" 2>&1 ||
  { tail -30 "$B.configure.log"; exit 1; }
cmake --build "$B" --target dl-bench-marshal -j16 >"$B.build.log" 2>&1 ||
  { grep -E "error|Error" "$B.build.log" | head -30; exit 1; }
mkdir -p /tmp/icd
lib=/usr/lib/libnvidia-opencl.so.1
[ -e "$lib" ] || lib=/usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1
echo "$lib" >/tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd
export DL_BENCH_PLATFORM="${DL_BENCH_PLATFORM:-NVIDIA}"
exe=$(find "$B" -name dl-bench-marshal -type f -perm -u+x | head -1)
exec "$exe" --size-mib 256 "$@"
