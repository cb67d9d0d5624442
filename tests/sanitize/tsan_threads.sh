#!/usr/bin/env bash
# ThreadSanitizer over DL's threaded host path: dl_hook_app's "threads" scenario (four
# host threads, each with its queue, buffer and annotated kernel), "shared_host_threads"
# (six threads reading one host-visible buffer through DL's copies), "late_thread" (a
# second thread starting while the first makes blocking reads) and "shared_readonly_threads"
# (six threads reading an ordinary buffer through one kept layout copy) under a TSan-built
# libdl_interpose.so, in preload mode and in dl-run's default (preload and layer), each
# without and with a run report (DL's profiling callbacks then run on the OpenCL
# implementation's threads). The bytes must equal the native run's and TSan must report
# nothing (PoCL itself is not instrumented).
#   tsan_threads.sh <dl_hook_app> <libdl_interpose.so> <work dir>
set -euo pipefail
app="$1" lib="$2" dir="$3"
here="$(cd "$(dirname "$0")" && pwd)"
src="$(cd "$here/../interpose" && pwd)"
mkdir -p "$dir"
export DL_TEST_KERNELS="$src/hooks.cl"
# Every launch transformed: the controller (DL_POLICY=auto) would keep this short run AoS.
export DL_POLICY=always
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$here/tsan.supp${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
"$app" threads "$dir/native.bin"
for layers in "" "$lib"; do
  for report in "" "$dir/report.json"; do
    rm -f "$dir/dl.bin" "$report"
    LD_PRELOAD="$lib" OPENCL_LAYERS="$layers" DL_REPORT="$report" "$app" threads "$dir/dl.bin"
    cmp "$dir/native.bin" "$dir/dl.bin"
  done
done
# Host-visible memory read by the threads through copies made for each launch, and kept
# from launch to launch (DL_HOST_PTR=keep): the copies are shared state of DL's.
"$app" shared_host_threads "$dir/native_host.bin"
for keep in copy keep; do
  rm -f "$dir/dl.bin"
  LD_PRELOAD="$lib" DL_HOST_PTR="$keep" DL_REPORT="$dir/report_host.json" \
    "$app" shared_host_threads "$dir/dl.bin"
  cmp "$dir/native_host.bin" "$dir/dl.bin"
done
# An ordinary buffer read by the threads through one layout copy, kept from launch to
# launch (DL_LAYOUT_COPY=auto): made on one thread's queue, read on the others.
"$app" shared_readonly_threads "$dir/native_readonly.bin"
rm -f "$dir/dl.bin"
LD_PRELOAD="$lib" DL_REPORT="$dir/report_readonly.json" "$app" shared_readonly_threads "$dir/dl.bin"
cmp "$dir/native_readonly.bin" "$dir/dl.bin"
# A second thread that starts enqueuing while the first makes blocking reads, which DL
# passes on blocking after its lock (docs/runtime.md, "Blocking transfers").
"$app" late_thread "$dir/native_late.bin"
rm -f "$dir/dl.bin"
LD_PRELOAD="$lib" "$app" late_thread "$dir/dl.bin"
cmp "$dir/native_late.bin" "$dir/dl.bin"
# The controller with the transformed program built in a thread of its own, racing the
# four host threads' launches (whichever layout each launch gets, the bytes are the same).
rm -f "$dir/dl.bin"
LD_PRELOAD="$lib" DL_POLICY=auto DL_SHADOW_BUILD=background DL_CACHE_DIR="$dir/cache" \
  DL_REPORT="$dir/report_background.json" "$app" threads "$dir/dl.bin"
cmp "$dir/native.bin" "$dir/dl.bin"
transformed=$(sed -n 's/.*"transformed_launches": \([0-9]*\).*/\1/p' "$dir/report.json" | tail -1)
[ "${transformed:-0}" = 16 ] || { echo "DL did not transform the 16 launches (${transformed:-none})" >&2; exit 1; }
echo "threads and late_thread under TSan (preload, preload+layer, background build): same bytes as natively, $transformed transformed launches, no race reported"
