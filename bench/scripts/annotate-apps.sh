#!/usr/bin/env bash
# Regenerates bench/apps/annotated/*.cl: the applications' kernels rewritten by
# dl-annotate, for machines that cannot build dl-annotate (no libclang), where
# run-eval.sh's DL mode uses these files.
#
#   bench/scripts/annotate-apps.sh [path/to/dl-annotate] [output dir]
#
# The micro-benchmark is annotated for records of S = 16 floats, a build option (run it
# with --S 16). SpMV's row length K is a kernel argument: its one rewrite serves every K.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
annot="${1:-$root/build-eval/annotate/dl-annotate}"
out="${2:-$root/bench/apps/annotated}"
# The micro-benchmark's record has S floats, a build option: annotated for one S.
MICRO_S=16
mkdir -p "$out" "$out/variants"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for app in blackscholes lbm spmv micro md streamcluster nn bezier bfs kmeans planes wave gather map; do
  src="$root/bench/apps/$app/$app.cl"
  extra=()
  [ "$app" = micro ] && extra=(-DS=$MICRO_S)
  "$annot" "$src" -o "$out/$app.cl" -- -I "$root/bench/apps/lbm" "${extra[@]}"
  echo "annotate-apps: $out/$app.cl"
done
# The kernel of dl-bench-upload (bench/upload).
"$annot" "$root/bench/upload/upload.cl" -o "$root/bench/upload/upload.rewritten.cl"
echo "annotate-apps: $root/bench/upload/upload.rewritten.cl"
# The same kernel reading the records as discrete arrays (-> DA): uploads into DA.
sed '/^\/\/DL:/s/const p\[n\]$/const p[n] -> DA/' "$root/bench/upload/upload.cl" >"$tmp/upload_da.cl"
grep -q -- '-> DA' "$tmp/upload_da.cl"
"$annot" "$tmp/upload_da.cl" -o "$root/bench/upload/upload_da.rewritten.cl"
echo "annotate-apps: $root/bench/upload/upload_da.rewritten.cl"
# The records as planes of rows of floats, diagonalized (-> DIAG): uploads into DIAG.
"$annot" "$root/bench/upload/upload_diag.cl" -o "$root/bench/upload/upload_diag.rewritten.cl"
echo "annotate-apps: $root/bench/upload/upload_diag.rewritten.cl"
# The kernels of dl-bench-stage, staged in local memory (bench/stage).
"$annot" --stage-local --Werror "$root/tests/annotate/stage/kernels.cl" -o "$root/bench/stage/staged.cl"
echo "annotate-apps: $root/bench/stage/staged.cl"
# The MD kernel with ASTA forced (dl-annotate keeps AoS for it): the rewrite a user gets
# by writing -> ASTA, timed beside the choice (bench/scripts/rewrite-bench.sh).
sed '/^\/\/DL:/s/const rv\[npar\], fv\[npar\]/const rv[npar] -> ASTA, fv[npar] -> ASTA/' \
  "$root/bench/apps/md/md.cl" >"$tmp/md.cl"
"$annot" "$tmp/md.cl" -o "$out/variants/md_asta.cl"
echo "annotate-apps: $out/variants/md_asta.cl"
