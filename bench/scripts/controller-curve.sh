#!/usr/bin/env bash
# Figure 6's controller curves: the net speedup of the profitability controller (dl-run,
# DL_POLICY=auto) over the application's own AoS kernel, measured at each number of
# iterations, in a first run (no experience: experience.json removed before it) and in a
# second and a third run recalling what the earlier ones learned; at 10 iterations also
# the run after the experience holds a verdict ("learned"), then CURVE_REPEATS (default 5)
# rounds of a plain, a learned and an always run ("steady": the learned controller against
# always, each round's net speedup over its own plain run). Net speedup = plain kernel ms
# * iterations / (DL's kernel ms * iterations + marshal device ms), as zero-touch-bench.sh
# computes it.
#
#   bench/scripts/controller-curve.sh <build dir> <out.json> [platform] [profile gpu|cpu]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
B="$(cd "$1" && pwd)"; out="$2"; platform="${3:-}"; profile="${4:-gpu}"
apps="$B/bench/apps"; dlrun="$B/src/interpose/dl-run"
export DL_CACHE_DIR="${DL_CACHE_DIR:-/tmp/dl-cache}"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
[ -n "$platform" ] && export DL_BENCH_PLATFORM="$platform"
. "$root/bench/scripts/dlmode_cases.sh"
hand="$work/annotated"
dlmode_kernels "$hand"
read -r -a iters <<<"${CURVE_ITERS:-1 2 3 5 10 20 30}"  # (CURVE_ITERS: a shorter list)
learn_at=10  # where the steady state is measured too
repeats="${CURVE_REPEATS:-5}"  # its rounds
verdict() {  # every kernel of the experience file has a verdict
  python3 - "$DL_CACHE_DIR/experience.json" <<'PY'
import json, sys
try:
    kernels = [k for d in json.load(open(sys.argv[1]))["devices"].values() for k in d.values()]
except (OSError, ValueError, KeyError):
    sys.exit(1)
sys.exit(0 if kernels and all(k.get("never") or k.get("transformed_ns", 0) > 0 for k in kernels)
         else 1)
PY
}
for c in "${cases[@]}"; do
  read -r -a w <<<"$c"; app="${w[0]}"; args=("${w[@]:1}")
  for k in "${iters[@]}"; do
    run() {  # run <label> [dl-run options...]
      local label="$1"; shift
      local pre=()
      (($#)) && pre=("$dlrun" "$@" --report "$work/$app.$k.$label.report.json" --)
      "${pre[@]}" "$apps/dl-app-$app" "${args[@]}" --mode app --iters "$k" --kernel-dir "$hand" \
        --json "$work/$app.$k.$label.json" >"$work/$app.$k.$label.log" 2>&1 ||
        { cat "$work/$app.$k.$label.log" >&2; echo "$app $label failed" >&2; exit 1; }
    }
    rm -f "$DL_CACHE_DIR/experience.json"
    run plain
    run first --policy auto
    run again --policy auto
    run third --policy auto
    run always --policy always
    if [ "$k" = "$learn_at" ]; then
      # Runs until the experience holds a verdict for every kernel (at most 12), then one
      # more: the steady state of an application run again and again.
      n=3
      while ((n < 12)) && ! verdict; do
        n=$((n + 1)); run learning --policy auto
      done
      v=0; verdict && v=1
      echo "$n $v" >"$work/$app.$k.runs_before_learned"
      run learned --policy auto
      # The steady state against always, in rounds of plain, learned and always (the
      # same GPU's kernel times drift by a few percent between runs).
      for ((r = 1; r <= repeats; r++)); do
        run "plain.r$r"; run "learned.r$r" --policy auto; run "always.r$r" --policy always
      done
    fi
  done
  echo "controller-curve: $app done"
done
PYTHONPATH="$root/bench/scripts" python3 - "$work" "$out" "$profile" "${iters[*]}" "$repeats" "${cases[@]}" <<'PY'
import datetime, json, os, statistics, sys
from net_speedup import dl_run, load
work, out, profile, iters = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split()
repeats, cases = int(sys.argv[5]), sys.argv[6:]
rows, device = [], ""
for c in cases:
    app = c.split()[0]
    row = {"app": app, "args": c.split()[1:], "points": []}
    for k in iters:
        plain = load(os.path.join(work, "%s.%s.plain.json" % (app, k)))
        device = device or plain.get("device", "")
        cp = plain["cases"][0]
        point = {"iters": int(k), "plain_kernel_ms": cp["kernel_ms"]}
        for m in ("first", "again", "third", "always"):
            point[m] = dl_run(cp, os.path.join(work, "%s.%s.%s.json" % (app, k, m)),
                              os.path.join(work, "%s.%s.%s.report.json" % (app, k, m)), int(k))
        learned = os.path.join(work, "%s.%s.learned.json" % (app, k))
        if os.path.exists(learned):
            point["learned"] = dl_run(cp, learned, os.path.join(
                work, "%s.%s.learned.report.json" % (app, k)), int(k))
            with open(os.path.join(work, "%s.%s.runs_before_learned" % (app, k))) as f:
                n, v = f.read().split()
                point["learned"]["runs_before"] = int(n)
                point["learned"]["verdict"] = v == "1"  # else: the 12 runs found none
            print("%-13s %3s iterations: learned %.2fx after %d runs" % (
                app, k, point["learned"]["net_speedup"], point["learned"]["runs_before"]))
            steady = {"rounds": repeats, "learned": [], "always": [], "same_results": True}
            for r in range(1, repeats + 1):
                pr = load(os.path.join(work, "%s.%s.plain.r%d.json" % (app, k, r)))["cases"][0]
                for m in ("learned", "always"):
                    got = dl_run(pr, os.path.join(work, "%s.%s.%s.r%d.json" % (app, k, m, r)),
                                 os.path.join(work, "%s.%s.%s.r%d.report.json" % (app, k, m, r)),
                                 int(k))
                    steady[m].append(got["net_speedup"])
                    steady["same_results"] = steady["same_results"] and got["same_results"]
            if repeats:
                steady["median"] = {m: statistics.median(steady[m]) for m in ("learned", "always")}
                print("%-13s %3s iterations: %d rounds, median learned %.2fx, always %.2fx" % (
                    app, k, repeats, steady["median"]["learned"], steady["median"]["always"]))
            point["steady"] = steady
        row["points"].append(point)
        print("%-13s %3s iterations: first %.2fx, again %.2fx, third %.2fx, always %.2fx%s" % (
            app, k, point["first"]["net_speedup"], point["again"]["net_speedup"],
            point["third"]["net_speedup"], point["always"]["net_speedup"],
            "" if all(point[m]["same_results"] for m in ("first", "again", "third", "always"))
            else " DIFFERENT"))
    rows.append(row)
doc = {"benchmark": "net speedup of the controller (dl-run, auto) by iterations: a first run "
                    "with no experience, a second and a third recalling what the earlier "
                    "learned, and at 10 iterations the run after the experience holds a verdict; always "
                    "for reference",
       "device": device, "profile": profile,
       "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
       "command": "bench/scripts/controller-curve.sh <build> <out> " + profile, "apps": rows}
with open(out, "w") as f:
    json.dump(doc, f, indent=1)
PY
