#!/usr/bin/env bash
# e2e of a gathered copy (`//DL: gather: x[col]`): dl-app-gather with dl-annotate's
# rewrite of its kernel, natively, then under dl-run --policy always --summary. Under DL
# it must read back what it reads natively (the hash its JSON lists; the application
# checks every result it reads against the CPU), every launch must run transformed, none
# untransformed, and the kernel's summary must count exactly the copies gathered (the
# first launch, and the first after each new x the host wrote) and read again (the
# others). With --auto, the kernel is the application's own with its //DL: lines
# removed, and dl-run --auto must infer the gather (zero-touch) for the same counts.
#   gather.sh <dl-run> <dl-app-gather> <rewritten .cl> <work dir> <launches> <gathered>
#             <read again> [--auto] -- [app args...]
# E2E_KERNEL names the kernel whose summary is checked (default spmv_ell_gather): a map's
# copies (`map: x[fn]`, dl-app-map) are counted with the gathered ones.
set -euo pipefail
dlrun="$1"; exe="$2"; rewritten="$3"; dir="$4"; launches="$5"; gathered="$6"; again="$7"
shift 7
auto=()
rm -rf "$dir" && mkdir -p "$dir"
if [ "${1:-}" = --auto ]; then
  shift
  auto=(--auto)
  sed '/^[[:space:]]*\/\/DL:/d' "$rewritten" >"$dir/plain.cl"
  rewritten="$dir/plain.cl"
fi
[ "${1:-}" = -- ] && shift
fnv() { sed -n 's/.*"result_fnv": "\([0-9a-f]*\)".*/\1/p' "$1"; }
die() { cat "$dir/dl.log" >&2 2>/dev/null || true; echo "e2e.gather: $*" >&2; exit 1; }
"$exe" --kernel "$rewritten" --json "$dir/native.json" "$@" >"$dir/native.log" 2>&1 ||
  { cat "$dir/native.log" >&2; echo "e2e.gather: the native run failed" >&2; exit 1; }
native=$(fnv "$dir/native.json")
[ -n "$native" ] || { echo "e2e.gather: no result in the native run's JSON" >&2; exit 1; }
DL_CACHE_DIR="$dir/cache" "$dlrun" --policy always --summary "${auto[@]}" -- \
  "$exe" --kernel "$rewritten" --json "$dir/dl.json" "$@" >"$dir/dl.log" 2>&1 ||
  die "the run under dl-run failed"
[ "$(fnv "$dir/dl.json")" = "$native" ] || die "results differ from the native run's"
grep -q '"under_dl": true' "$dir/dl.json" || die "the application did not run under DL"
kernel="[dl]   kernel ${E2E_KERNEL:-spmv_ell_gather}: $launches launches, $launches transformed,"
grep -qF "$kernel" "$dir/dl.log" || die "expected a summary line starting '$kernel'"
copies="^\[dl\]     gathered copies: $gathered gathered \([0-9.]+ ms\), $again read again\$"
grep -qxE "$copies" "$dir/dl.log" || die "expected a summary line matching '$copies'"
grep -qE '^\[dl\] summary: .*\(.*, 0 fallbacks\)' "$dir/dl.log" || die "a launch fell back"
! grep -q 'untransformed:' "$dir/dl.log" || die "a launch ran untransformed"
echo "e2e.gather${auto:+ (--auto)}: identical results; $launches launches transformed, $gathered gathered, $again read again"
