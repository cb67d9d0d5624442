#!/usr/bin/env python3
"""End-to-end times of DL's applications natively and under dl-run with each policy.

    bench/scripts/policy_e2e.py --build BUILD --out results.json [--runs 5] [--iters 10]
                                [--platform NAME] [--apps micro,lbm,...] [--cache DIR]
                                [--zero-touch DIR] [--modes always,auto,...]

Every application of bench/apps ("app" mode: the unmodified AoS host code with its
annotated kernel) and of examples/ runs natively, under `dl-run --policy always` and
under `dl-run` (the default policy, auto), --runs times each, interleaved (in alternating
order). For each it records the median process wall time, the application's own loop time
where it reports one, whether the output bytes are identical to the native run's, and what
DL decided (from the report of its last run; the others write none). The JSON holds the device, the date and the command. The
controller's experience (experience.json of the cache) is removed at the start: the first
run of each application under auto learns, the later ones recall (first_run_ratio: the
first alone). ratio_ci90 is a 90% bootstrap interval of each ratio of medians.

--zero-touch DIR adds the zero-touch mode: every application with its original kernel
(the //DL: lines removed, written to DIR) under `dl-run --auto` (the default policy) and
`dl-run --auto --policy always`. Rewrites are cached under the cache directory; a cache
made on a machine with dl-annotate serves one without it when DIR is the same path (the
annotator's options hold the kernel directory, -I).
"""
import argparse
import datetime
import filecmp
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


SIZES = {
    # The sizes of the GPU evaluation (bench/scripts/run-eval.sh --profile gpu).
    "gpu": [("micro", ["--S", "16"]),
            ("blackscholes", []),
            ("spmv", ["--matrices", "table1:e40r0000"]),
            ("lbm", ["--nx", "100", "--ny", "100", "--nz", "130", "--steps", "2"]),
            ("md", []), ("streamcluster", []), ("nn", []), ("bezier", []), ("bfs", []),
            ("kmeans", [])],
    # A CPU device: the same applications, a few seconds each.
    "cpu": [("micro", ["--S", "16", "--n", "200000"]),
            ("blackscholes", ["--n", "1000000"]),
            ("spmv", ["--matrices", "table1:e40r0000"]),
            ("lbm", ["--nx", "40", "--ny", "40", "--nz", "40", "--steps", "2"]),
            ("md", ["--boxes1d", "4"]), ("streamcluster", ["--n", "100000"]),
            ("nn", ["--n", "1000000"]), ("bezier", ["--m", "15", "--nu", "128", "--nv", "128"]),
            ("bfs", ["--n", "100000"]), ("kmeans", ["--npoints", "200000"])],
}


EXAMPLES = ["particles", "mixed", "options"]


def apps(build, iters, size):
    """(name, argv builder(out_file, kernel dir) -> argv, output kind) of every application.
    An example reads its kernel beside its executable: its builder takes the directory
    holding both (None: the build's)."""
    a = os.path.join(build, "bench", "apps")
    e = os.path.join(build, "examples")
    common = ["--mode", "app", "--iters", str(iters), "--repeats", "1"]
    out = []
    for name, args in SIZES[size]:
        exe = os.path.join(a, "dl-app-" + name)
        if os.path.exists(exe):
            out.append((name, lambda o, k, exe=exe, args=args:
                        [exe] + args + common + ["--kernel-dir", k, "--json", o], "json"))
    for name in EXAMPLES:
        exe = os.path.join(e, name)
        if os.path.exists(exe):
            out.append((name, lambda o, k, exe=exe, name=name:
                        [os.path.join(k, name) if k else exe, o], "bytes"))
    return out


def strip_annotations(src, dst):
    with open(src) as f:
        lines = [l for l in f if not l.lstrip().startswith("//DL:")]
    with open(dst, "w") as f:
        f.writelines(lines)


def zero_touch_dir(build, zdir):
    """The applications' original kernels (no //DL: lines) and headers in `zdir`; the
    examples' executables beside their kernels in zdir/examples."""
    os.makedirs(os.path.join(zdir, "examples"), exist_ok=True)
    apps_dir = os.path.join(ROOT, "bench", "apps")
    for sub in sorted(os.listdir(apps_dir)):
        d = os.path.join(apps_dir, sub)
        if sub in ("annotated",) or not os.path.isdir(d):
            continue
        for f in os.listdir(d):
            if f.endswith(".h"):
                shutil.copy(os.path.join(d, f), zdir)
            elif f == sub + ".cl":
                strip_annotations(os.path.join(d, f), os.path.join(zdir, f))
    for name in EXAMPLES:
        exe = os.path.join(build, "examples", name)
        if os.path.exists(exe):
            shutil.copy(exe, os.path.join(zdir, "examples", name))
            strip_annotations(os.path.join(ROOT, "examples", name, name + ".cl"),
                              os.path.join(zdir, "examples", name + ".cl"))


def run(argv, env):
    t0 = time.perf_counter()
    p = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return time.perf_counter() - t0, p.returncode, p.stdout


def loop_ms(path):
    try:
        with open(path) as f:
            d = json.load(f)
        return sum(c.get("wall_ms", 0) for c in d.get("cases", []))
    except (OSError, ValueError):
        return None


def results(path):
    """What the application computed (the bytes of its results, result_fnv)."""
    with open(path) as f:
        d = json.load(f)
    return json.dumps([c.get("result_fnv") for c in d.get("cases", [])])


def ratio_ci(dl, native, resamples=2000):
    """A 90% bootstrap interval of median(dl) / median(native) (None without both)."""
    if len(dl) < 2 or len(native) < 2:
        return None
    rng = random.Random(1)
    r = sorted(statistics.median(rng.choices(dl, k=len(dl))) /
               statistics.median(rng.choices(native, k=len(native))) for _ in range(resamples))
    return [r[int(0.05 * resamples)], r[int(0.95 * resamples) - 1]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--iters", type=int, default=10)
    ap.add_argument("--platform", default="")
    ap.add_argument("--apps", default="")
    ap.add_argument("--cache", default="", help="DL_CACHE_DIR (calibration) for the DL runs")
    ap.add_argument("--size", default="gpu", choices=sorted(SIZES))
    ap.add_argument("--device", default="",
                    help="the device's name for the results, where no calibration names it")
    ap.add_argument("--modes", default="",
                    help="the DL modes to run (comma-separated: always,auto,auto_uncached,auto_nondirect "
                         "and, with --zero-touch, zero_touch_always,zero_touch); default all")
    ap.add_argument("--zero-touch", default="",
                    help="directory for the original kernels: adds the dl-run --auto modes")
    o = ap.parse_args()
    build = os.path.abspath(o.build)
    dlrun = os.path.join(build, "src", "interpose", "dl-run")
    work = tempfile.mkdtemp(prefix="dl-policy-")
    kdir = os.path.join(work, "kernels")
    os.makedirs(kdir)
    annotated = os.path.join(ROOT, "bench", "apps", "annotated")
    for f in os.listdir(annotated):
        if f.endswith(".cl"):  # the rewritten kernels (not variants/)
            shutil.copy(os.path.join(annotated, f), kdir)
    for sub in ("common", "lbm", "spmv", "micro", "blackscholes"):
        d = os.path.join(ROOT, "bench", "apps", sub)
        for f in os.listdir(d):
            if f.endswith(".h"):
                shutil.copy(os.path.join(d, f), kdir)
    env = dict(os.environ)
    if o.platform:
        env["DL_BENCH_PLATFORM"] = o.platform
    env["DL_CACHE_DIR"] = o.cache or os.path.join(work, "cache")
    # The controller's first run of each application starts from no experience; the
    # later ones recall what it learned (docs/runtime.md, "Experience").
    try:
        os.remove(os.path.join(env["DL_CACHE_DIR"], "experience.json"))
    except OSError:
        pass
    modes = [("native", []), ("always", [dlrun, "--policy", "always"]), ("auto", [dlrun]),
             # The default policy with DL's programs and plans made in every run (no
             # on-disk caches, docs/runtime.md "On-disk caches").
             ("auto_uncached", ["env", "DL_CACHE_MIB=0", dlrun]),
             # The default policy with blocking transfers enqueued non-blocking under DL's
             # lock and waited for (docs/runtime.md, "Blocking transfers").
             ("auto_nondirect", ["env", "DL_DIRECT_BLOCKING=0", dlrun])]
    zdir = os.path.abspath(o.zero_touch) if o.zero_touch else ""
    if zdir:
        zero_touch_dir(build, zdir)
        modes += [("zero_touch_always", [dlrun, "--auto", "--policy", "always"]),
                  ("zero_touch", [dlrun, "--auto"])]
    if o.modes:
        keep = set(o.modes.split(","))
        unknown = keep - {m for m, _ in modes}
        if unknown:
            sys.exit("policy_e2e: no mode %s" % ", ".join(sorted(unknown)))
        modes = [(m, p) for m, p in modes if m == "native" or m in keep]
    wanted = set(filter(None, o.apps.split(",")))
    rows = []
    for name, argv, kind in apps(build, o.iters, o.size):
        if wanted and name not in wanted:
            continue
        times = {m: [] for m, _ in modes}
        loops = {m: [] for m, _ in modes}
        same = {m: True for m, _ in modes}
        report = {}
        failures = []
        native_out = None
        for r in range(o.runs):
            # The order alternates from one round to the next, so that no mode always runs
            # right after another one.
            for m, prefix in (modes if r % 2 == 0 else modes[::-1]):
                out = os.path.join(work, "%s.%s.%d.%s" % (name, m, r, "json" if kind == "json" else "bin"))
                rep = os.path.join(work, "%s.%s.report.json" % (name, m))
                k = (zdir if kind == "json" else os.path.join(zdir, "examples")) \
                    if m.startswith("zero_touch") else (kdir if kind == "json" else None)
                # Only the last run writes a report (what DL decided): the others time
                # what a user runs.
                last = r == o.runs - 1
                cmd = prefix + (["--report", rep] if prefix and last else []) + \
                    (["--"] if prefix else []) + argv(out, k)
                t, rc, log = run(cmd, env)
                if rc != 0:  # recorded, and the run counts as not identical
                    failures.append({"mode": m, "run": r, "status": rc, "log": log[-2000:]})
                    print("%s (%s) run %d failed (%d):\n%s" % (name, m, r, rc, log[-2000:]),
                          flush=True)
                    same[m] = False
                    continue
                times[m].append(t)
                if kind == "json":
                    loops[m].append(loop_ms(out))
                    got = results(out)
                    if m == "native" and native_out is None:
                        native_out = got
                    same[m] = same[m] and got == native_out
                else:
                    if m == "native" and native_out is None:
                        native_out = out
                    same[m] = same[m] and filecmp.cmp(native_out, out, shallow=False)
                if m != "native" and last and os.path.exists(rep):
                    with open(rep) as f:
                        report[m] = json.load(f)
        med = {m: statistics.median(times[m]) if times[m] else float("nan") for m in times}
        row = {"app": name, "runs": o.runs, "iters": o.iters if kind == "json" else None,
               "median_s": med, "times_s": times,
               "ratio_to_native": {m: med[m] / med["native"] for m in med},
               "ratio_ci90": {m: ratio_ci(times[m], times["native"]) for m in med
                              if m != "native"},
               # Under the controller the first run had no experience, the others recalled
               # it: the first alone, over the native median.
               "first_run_ratio": {m: times[m][0] / med["native"] for m in med
                                   if m in ("auto", "zero_touch") and times[m]},
               "identical_to_native": same, "failures": failures}
        if kind == "json":
            lm = {m: statistics.median([x for x in loops[m] if x is not None] or [0]) for m in loops}
            row["loop_ms"] = lm
            row["loop_speedup"] = {m: (lm["native"] / lm[m]) if lm[m] else None for m in lm}
        row["dl"] = {m: {"totals": r.get("totals"),
                         "kernels": [{k: x.get(k) for k in ("name", "launches",
                                                            "transformed_launches", "kept_aos",
                                                            "policy")} for x in r.get("kernels", [])],
                         "policy": r.get("policy"),
                         "auto": [{k: a.get(k) for k in ("rewritten", "cached", "seconds", "why",
                                                          "kernels")} for a in r.get("auto", [])]}
                  for m, r in report.items()}
        rows.append(row)
        ci = row["ratio_ci90"]
        print("%-13s native %.3f s, %s; identical: %s" %
              (name, med["native"], ", ".join(
                  "%s %.2fx%s" % (m, med[m] / med["native"],
                                  " [%.2f, %.2f]" % tuple(ci[m]) if ci.get(m) else "")
                  for m, _ in modes[1:]),
               all(same.values())), flush=True)
    dev = o.device
    for r in rows:
        p = r["dl"].get("auto", {}).get("policy") or {}
        for d in p.get("devices", []):
            dev = d.get("device", dev)
    try:  # the device's calibration as the cache holds it after the runs
        with open(os.path.join(env["DL_CACHE_DIR"], "calibration.json")) as f:
            calibration = json.load(f).get("devices", {})
    except (OSError, ValueError):
        calibration = {}
    dev = dev or " / ".join(calibration)  # (where no run consulted it)
    doc = {"benchmark": "end-to-end time natively, under dl-run --policy always and under dl-run (auto)"
                        + (", and with the original kernels under dl-run --auto (zero_touch, "
                           "zero_touch_always)" if zdir else ""),
           "device": dev, "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "command": " ".join(["bench/scripts/policy_e2e.py"] +
                               [a if not a.startswith("/") else "<path>" for a in sys.argv[1:]]),
           "calibration": calibration, "apps": rows}
    with open(o.out, "w") as f:
        json.dump(doc, f, indent=1)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
