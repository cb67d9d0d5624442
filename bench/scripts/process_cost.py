#!/usr/bin/env python3
"""What DL costs a process that it converts nothing for: wall times of one command
natively, with DL's library preloaded and disabled (DL_DISABLE=1), preloaded under
DL_POLICY=never and under the controller (auto), and under dl-run; and of /bin/true
natively, under `bash -c exec`, with DL's library preloaded, and under dl-run (which
preloads it: the launcher's own cost is the difference). Runs are
interleaved, --runs of each.

    bench/scripts/process_cost.py --build BUILD --out cost.json [--runs 60] [--cache DIR]
                                  -- COMMAND [ARGS...]

The JSON holds, per mode, the times, their median, 25th and 10th percentiles, and a 90%
bootstrap interval of the ratio of medians to native, with the date and the command.
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from policy_e2e import ratio_ci  # noqa: E402


def timed(argv, env):
    t = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    return time.perf_counter() - t


def summary(times, native):
    s = sorted(times)
    return {"times_s": times, "median_s": statistics.median(s), "p25_s": s[len(s) // 4],
            "p10_s": s[len(s) // 10], "ratio_to_native": statistics.median(s) /
            statistics.median(native), "ratio_ci90": ratio_ci(times, native)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=60)
    ap.add_argument("--cache", default="", help="DL_CACHE_DIR of the DL runs")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    o = ap.parse_args()
    cmd = o.command[1:] if o.command[:1] == ["--"] else o.command
    if not cmd:
        sys.exit("process_cost: no command")
    build = os.path.abspath(o.build)
    lib = os.path.join(build, "src", "interpose", "libdl_interpose.so")
    dlrun = os.path.join(build, "src", "interpose", "dl-run")
    env = dict(os.environ)
    if o.cache:
        env["DL_CACHE_DIR"] = o.cache

    def with_dl(**extra):
        e = dict(env, LD_PRELOAD=lib)
        e.update(extra)
        return e

    groups = {
        "command": [("native", cmd, env), ("preload_disabled", cmd, with_dl(DL_DISABLE="1")),
                    ("preload_never", cmd, with_dl(DL_POLICY="never")),
                    ("preload_auto", cmd, with_dl()), ("dl_run", [dlrun, "--"] + cmd, env)],
        "true": [("native", ["/bin/true"], env),
                 ("bash_exec", ["/bin/bash", "-c", "exec /bin/true"], env),
                 ("preload", ["/bin/true"], with_dl()),
                 ("dl_run", [dlrun, "--", "/bin/true"], env)],
    }
    doc = {"benchmark": "per-process cost of DL where it converts nothing",
           "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "command": " ".join(["bench/scripts/process_cost.py"] +
                               [a if not a.startswith("/") else "<path>" for a in sys.argv[1:]]),
           "runs": o.runs}
    for group, modes in groups.items():
        times = {m: [] for m, _, _ in modes}
        for _ in range(o.runs):
            for m, argv, e in modes:
                times[m].append(timed(argv, e))
        doc[group] = {m: summary(times[m], times["native"]) for m in times}
        for m in times:
            r = doc[group][m]
            print("%-8s %-17s median %7.1f ms  p25 %7.1f  p10 %7.1f" % (
                group, m, 1e3 * r["median_s"], 1e3 * r["p25_s"], 1e3 * r["p10_s"]), flush=True)
    with open(o.out, "w") as f:
        json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main()
