#!/usr/bin/env bash
# e2e: runs an example natively and under dl-run (default, layer and preload modes) with
# DL_POLICY=always, where the report must show marshaling, and with the default policy; the
# output bytes must be identical every time.
#   compare.sh <dl-run> <example executable> <work dir> [example args...]
set -euo pipefail
dlrun="$1"; app="$2"; dir="$3"; shift 3
name="$(basename "$app")"
mkdir -p "$dir"
"$app" "$dir/$name.native.bin" "$@"
for mode in both layer preload; do
  rm -f "$dir/$name.$mode.json"
  flag="--$mode"
  [ "$mode" = both ] && flag=""
  DL_POLICY=always "$dlrun" $flag --report "$dir/$name.$mode.json" -- "$app" "$dir/$name.$mode.bin" "$@"
  cmp "$dir/$name.native.bin" "$dir/$name.$mode.bin"
  # totals is the last object of the report (keys are sorted): its marshals count.
  marshals=$(sed -n 's/.*"marshals": \([0-9]*\).*/\1/p' "$dir/$name.$mode.json" | tail -1)
  transformed=$(sed -n 's/.*"transformed_launches": \([0-9]*\).*/\1/p' "$dir/$name.$mode.json" | tail -1)
  echo "$name $mode: identical output, $marshals marshals, $transformed transformed launches"
  [ "${marshals:-0}" -gt 0 ] && [ "${transformed:-0}" -gt 0 ] || { echo "no marshaling under $mode" >&2; exit 1; }
done
# The default policy (the profitability controller decides): the same bytes.
DL_CACHE_DIR="$dir/cache" "$dlrun" --report "$dir/$name.auto.json" -- "$app" "$dir/$name.auto.bin" "$@"
cmp "$dir/$name.native.bin" "$dir/$name.auto.bin"
echo "$name auto: identical output"
