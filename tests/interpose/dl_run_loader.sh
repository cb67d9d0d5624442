#!/usr/bin/env bash
# dl-run and the OpenCL loader the application gets. <no-layers dir> holds a copy of the
# system's libOpenCL.so.1 whose OPENCL_LAYERS string is spelled differently: a loader
# that takes no layers (like the one CUDA ships). With it first on LD_LIBRARY_PATH:
#   * OPENCL_LAYERS alone does not bring DL in (the situation dl-run must not leave silent);
#   * dl-run --which names it and says it takes no layers;
#   * dl-run --layer preloads the system's layer-capable loader: DL transforms, same bytes;
#   * dl-run --layer --loader <a loader without layers> stops with a clear error;
#   * dl-run (both ways) says DL comes in through LD_PRELOAD, and transforms.
#   dl_run_loader.sh <dl-run> <libdl_interpose.so> <dl_hook_app> <no-layers dir> <work dir>
set -uo pipefail
dlrun="$1" lib="$2" app="$3" nolayers="$4" dir="$5"
mkdir -p "$dir"
fail() { echo "FAIL: $*" >&2; exit 1; }
transformed() {  # transformed launches in a report (totals come last), 0 without one
  [ -f "$1" ] || { echo 0; return; }
  sed -n 's/.*"transformed_launches": \([0-9]*\).*/\1/p' "$1" | tail -1
}

"$app" basic "$dir/native.bin" > /dev/null || fail "the application does not run natively"

out="$("$dlrun" --which -- "$app")" || fail "dl-run --which failed"
echo "$out"
grep -q "^takes layers: yes" <<< "$out" || fail "the system's loader should take layers"

export LD_LIBRARY_PATH="$nolayers${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
out="$("$dlrun" --which -- "$app")" || fail "dl-run --which failed"
echo "$out"
grep -q "^loader: $nolayers/libOpenCL.so.1 (linked by" <<< "$out" ||
  fail "--which does not name the loader the application links"
grep -q "^takes layers: no" <<< "$out" || fail "--which does not see that it takes no layers"
grep -q "^--layer: preloads /" <<< "$out" || fail "--which finds no layer-capable loader"

rm -f "$dir/ignored.json"
OPENCL_LAYERS="$lib" DL_REPORT="$dir/ignored.json" "$app" basic "$dir/ignored.bin" > /dev/null ||
  fail "the application does not run with the no-layers loader"
[ "$(transformed "$dir/ignored.json")" = 0 ] ||
  fail "the no-layers loader took DL as a layer: the test's loader is not what it should be"
echo "OPENCL_LAYERS alone with the no-layers loader: DL not in (as expected)"

rm -f "$dir/layer.json"
err="$("$dlrun" --layer --log info --report "$dir/layer.json" -- "$app" basic "$dir/layer.bin" 2>&1 > /dev/null)" ||
  fail "dl-run --layer failed: $err"
echo "$err" | grep "dl-run:"
grep -q "preloaded in place of $nolayers/libOpenCL.so.1" <<< "$err" || fail "dl-run --layer did not say it swapped the loader"
cmp -s "$dir/native.bin" "$dir/layer.bin" || fail "dl-run --layer: bytes differ from the native run"
[ "$(transformed "$dir/layer.json")" = 5 ] || fail "dl-run --layer: DL did not transform (report: $dir/layer.json)"

err="$("$dlrun" --layer --loader "$nolayers/libOpenCL.so.1" -- "$app" basic "$dir/refused.bin" 2>&1)"
rc=$?
echo "$err"
[ "$rc" = 2 ] || fail "dl-run --layer with no layer-capable loader ran (exit $rc) instead of stopping"
grep -q "takes no" <<< "$err" || fail "dl-run --layer stopped without saying why"

rm -f "$dir/both.json"
err="$("$dlrun" --log info --report "$dir/both.json" -- "$app" basic "$dir/both.bin" 2>&1 > /dev/null)" ||
  fail "dl-run failed: $err"
echo "$err" | grep "dl-run:"
grep -q "DL comes in through LD_PRELOAD" <<< "$err" || fail "dl-run did not say DL comes in through LD_PRELOAD"
cmp -s "$dir/native.bin" "$dir/both.bin" || fail "dl-run: bytes differ from the native run"
[ "$(transformed "$dir/both.json")" = 5 ] || fail "dl-run: DL did not transform (report: $dir/both.json)"
echo "dl-run finds the loader: ok"
