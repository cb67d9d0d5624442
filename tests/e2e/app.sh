#!/usr/bin/env bash
# e2e of a benchmark application with an annotated kernel: its app mode natively, then
# under dl-run (DL_POLICY=always) three ways; what it reads back (the hashes its JSON
# lists) must be identical every time:
#   - the application's own annotated kernel, not dl-annotate's output: DL must leave it
#     untransformed (converting the buffer would change what the kernel reads);
#   - the same kernel under dl-run --auto, which rewrites it: transformed;
#   - the kernel dl-annotate rewrote in the build: transformed, the buffer converted.
#   app.sh <dl-run> <app exe> <rewritten .cl> <work dir> [app args...]
set -euo pipefail
dlrun="$1"; exe="$2"; rewritten="$3"; dir="$4"; shift 4
name="$(basename "$exe")"
rm -rf "$dir" && mkdir -p "$dir"
fnv() { sed -n 's/.*"result_fnv": "\([0-9a-f]*\)".*/\1/p' "$1"; }
count() { sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" "$2" | tail -1; }
"$exe" --mode app --iters 2 --json "$dir/native.json" "$@" >"$dir/native.log"
native=$(fnv "$dir/native.json")
[ -n "$native" ] || { echo "$name: no result in its JSON" >&2; exit 1; }
run() {  # run <label> <least transformed launches> [dl-run options] -- [app options]
  local label="$1" least="$2"; shift 2
  local opts=()
  while [ "$1" != -- ]; do opts+=("$1"); shift; done
  shift
  DL_POLICY=always DL_CACHE_DIR="$dir/cache" "$dlrun" "${opts[@]}" --report "$dir/$label.report.json" -- \
    "$exe" --mode app --iters 2 --json "$dir/$label.json" "$@" >"$dir/$label.log" 2>&1 ||
    { cat "$dir/$label.log" >&2; echo "$name $label: failed" >&2; exit 1; }
  [ "$(fnv "$dir/$label.json")" = "$native" ] ||
    { echo "$name $label: results differ from the native run's" >&2; exit 1; }
  local t m
  t=$(count transformed_launches "$dir/$label.report.json"); m=$(count marshals "$dir/$label.report.json")
  echo "$name $label: identical results, ${m:-0} marshals, ${t:-0} transformed launches"
  if [ "$least" = 0 ]; then
    [ "${t:-0}" = 0 ] || { echo "$name $label: transformed, expected untransformed" >&2; exit 1; }
  else
    [ "${t:-0}" -ge "$least" ] && [ "${m:-0}" -gt 0 ] ||
      { echo "$name $label: nothing converted or transformed" >&2; exit 1; }
  fi
}
run annotated 0 -- "$@"
grep -q "not dl-annotate's output" "$dir/annotated.log" ||
  { cat "$dir/annotated.log" >&2; echo "$name annotated: no warning says why" >&2; exit 1; }
run auto 1 --auto -- "$@"
run rewritten 1 -- --kernel "$rewritten" "$@"
