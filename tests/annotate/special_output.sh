#!/usr/bin/env bash
# dl-annotate writing to an output that is not a regular file (a pipe here; /dev/null,
# a terminal) writes into it: its atomic rename of a temporary would replace the special
# file with a regular one (run as root with -o /dev/null, that replaced the device).
#   special_output.sh <dl-annotate> <input.cl> <work dir>
set -euo pipefail
tool="$1" input="$2" dir="$3"
rm -rf "$dir" && mkdir -p "$dir"
mkfifo "$dir/pipe"
cat "$dir/pipe" >"$dir/read" &
reader=$!
"$tool" -o "$dir/pipe" "$input"
if [ ! -p "$dir/pipe" ]; then
  kill "$reader" 2>/dev/null || true  # still waiting for a writer of the old pipe
  echo "the pipe was replaced by: $(ls -l "$dir/pipe")" >&2
  exit 1
fi
wait "$reader"
grep -q '^//DL: AoS:' "$dir/read" || { echo "the rewrite did not come through the pipe" >&2; exit 1; }
[ -z "$(ls "$dir" | grep -v '^pipe$\|^read$')" ] || { echo "temporaries left: $(ls "$dir")" >&2; exit 1; }
echo "dl-annotate wrote its rewrite into the pipe, which is still a pipe"
