#!/usr/bin/env bash
# e2e of the zero-touch mode when things go wrong: an annotator that fails, none at all,
# a header changed after the rewrite was cached, a corrupted cache entry. Every run must
# give the native results; the report must say what happened.
#   auto_failures.sh <dl-run> <work dir> <lbm app exe> <kernel dir> [args...]
set -euo pipefail
dlrun="$1"; dir="$2"; exe="$3"; kdir="$4"; shift 4
rm -rf "$dir" && mkdir -p "$dir/k"
cp "$kdir"/* "$dir/k/"
sed '/^[[:space:]]*\/\/DL:/d' "$kdir/lbm.cl" >"$dir/k/lbm.cl"
fnv() { sed -n 's/.*"result_fnv": "\([0-9a-f]*\)".*/\1/p' "$1"; }
"$exe" --mode app --iters 2 --kernel-dir "$dir/k" --json "$dir/native.json" "$@" >/dev/null
native=$(fnv "$dir/native.json")
export DL_CACHE_DIR="$dir/cache" DL_POLICY=always
check() {  # check <label> <report pattern> [dl-run options]: same results, report says so
  local label="$1" want="$2"; shift 2
  "$dlrun" --auto --report "$dir/$label.report.json" "$@" -- "$exe" --mode app --iters 2 \
    --kernel-dir "$dir/k" --json "$dir/$label.json" "${args[@]}" >"$dir/$label.log" 2>&1 ||
    { cat "$dir/$label.log" >&2; echo "$label: the application failed" >&2; exit 1; }
  [ "$(fnv "$dir/$label.json")" = "$native" ] || { echo "$label: results differ" >&2; exit 1; }
  grep -q -- "$want" "$dir/$label.report.json" ||
    { echo "$label: the report lacks '$want'" >&2; grep -A3 '"auto"' "$dir/$label.report.json" >&2; exit 1; }
  echo "$label: native results; report: $want"
}
args=("$@")
check failing-annotator 'dl-annotate failed (exit status 1)' --annotate /bin/false
check failure-is-cached 'dl-annotate failed (exit status 1): .*(cached)' --annotate /bin/false
rm -rf "$dir/cache"
check no-annotator 'no cached rewrite, and no dl-annotate' --annotate "$dir/none"
rm -rf "$dir/cache"
check first '"cached": false'
check cached '"cached": true'
echo "// a changed header" >>"$dir/k/lbm_d3q19.h"
check header-changed '"cached": false'
# A cached rewrite whose transformed branch does not build: the shadow build fails, the
# program runs untransformed.
for f in "$dir"/cache/rewrite/*.cl; do
  sed -i '0,/^#ifdef DL_ASTA_T/s//#ifdef DL_ASTA_T\nthis does not build;/' "$f"
done
check corrupt-entry 'the program failed to build with -DDL_ASTA_T'
grep -q 'failed to build with -DDL_ASTA_T' "$dir/corrupt-entry.log" ||
  { echo "corrupt-entry: no warning about the shadow build" >&2; exit 1; }
