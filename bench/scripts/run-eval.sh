#!/usr/bin/env bash
# The whole DL evaluation on one OpenCL device (issue 5), in one command:
#
#   bench/scripts/run-eval.sh DEVICE_TAG [--profile gpu|cpu|smoke] [--platform P] [--device D]
#                             [--out DIR] [--no-build] [--no-plot]
#
# Builds the benchmarks (Release, in $BUILD_DIR, default build-eval), then writes JSON under
# bench/results/DEVICE_TAG/ (or --out):
#   marshal.json       dl-bench-marshal: copy references, every algorithm on the (S, T) sweep,
#                      the six Table 1 shapes, and the marshaling cost of the apps' buffers
#   micro.json, blackscholes.json, spmv.json, lbm.json, planes.json
#                      kernel times of AoS, DA, ASTA(T) (Figures 1 and 5), results checked
#                      (gpu profile: spmv.json also times spmv_variants.cl, --variants)
#   dlmode-*.json      the unmodified AoS apps with annotated kernels, plain and under
#                      dl-run (when dl-run and annotated kernels are available)
# and the figures (bench/scripts/plot.py) next to them. Profiles choose the sizes:
# gpu (a few minutes on an H100), cpu (PoCL, a few minutes on 2 cores), smoke (seconds).
# Environment: BUILD_DIR, SIZE_MIB (marshal sweep buffer), DL_EXTRA_PREFIX (extra
# CMAKE_PREFIX_PATH, e.g. carried nlohmann_json headers), JOBS, RUN_EVAL_PARTS (a subset of
# apps,marshal,dlmode; default all: machines that limit one command's time run the parts
# in separate calls; marshal reads the apps' JSON from the output directory where present),
# MARSHAL_RESUME=1 (dl-bench-marshal --resume the output directory's marshal.json: an
# interrupted marshal part goes on where it stopped).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tag="${1:?usage: run-eval.sh DEVICE_TAG [--profile gpu|cpu|smoke] [--platform P] [--device D] [--out DIR]}"
shift
profile=gpu platform=0 device=0 out="" build=1 plot=1
while (($#)); do
  case "$1" in
    --profile) profile="$2"; shift ;;
    --platform) platform="$2"; shift ;;
    --device) device="$2"; shift ;;
    --out) out="$2"; shift ;;
    --no-build) build=0 ;;
    --no-plot) plot=0 ;;
    *) echo "run-eval.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
out="${out:-$root/bench/results/$tag}"
B="${BUILD_DIR:-$root/build-eval}"
mkdir -p "$out"
log() { echo "[run-eval $(date +%H:%M:%S)] $*"; }
parts="${RUN_EVAL_PARTS:-apps,marshal,dlmode}"
part() { [[ ",$parts," == *",$1,"* ]]; }

case "$profile" in
  gpu)
    size="${SIZE_MIB:-1024}"; sweep_S=2,5,9,19,32; tiles=16,32,64; reps=5
    micro=(--S 1,2,3,4,5,6,8,9,12,16,19,20,24,28,32 --n 1048576)
    bs=(--n 4194304); spmv=(--matrices bcsstk18,table1 --variants); lbm=(--nx 100 --ny 100 --nz 130 --steps 2)
    planes=(--nz 256 --ny 1024 --nx 64)
    # 20 processes of 40000 launches per kernel and way: each process's median to about
    # 0.02 us; the interval over processes stays 0.15-0.27 us wide on the H100, where DL's
    # cost itself differs between processes (bench/results/h100/README.md).
    overhead=(--launches 40000 --processes 20)
    iters=10 ;;
  cpu)
    size="${SIZE_MIB:-32}"; sweep_S=2,5,9,19,32; tiles=16,32,64; reps=3
    micro=(--S 1,2,4,5,8,9,16,19,32 --n 262144)
    bs=(--n 1048576); spmv=(--matrices bcsstk18,table1); lbm=(--nx 40 --ny 40 --nz 50 --steps 2)
    planes=(--nz 64 --ny 256 --nx 64)
    overhead=(--launches 20000 --processes 10)
    iters=5 ;;
  smoke)
    size="${SIZE_MIB:-2}"; sweep_S=5,19; tiles=16,64; reps=1
    micro=(--S 1,5,32 --n 4096)
    bs=(--n 8192); spmv=(--matrices fidapm05,synthetic:500x9); lbm=(--nx 12 --ny 10 --nz 9 --steps 2)
    planes=(--nz 5 --ny 37 --nx 9)
    overhead=(--launches 2048 --processes 2)
    iters=2 ;;
  *) echo "run-eval.sh: unknown profile $profile" >&2; exit 2 ;;
esac
dev=(--platform "$platform" --device "$device")

if ((build)); then
  log "configuring and building in $B"
  cfg=(-S "$root" -B "$B" -DCMAKE_BUILD_TYPE=Release -DDL_BUILD_TESTS=OFF
       ${DL_EXTRA_PREFIX:+-DCMAKE_PREFIX_PATH="$DL_EXTRA_PREFIX"} ${DL_CMAKE_ARGS:-})
  if ! cmake "${cfg[@]}" >/dev/null; then
    log "configure failed; again without the interposer and examples (DL mode will be skipped)"
    cmake "${cfg[@]}" -DDL_BUILD_INTERPOSER=OFF -DDL_BUILD_EXAMPLES=OFF >/dev/null
  fi
  cmake --build "$B" -j "${JOBS:-$(nproc)}" --target dl-bench-marshal dl-app-micro \
    dl-app-blackscholes dl-app-spmv dl-app-lbm dl-app-planes
  have="$(cmake --build "$B" --target help)"
  for t in dl_interpose dl_run dl-annotate dl-bench-overhead; do  # for DL mode; optional
    if grep -q " $t\$" <<<"$have"; then
      cmake --build "$B" -j "${JOBS:-$(nproc)}" --target "$t" || log "building $t failed"
    fi
  done
fi
apps="$B/bench/apps"
kdir="$apps/kernels"

if part apps; then
  log "applications: kernel times in AoS, DA and ASTA($tiles), checked"
  "$apps/dl-app-micro" "${dev[@]}" "${micro[@]}" --T "$tiles" --repeats "$reps" --json "$out/micro.json"
  "$apps/dl-app-blackscholes" "${dev[@]}" "${bs[@]}" --T "$tiles" --repeats "$reps" --json "$out/blackscholes.json"
  "$apps/dl-app-spmv" "${dev[@]}" "${spmv[@]}" --T "$tiles" --repeats "$reps" --json "$out/spmv.json"
  "$apps/dl-app-lbm" "${dev[@]}" "${lbm[@]}" --T "$tiles" --repeats "$reps" --json "$out/lbm.json"
  # The plane transpose: AoS, DA and ASTA(ny) (the -> ASTA(ny) annotation's layout).
  "$apps/dl-app-planes" "${dev[@]}" "${planes[@]}" --repeats "$reps" --json "$out/planes.json"
fi

if part marshal; then
  log "marshaling: copy references, sweep (${size} MiB), Table 1 shapes, app buffers"
  app_json=""
  for a in blackscholes spmv lbm; do
    [ -f "$out/$a.json" ] && app_json="${app_json:+$app_json,}$out/$a.json"
  done
  resume=()
  [ -n "${MARSHAL_RESUME:-}" ] && [ -f "$out/marshal.json" ] && resume=(--resume "$out/marshal.json")
  "$B/bench/marshal/dl-bench-marshal" "${dev[@]}" --size-mib "$size" --S "$sweep_S" --T "$tiles" \
    --repeats "$reps" ${app_json:+--app-json "$app_json"} "${resume[@]}" \
    --json "$out/marshal.json" || log "dl-bench-marshal exit status $? (see above)"
fi

# DL mode: the unmodified AoS applications with annotated kernels (dl-annotate, or the
# files it wrote into bench/apps/annotated/ where it cannot be built), run plain and under
# dl-run. SpMV's annotation names its row length K, a kernel argument (one rewrite for
# every matrix); it runs on the e40r0000 shape.
dk=""
dlrun="$B/src/interpose/dl-run"
annot="$B/annotate/dl-annotate"
if ! part dlmode; then
  :
elif [ -x "$dlrun" ] && [ -f "$B/src/interpose/libdl_interpose.so" ]; then
  dk="$(mktemp -d)"
  mkdir -p "$dk"
  cp "$kdir"/*.h "$dk/"
  if [ -x "$annot" ]; then
    "$root/bench/scripts/annotate-apps.sh" "$annot" "$dk" || log "dl-annotate failed"
  else
    cp "$root"/bench/apps/annotated/*.cl "$dk/"
  fi
  for app in micro blackscholes spmv lbm planes; do
    [ -f "$dk/$app.cl" ] || { log "no annotated kernel for $app: skipped"; continue; }
    case $app in
      blackscholes) args=("${bs[@]}") ;;
      spmv) args=(--matrices table1:e40r0000) ;;
      micro) args=(--S 16 "${micro[@]:2}") ;;
      lbm) args=("${lbm[@]}") ;;
      planes) args=("${planes[@]}") ;;
    esac
    log "DL mode: $app (plain, then under dl-run)"
    "$apps/dl-app-$app" "${dev[@]}" "${args[@]}" --mode app --iters "$iters" --kernel-dir "$dk" \
      --json "$out/dlmode-$app-plain.json" || log "$app with the annotated kernel failed (exit $?)"
    # dl-run's default mode: preload and layer together (the layer takes over where the
    # loader supports layers). --policy always: every annotated launch converts (the
    # mechanics; the profitability controller, dl-run's default, is measured by
    # policy_e2e.py and controller-curve.sh: its first run converts nothing at 10 iterations).
    DL_LOG_LEVEL=info "$dlrun" --policy always --report "$out/dlmode-$app-report.json" \
      --trace "$out/dlmode-$app-trace.json" -- "$apps/dl-app-$app" "${dev[@]}" "${args[@]}" \
      --mode app --iters "$iters" --kernel-dir "$dk" --json "$out/dlmode-$app-dl.json" ||
      log "$app under dl-run failed (exit $?)"
  done
  if [ -x "$B/bench/overhead/dl-bench-overhead" ]; then
    log "interposer overhead per launch (native, then under dl-run)"
    "$B/bench/overhead/dl-bench-overhead" "$out/overhead.json" "${overhead[@]}" ||
      log "dl-bench-overhead exit status $?"
  fi
else
  log "dl-run not built: DL mode skipped"
fi

# The JSON records command lines: keep this machine's paths out of them.
for f in "$out"/*.json; do
  sed -i -e "s|$out/||g" -e "s|$B/|<build>/|g" -e "s|$root/||g" ${dk:+-e "s|$dk|<annotated-kernels>|g"} "$f"
done

if ((plot)); then
  py=""
  for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null && "$p" -c "import matplotlib" 2>/dev/null; then py="$p"; break; fi
  done
  if [ -n "$py" ]; then
    "$py" "$root/bench/scripts/plot.py" "$out"
  else
    log "python3-matplotlib missing: no figures (python3 bench/scripts/plot.py $out later)"
  fi
fi
log "results in $out"
