#!/usr/bin/env bash
# The benchmark of dl-annotate's rewrite (bench/results/<device>/rewrite.json): for every
# application kernel of bench/apps, the kernel time of the original AoS kernel, of the
# hand-written layouts and of dl-annotate's rewrite (bench/apps/annotated, made by
# annotate-apps.sh) in the layout it chose, plus the variants that
# bench/apps/annotated/variants/README.md describes. Kernel times only: data is placed
# in each layout by the host, no conversion is timed.
#
#   OUT=<dir> [REWRITE_ONLY="lbm micro ..."] bench/scripts/rewrite-bench.sh [gpu|cpu]
#
# REWRITE_ONLY runs only the listed runs (their tags: micro, blackscholes, spmv, lbm, md,
# md-full, streamcluster, nn, bfs).
#
# Builds the applications (Release, no annotator, no tests) in $BUILD_DIR, runs them on
# platform $DL_BENCH_PLATFORM (a part of its name; default: the first) and writes
# $OUT/rewrite-<app>.json and $OUT/rewrite.json (bench/scripts/rewrite_json.py).
# gpu: full sizes; cpu: sizes a CPU device runs in a few minutes.
set -euo pipefail
: "${OUT:?set OUT to the output directory}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
profile="${1:-gpu}"
build="${BUILD_DIR:-/tmp/dl-build-rewrite}"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DDL_BUILD_ANNOTATOR=OFF \
  -DDL_BUILD_TESTS=OFF -DDL_BUILD_FUZZERS=OFF -DDL_BUILD_EXAMPLES=OFF \
  -DDL_BUILD_INTERPOSER=OFF ${DL_EXTRA_PREFIX:+-DCMAKE_PREFIX_PATH="$DL_EXTRA_PREFIX"} >/dev/null
apps=(micro blackscholes spmv lbm md streamcluster nn bfs)
cmake --build "$build" -j "$(nproc)" --target "${apps[@]/#/dl-app-}" >/dev/null
mkdir -p "$OUT"
A="$root/bench/apps/annotated" V="$root/bench/apps/annotated/variants"
bin="$build/bench/apps"
if [ "$profile" = gpu ]; then
  size_micro=(--n 4194304) size_bs=(--n 4194304) size_lbm=() size_md=() size_md8=(--boxes1d 8)
  size_sc=() size_nn=() size_bfs=()
else
  size_micro=(--n 262144) size_bs=(--n 1048576) size_lbm=(--nx 48 --ny 48 --nz 48)
  size_md=(--boxes1d 4) size_md8=(--boxes1d 4) size_sc=(--n 262144)
  size_nn=(--n 1000000) size_bfs=(--n 100000)
fi
common=(--T 16,32,64 --repeats 9)
run() {
  local app=$1 tag=$2
  shift 2
  if [ -n "${REWRITE_ONLY:-}" ] && [[ " $REWRITE_ONLY " != *" $tag "* ]]; then return; fi
  echo "== $tag: dl-app-$app $*"
  "$bin/dl-app-$app" "${common[@]}" "$@" --json "$OUT/rewrite-$tag.json"
}
o64=@-DDL_OFFSET64  # the helpers in 64 bits, as dl-annotate wrote them before
M="$OUT/variants"
mkdir -p "$M"
run micro micro --S 16 "${size_micro[@]}" \
  --rewritten "rewritten=$A/micro.cl,offset64=$A/micro.cl$o64"
run blackscholes blackscholes "${size_bs[@]}" \
  --rewritten "rewritten=$A/blackscholes.cl,offset64=$A/blackscholes.cl$o64"
run spmv spmv --matrices table1:e40r0000 \
  --rewritten "rewritten=$A/spmv.cl,offset64=$A/spmv.cl$o64"
run lbm lbm "${size_lbm[@]}" \
  --rewritten "rewritten=$A/lbm.cl,offset64=$A/lbm.cl$o64,flat_division=$V/lbm_flat_division.cl"
python3 "$root/bench/scripts/rewrite_variants.py" "$V/md_asta.cl" "$M"
run md md "${size_md[@]}" --rewritten \
  "rewritten=$A/md.cl,asta=$V/md_asta.cl,asta_scalar=$M/md_asta_scalar.cl,aos_helpers=$V/md_aos_helpers.cl"
# Every tile full (npar = 51,200 = 800 x 64): the full-tile variant is exact here.
run md md-full "${size_md8[@]}" \
  --rewritten "rewritten=$A/md.cl,asta=$V/md_asta.cl,asta_fulltile=$M/md_asta_fulltile.cl"
run streamcluster streamcluster "${size_sc[@]}" \
  --rewritten "rewritten=$A/streamcluster.cl,offset64=$A/streamcluster.cl$o64"
run nn nn "${size_nn[@]}" --rewritten "rewritten=$A/nn.cl"
# bezier is not here: its rewrite keeps ctrl in AoS (uniform reads) and puts out in ASTA,
# and the applications place all their buffers in one layout; zero-touch-bench.sh times
# it under dl-run, which places each buffer as the annotation says.
run bfs bfs "${size_bfs[@]}" --rewritten "rewritten=$A/bfs.cl"
python3 "$root/bench/scripts/rewrite_json.py" --command "bench/scripts/rewrite-bench.sh $profile" \
  "$OUT"/rewrite-*.json >"$OUT/rewrite.json"
echo "rewrite-bench: $OUT/rewrite.json"
