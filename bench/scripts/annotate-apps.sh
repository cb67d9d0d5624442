#!/usr/bin/env bash
# Regenerates bench/apps/annotated/*.cl: the applications' kernels rewritten by
# dl-annotate, for machines that cannot build dl-annotate (no libclang), where
# run-eval.sh's DL mode uses these files.
#
#   bench/scripts/annotate-apps.sh [path/to/dl-annotate] [output dir]
#
# SpMV's annotation names the row length K, a kernel argument; dl-annotate needs the
# flat record's length as a constant, so the SpMV kernel is annotated for one dataset:
# K = 62, the e40r0000 shape (run it with --matrices table1:e40r0000). Likewise the
# micro-benchmark is annotated for records of S = 16 floats (run it with --S 16).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
annot="${1:-$root/build-eval/annotate/dl-annotate}"
out="${2:-$root/bench/apps/annotated}"
SPMV_K=62
# The micro-benchmark's record has S floats, a build option: annotated for one S.
MICRO_S=16
mkdir -p "$out" "$out/variants"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for app in blackscholes lbm spmv micro md streamcluster nn bezier bfs; do
  src="$root/bench/apps/$app/$app.cl"
  if [ "$app" = spmv ]; then
    # Only the //DL: line changes: [K] -> [62].
    sed "/^\/\/DL:/s/\[K\]/[$SPMV_K]/g" "$src" >"$tmp/spmv.cl"
    src="$tmp/spmv.cl"
  fi
  extra=()
  [ "$app" = micro ] && extra=(-DS=$MICRO_S)
  "$annot" "$src" -o "$out/$app.cl" -- -I "$root/bench/apps/lbm" "${extra[@]}"
  echo "annotate-apps: $out/$app.cl"
done
# The MD kernel with ASTA forced (dl-annotate keeps AoS for it): the rewrite a user gets
# by writing -> ASTA, timed beside the choice (bench/scripts/rewrite-bench.sh).
sed '/^\/\/DL:/s/const rv\[npar\], fv\[npar\]/const rv[npar] -> ASTA, fv[npar] -> ASTA/' \
  "$root/bench/apps/md/md.cl" >"$tmp/md.cl"
"$annot" "$tmp/md.cl" -o "$out/variants/md_asta.cl"
echo "annotate-apps: $out/variants/md_asta.cl"
