#!/usr/bin/env python3
"""Gathers the runs of bench/scripts/wave-bench.sh into one results file.

    wave_json.py OUT_DIR/wave results.json [--what TEXT] [--command TEXT]

Per shape: every run's diagonals_ms (the launches of one alignment), step_ms (write,
launches, read) and result hash for the native run, `dl-run --policy always` and
`dl-run` (the default policy); the mean of the runs; the speedups over native; and the
`--summary` lines of DL for the kernel and the buffer.
"""
import argparse
import datetime
import glob
import json
import os
import re
import statistics


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("out")
    ap.add_argument("--what", default="")
    ap.add_argument("--command", default="bench/scripts/wave-bench.sh")
    a = ap.parse_args()
    cases = {}
    device = {}
    for f in sorted(glob.glob(os.path.join(a.dir, "*.json"))):
        m = re.match(r"(native|always|auto)-(\d+)-(\d+)-(\d+)\.json$", os.path.basename(f))
        if not m:
            continue
        mode, nz, n, run = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))
        d = json.load(open(f))
        for k in ("device", "platform", "device_version", "driver"):
            if k in d and k not in device:
                device[k] = d[k]
        c = d["cases"][0]
        e = cases.setdefault((nz, n), {"case": c["case"], "nz": nz, "n": n, "runs": {}})
        e["runs"].setdefault(mode, []).append(
            {"run": run, **{k: c[k] for k in ("diagonals_ms", "step_ms", "first_step_ms",
                                              "result_fnv")}})
    out_cases = []
    for (nz, n), e in sorted(cases.items(), key=lambda kv: -kv[0][1]):
        e["matrix_bytes"] = nz * (n + 1) * (n + 1) * 4
        e["launches_per_iteration"] = 2 * n - 1
        means = {m: round(statistics.mean(r["diagonals_ms"] for r in rs), 3)
                 for m, rs in e["runs"].items()}
        e["diagonals_ms_mean_of_runs"] = means
        hashes = {r["result_fnv"] for rs in e["runs"].values() for r in rs}
        e["results_equal"] = len(hashes) == 1
        for m in ("always", "auto"):
            if m in means and "native" in means:
                e["diagonals_speedup_" + m] = round(means["native"] / means[m], 2)
        s = os.path.join(a.dir, "summary-%d-%d.txt" % (nz, n))
        if os.path.exists(s):
            lines = [l.strip() for l in open(s) if "launches" in l or "marshals" in l
                     or "offsets" in l]
            e["dl_summary_run_policy_always"] = lines
        out_cases.append(e)
    res = {"what": a.what, **device, "date": datetime.date.today().isoformat(),
           "command": a.command, "metrics": {
               "diagonals_ms": "wall time of the 2n - 1 launches of one alignment, enqueued "
                               "back to back then clFinish; mean over iterations 2-4",
               "step_ms": "write of the matrices (pageable), every diagonal, read back: mean "
                          "over iterations 2-4",
               "first_step_ms": "iteration 1 (builds, calibration)",
               "result_fnv": "hash of the matrices read back"},
           "cases": out_cases}
    with open(a.out, "w") as f:
        json.dump(res, f, indent=1)
        f.write("\n")
    for e in out_cases:
        print(e["case"], e["diagonals_ms_mean_of_runs"], "equal" if e["results_equal"]
              else "RESULTS DIFFER", {k: v for k, v in e.items() if k.startswith("diagonals_sp")})


if __name__ == "__main__":
    main()
