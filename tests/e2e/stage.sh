#!/usr/bin/env bash
# e2e: kernels staged in local memory (dl-annotate --stage-local) under the runtime. An
# unmodified application (dl-bench-stage) builds the rewritten program without DL_ASTA_T;
# under dl-run the runtime builds its DL build, which reads the staged boxes. The
# outputs of the original program natively, of the rewrite under DL_POLICY=always (every
# launch of the five kernels transformed, per the report) and under the controller must
# be identical.
#   stage.sh <dl-run> <dl-bench-stage> <original.cl> <rewritten.cl> <work dir>
set -euo pipefail
dlrun="$1"; bench="$2"; original="$3"; rewritten="$4"; dir="$5"
mkdir -p "$dir"
args=(--size cpu --repeats 2)
"$bench" "${args[@]}" --original "$original" --json "$dir/native.json" --out "$dir/native.bin"
DL_POLICY=always "$dlrun" --report "$dir/always.report.json" -- "$bench" "${args[@]}" \
  --original "$rewritten" --json "$dir/always.json" --out "$dir/always.bin"
cmp "$dir/native.bin" "$dir/always.bin"
python3 - "$dir/always.report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
k = {x["name"]: x for x in r["kernels"]}
for name in ("matmul_k", "matmul_wide", "stencil5", "stencil7", "conv5x5"):
    # The application's program: 3 timed launches, 1 warm-up and 3 more at another
    # work-group (staged or not, it is the DL build that runs); the bench's own
    # staged program adds as many.
    assert k[name]["transformed_launches"] >= 6, (name, k[name])
print("always: every launch of the staged kernels ran DL's build")
PY
DL_CACHE_DIR="$dir/cache" "$dlrun" --report "$dir/auto.report.json" -- "$bench" "${args[@]}" \
  --original "$rewritten" --json "$dir/auto.json" --out "$dir/auto.bin"
cmp "$dir/native.bin" "$dir/auto.bin"
echo "stage: identical outputs natively, under always and under the controller"
