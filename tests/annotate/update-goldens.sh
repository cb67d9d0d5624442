#!/usr/bin/env bash
# Regenerates tests/annotate/golden/*.expected.cl with the dl-annotate of a build tree.
#   tests/annotate/update-goldens.sh <build dir>
# Review the diff (git diff tests/annotate/golden) before committing it.
set -euo pipefail
build="${1:?usage: $0 <build dir>}"
tool="$build/annotate/dl-annotate"
cd "$(dirname "$0")/golden"
for f in *.cl; do
  case "$f" in *.expected.cl) continue ;; esac
  # Options from the input's `// ARGS:` line, as golden_check.cmake passes them.
  read -r -a args <<<"$(sed -n 's|^// ARGS: ||p' "$f")"
  "$tool" "${args[@]}" -o "${f%.cl}.expected.cl" "$f"
  echo "updated golden/${f%.cl}.expected.cl"
done
