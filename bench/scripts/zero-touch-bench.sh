#!/usr/bin/env bash
# Net speedup of DL on the unmodified applications, hand-annotated against zero-touch:
# each application runs plain (its own kernel, no DL), under dl-run with its annotated
# kernel (bench/apps/annotated), and under dl-run --auto with its original kernel (the
# //DL: lines removed), with DL_POLICY=always and with the default policy (auto).
# Net speedup = plain kernel ms * iterations / (kernel ms * iterations + marshal device
# ms), as run-eval.sh's DL mode computes it. Under auto each runs twice: first with no
# experience (the cache's experience.json is removed at the start), then twice recalling
# what the earlier runs learned (`*_auto_again`, `*_auto_third`).
#
#   bench/scripts/zero-touch-bench.sh <build dir> <out.json> [platform] [profile gpu|cpu]
#
# The zero-touch kernels go to /tmp/dl-zero-touch (the path policy_e2e.py --zero-touch
# uses), so that rewrites cached on a machine with dl-annotate serve one without it: put
# them in $DL_CACHE_DIR/rewrite (DL_CACHE_DIR, default /tmp/dl-cache).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
B="$(cd "$1" && pwd)"; out="$2"; platform="${3:-}"; profile="${4:-gpu}"
apps="$B/bench/apps"; dlrun="$B/src/interpose/dl-run"
export DL_CACHE_DIR="${DL_CACHE_DIR:-/tmp/dl-cache}"
rm -f "$DL_CACHE_DIR/experience.json"  # the controller's first runs start from nothing
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
hand="$work/annotated"; zt=/tmp/dl-zero-touch
mkdir -p "$hand" "$zt"
for d in "$root"/bench/apps/*/; do
  a="$(basename "$d")"
  [ "$a" = annotated ] && continue
  cp "$d"*.h "$hand/" 2>/dev/null || true
  cp "$d"*.h "$zt/" 2>/dev/null || true
  [ -f "$d$a.cl" ] && sed '/^[[:space:]]*\/\/DL:/d' "$d$a.cl" >"$zt/$a.cl"
done
cp "$root"/bench/apps/annotated/*.cl "$hand/"
iters=10
if [ "$profile" = gpu ]; then
  cases=("micro --S 16 --n 1048576" "lbm --nx 100 --ny 100 --nz 130 --steps 2"
         "blackscholes --n 4194304" "spmv --matrices table1:e40r0000" "md" "streamcluster" "nn"
         "bezier" "bfs")
else
  cases=("micro --S 16 --n 262144" "lbm --nx 40 --ny 40 --nz 50 --steps 2"
         "blackscholes --n 1048576" "spmv --matrices table1:e40r0000" "md --boxes1d 4"
         "streamcluster --n 100000"
         "nn --n 1000000" "bezier --m 15 --nu 128 --nv 128" "bfs --n 100000")
fi
dev=()
[ -n "$platform" ] && export DL_BENCH_PLATFORM="$platform"  # the apps pick it by name
for c in "${cases[@]}"; do
  read -r -a w <<<"$c"; app="${w[0]}"; args=("${w[@]:1}")
  run() {  # run <label> <kernel dir> [dl-run options...]
    local label="$1" k="$2"; shift 2
    local pre=()
    (($#)) && pre=("$dlrun" "$@" --report "$work/$app.$label.report.json" --)
    "${pre[@]}" "$apps/dl-app-$app" "${dev[@]}" "${args[@]}" --mode app --iters "$iters" \
      --kernel-dir "$k" --json "$work/$app.$label.json" >"$work/$app.$label.log" 2>&1 ||
      { cat "$work/$app.$label.log" >&2; echo "$app $label failed" >&2; exit 1; }
  }
  run plain "$hand"
  for p in always auto; do
    run "annotated_$p" "$hand" --policy "$p"
    run "zero_touch_$p" "$zt" --auto --policy "$p"
  done
  # The controller again, recalling what the earlier runs learned (experience.json): a
  # first run whose launches all ended before DL's build learns only a; the second then
  # measures t, and the third recalls both.
  for again in again third; do
    run "annotated_auto_$again" "$hand" --policy auto
    run "zero_touch_auto_$again" "$zt" --auto --policy auto
  done
  echo "zero-touch-bench: $app done"
done
PYTHONPATH="$root/bench/scripts" python3 - "$work" "$out" "$profile" "${cases[@]}" <<'PY'
import datetime, json, os, sys
from net_speedup import dl_run, load
work, out, profile, cases = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
rows, device = [], ""
for c in cases:
    app = c.split()[0]
    plain = load(os.path.join(work, app + ".plain.json"))
    device = device or plain.get("device", "")
    row = {"app": app, "args": c.split()[1:], "modes": {}}
    for m in ("annotated_always", "zero_touch_always", "annotated_auto", "zero_touch_auto",
              "annotated_auto_again", "zero_touch_auto_again", "annotated_auto_third",
              "zero_touch_auto_third"):
        row["modes"][m] = dl_run(plain["cases"][0], os.path.join(work, "%s.%s.json" % (app, m)),
                                 os.path.join(work, "%s.%s.report.json" % (app, m)))
    row["plain_kernel_ms"] = plain["cases"][0]["kernel_ms"]
    rows.append(row)
    print("%-13s %s" % (app, "  ".join("%s %.2fx%s" % (m, v["net_speedup"], "" if v["same_results"] else " DIFFERENT")
                                       for m, v in row["modes"].items())))
doc = {"benchmark": "net speedup of DL on the unmodified applications: hand-annotated kernels "
                    "vs their original kernels under dl-run --auto (cached rewrite)",
       "device": device, "profile": profile,
       "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
       "command": "bench/scripts/zero-touch-bench.sh <build> <out> " + profile, "apps": rows}
with open(out, "w") as f:
    json.dump(doc, f, indent=1)
PY
