#!/usr/bin/env bash
# The address helpers' integer width, end to end under dl-run --policy always at 10
# iterations (the net speedup of run-eval.sh's DL mode): per application, ROUNDS (default
# 5) interleaved rounds of its plain run and of dl-run in each way:
#
#   measure  bench/apps/annotated/<app>.cl, DL_OFFSET_WIDTH=measure (the default: DL
#            builds both widths and keeps the faster per kernel, docs/runtime.md)
#   32, 64   the same with DL_OFFSET_WIDTH=32 or 64
#
# DL_CACHE_DIR is a fresh directory: the first round's "measure" run times both widths,
# the later rounds recall what it chose (docs/runtime.md, "Offset width").
#
#   bench/scripts/width-bench.sh <build dir> <out.json> [platform] [profile gpu|cpu]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
B="$(cd "$1" && pwd)"; out="$2"; platform="${3:-}"; profile="${4:-gpu}"
apps="$B/bench/apps"; dlrun="$B/src/interpose/dl-run"
rounds="${ROUNDS:-5}"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
[ -n "$platform" ] && export DL_BENCH_PLATFORM="$platform"
. "$root/bench/scripts/dlmode_cases.sh"
dlmode_kernels "$work/kernels"
export DL_CACHE_DIR="$work/cache"
ways=(measure 32 64)
for c in "${cases[@]}"; do
  read -r -a w <<<"$c"; app="${w[0]}"; args=("${w[@]:1}")
  for r in $(seq "$rounds"); do
    for v in plain "${ways[@]}"; do
      pre=()
      if [ "$v" != plain ]; then
        pre=(env DL_OFFSET_WIDTH="$v" "$dlrun" --policy always
             --report "$work/$app.$r.$v.report.json" --)
      fi
      "${pre[@]}" "$apps/dl-app-$app" "${args[@]}" --mode app --iters 10 \
        --kernel-dir "$work/kernels" \
        --json "$work/$app.$r.$v.json" >"$work/$app.$r.$v.log" 2>&1 ||
        { cat "$work/$app.$r.$v.log" >&2; echo "$app $v failed" >&2; exit 1; }
    done
  done
done
PYTHONPATH="$root/bench/scripts" python3 - "$work" "$out" "$rounds" "$*" "${ways[*]}" \
  "${cases[@]}" <<'PY'
import datetime, json, statistics, sys
from net_speedup import dl_run, load
work, out, rounds, argv, ways = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
cases = sys.argv[6:]
res = {"benchmark": "net speedup under dl-run --policy always at 10 iterations, per width "
                    "of the address helpers (bench/scripts/width-bench.sh)",
       "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
       "command": "bench/scripts/width-bench.sh " + argv,
       "ways": {"measure": "DL_OFFSET_WIDTH=measure (the default; round 1 measures, "
                           "the later rounds recall its choice)",
                "32": "DL_OFFSET_WIDTH=32", "64": "DL_OFFSET_WIDTH=64"},
       "apps": []}
for c in cases:
    app = c.split()[0]
    plain0 = load(f"{work}/{app}.1.plain.json")
    res["device"] = plain0.get("device")
    res["driver"] = plain0.get("driver")
    entry = {"app": app, "args": c, "variants": {}}
    for v in ways.split():
        runs = []
        for r in range(1, rounds + 1):
            plain = load(f"{work}/{app}.{r}.plain.json")["cases"][0]
            d = dl_run(plain, f"{work}/{app}.{r}.{v}.json", f"{work}/{app}.{r}.{v}.report.json")
            rep = load(f"{work}/{app}.{r}.{v}.report.json")
            runs.append({"plain_kernel_ms": plain["kernel_ms"], "dl_kernel_ms": d["kernel_ms"],
                         "offsets": {k["name"]: k.get("offsets") for k in rep.get("kernels", [])},
                         "marshal_ms": d["marshal_ms"], "net_speedup": d["net_speedup"],
                         "transformed_launches": d["transformed_launches"],
                         "same_results": d["same_results"]})
        entry["variants"][v] = {
            "median_net_speedup": statistics.median(x["net_speedup"] for x in runs),
            "median_dl_kernel_ms": statistics.median(x["dl_kernel_ms"] for x in runs),
            "all_same_results": all(x["same_results"] for x in runs), "rounds": runs}
    res["apps"].append(entry)
    print(app, {v: round(e["median_net_speedup"], 3) for v, e in entry["variants"].items()},
          {v: e["all_same_results"] for v, e in entry["variants"].items()})
with open(out, "w") as f:
    json.dump(res, f, indent=1)
PY
