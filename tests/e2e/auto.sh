#!/usr/bin/env bash
# e2e of the zero-touch mode: an application with its kernel's //DL: lines removed (the
# original, unannotated kernel) runs natively and under `dl-run --auto`, twice (the
# annotator runs, then the cached rewrite serves); the results must be identical to the
# native run's, the report must show the program rewritten (then cached), and the
# launches transformed must be at least those of the hand-annotated kernel (whose run
# must give the native results too).
#   auto.sh <dl-run> <work dir> bench <app exe> <kernel dir> <annotated .cl|-> [args...]
#   auto.sh <dl-run> <work dir> example <example exe> <annotated source .cl> <rewritten .cl>
set -euo pipefail
dlrun="$1"; dir="$2"; kind="$3"; exe="$4"; shift 4
name="$(basename "$exe")"
rm -rf "$dir" && mkdir -p "$dir/plain" "$dir/hand" "$dir/cache"
strip() { sed '/^[[:space:]]*\/\/DL:/d' "$1" >"$2"; }
number() {  # the last "key": N of a report (totals come last: keys are sorted)
  sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" "$2" | tail -1
}
result() {  # what the application computed
  if [ "$kind" = bench ]; then sed -n 's/.*"result_fnv": "\([0-9a-f]*\)".*/\1/p' "$1"; else cmp "$2" "$1" && echo same; fi
}
if [ "$kind" = bench ]; then
  kdir="$1"; hand="$2"; shift 2
  app="${name#dl-app-}"
  cp "$kdir"/* "$dir/plain/" && cp "$kdir"/* "$dir/hand/"
  strip "$kdir/$app.cl" "$dir/plain/$app.cl"
  [ "$hand" != - ] && cp "$hand" "$dir/hand/$app.cl"
  run() {  # run <label> <kernel dir> [dl-run options]
    local label="$1" k="$2"; shift 2
    "$@" "$exe" --mode app --iters 2 --kernel-dir "$k" --json "$dir/$label.json" "${args[@]}" >"$dir/$label.log" 2>&1 ||
      { cat "$dir/$label.log" >&2; echo "$name $label: failed" >&2; exit 1; }
    result "$dir/$label.json"
  }
  args=("$@")
  native=$(run native "$dir/plain")
else
  src="$1"; hand="$2"
  for d in plain hand; do cp "$exe" "$dir/$d/"; done
  strip "$src" "$dir/plain/$name.cl"
  cp "$hand" "$dir/hand/$name.cl"
  run() {
    local label="$1" k="$2"; shift 2
    (cd "$k" && "$@" "./$name" "$dir/$label.bin" >"$dir/$label.log" 2>&1) ||
      { cat "$dir/$label.log" >&2; echo "$name $label: failed" >&2; exit 1; }
    echo done
  }
  run native "$dir/plain" >/dev/null
  native=$(result "$dir/native.bin" "$dir/native.bin")
fi
export DL_CACHE_DIR="$dir/cache" DL_POLICY=always
for pass in first cached; do
  out=$(run "auto-$pass" "$dir/plain" "$dlrun" --auto --report "$dir/auto-$pass.report.json")
  [ "$kind" = bench ] || out=$(result "$dir/auto-$pass.bin" "$dir/native.bin")
  [ "$out" = "$native" ] || { echo "$name auto ($pass): results differ from native" >&2; exit 1; }
  rewritten=$(grep -c '"rewritten": true' "$dir/auto-$pass.report.json" || true)
  fresh=$(grep -c '"cached": false' "$dir/auto-$pass.report.json" || true)
  if [ "$pass" = cached ] && [ "$fresh" != 0 ]; then
    echo "$name: the second run did not use the cached rewrite" >&2; exit 1
  fi
done
auto_t=$(number transformed_launches "$dir/auto-cached.report.json")
out=$(run hand "$dir/hand" "$dlrun" --report "$dir/hand.report.json")
[ "$kind" = bench ] || out=$(result "$dir/hand.bin" "$dir/native.bin")
[ "$out" = "$native" ] || { echo "$name hand-annotated: results differ from native" >&2; exit 1; }
hand_t=$(number transformed_launches "$dir/hand.report.json")
echo "$name: identical results; transformed launches: auto ${auto_t:-0}, hand-annotated ${hand_t:-0}; rewritten programs: $rewritten"
[ "${auto_t:-0}" -ge "${hand_t:-0}" ] || { echo "$name: --auto transforms fewer launches than the annotation" >&2; exit 1; }
# Under DL_POLICY=always an annotated kernel runs transformed: none would mean every
# launch fell back, and the comparison above would prove nothing.
[ "${hand:-}" = - ] || [ "${hand_t:-0}" -gt 0 ] || { echo "$name: the hand-annotated kernel transformed no launch" >&2; exit 1; }
